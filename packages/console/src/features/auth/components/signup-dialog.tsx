/** A shop asks for an account; an operator approves it later. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COUNTRY_PREFIX } from '@kisht/domain/constants';
import { isValidLocalMobile, withCountryPrefix } from '@kisht/domain/mobile';
import type { SignupRequestBody } from '@kisht/contract/auth';
import { FormDialog } from '../../../shared/ui/form-dialog.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { useSignupRequestMutation } from '../api/auth-api.ts';

type FieldName = 'first_name' | 'last_name' | 'mobile' | 'shop_name' | 'city' | 'email';
type Values = Record<FieldName, string>;
type Errors = Partial<Record<FieldName, string>>;

const EMPTY: Values = { first_name: '', last_name: '', mobile: '', shop_name: '', city: '', email: '' };
const REQUIRED: FieldName[] = ['first_name', 'last_name', 'mobile', 'shop_name', 'city'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_LENGTH: Record<FieldName, number> = { first_name: 60, last_name: 60, mobile: 10, shop_name: 120, city: 80, email: 120 };

export function SignupDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [signupRequest, { isLoading }] = useSignupRequestMutation();

  function validate(): Errors {
    const found: Errors = {};
    for (const name of REQUIRED) if (!values[name].trim()) found[name] = t('common.required');
    if (values.mobile && !isValidLocalMobile(values.mobile)) found.mobile = t('auth.login.invalidMobile');
    if (values.email.trim() && !EMAIL.test(values.email.trim())) found.email = t('auth.signup.invalidEmail');
    return found;
  }

  async function submit() {
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body: SignupRequestBody = {
      first_name: values.first_name.trim(),
      last_name: values.last_name.trim(),
      mobile: withCountryPrefix(values.mobile),
      shop_name: values.shop_name.trim(),
      city: values.city.trim(),
    };
    if (values.email.trim()) body.email = values.email.trim();
    try {
      await signupRequest(body).unwrap();
      setValues(EMPTY);
      onClose();
    } catch {
      // The error toast already says what went wrong.
    }
  }

  const field = (name: FieldName, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField
      label={t(`auth.signup.${name}`)}
      name={name}
      value={values[name]}
      error={errors[name]}
      maxLength={MAX_LENGTH[name]}
      onChange={(event) => {
        const value = name === 'mobile' ? event.target.value.replace(/\D/g, '').slice(0, 10) : event.target.value;
        setValues((current) => ({ ...current, [name]: value }));
      }}
      {...extra}
    />
  );

  return (
    <FormDialog open={open} title={t('auth.signup.title')} busy={isLoading} onClose={onClose} onSubmit={() => void submit()} submitLabel={t('auth.signup.submit')}>
      <p className="muted">{t('auth.signup.intro')}</p>
      {field('first_name', { autoComplete: 'given-name' })}
      {field('last_name', { autoComplete: 'family-name' })}
      {field('mobile', { prefix: COUNTRY_PREFIX, type: 'tel', inputMode: 'numeric', autoComplete: 'tel-national' })}
      {field('shop_name', { autoComplete: 'organization' })}
      {field('city', { autoComplete: 'address-level2' })}
      {field('email', { type: 'email', autoComplete: 'email', hint: t('auth.signup.optional') })}
    </FormDialog>
  );
}
