/** A customer's name, mobile (+91), alternate mobile and email: the add-customer step and the details edit. */
import { useTranslation } from 'react-i18next';
import { COUNTRY_PREFIX } from '@kisht/domain/constants';
import { TextField } from '../ui/text-field.tsx';
import { localMobile } from './field-input.ts';

export interface PersonDraft {
  firstName: string;
  lastName: string;
  mobile: string;
  altMobile: string;
  email: string;
}

export interface PersonFieldsProps {
  draft: PersonDraft;
  update: (patch: Partial<PersonDraft>) => void;
  errorOf: (field: keyof PersonDraft) => string | null;
  /**
   * What the two numbers are for where a form says it otherwise (a phone sold on a plan alone: the number in the phone,
   * and the owner's or parent's other number, required there); by default the customer's mobile and an optional one.
   */
  numbers?: { mobile: string; altMobile: string; altMobileHint?: string };
}

export function PersonFields({ draft, update, errorOf, numbers }: PersonFieldsProps) {
  const { t } = useTranslation();
  const optional = (label: string) => t('common.optionalLabel', { label });
  return (
    <>
      <TextField label={t('addCustomer.firstName')} autoComplete="off" maxLength={60} value={draft.firstName} error={errorOf('firstName')} onChange={(e) => update({ firstName: e.target.value })} />
      <TextField label={t('addCustomer.lastName')} autoComplete="off" maxLength={60} value={draft.lastName} error={errorOf('lastName')} onChange={(e) => update({ lastName: e.target.value })} />
      <MobileField label={numbers?.mobile ?? t('addCustomer.mobile')} value={draft.mobile} error={errorOf('mobile')} onChange={(mobile) => update({ mobile })} />
      <MobileField
        label={numbers?.altMobile ?? optional(t('addCustomer.altMobile'))}
        hint={numbers?.altMobileHint}
        value={draft.altMobile}
        error={errorOf('altMobile')}
        onChange={(altMobile) => update({ altMobile })}
      />
      <TextField label={optional(t('addCustomer.email'))} type="email" inputMode="email" autoComplete="off" maxLength={120} value={draft.email} error={errorOf('email')} onChange={(e) => update({ email: e.target.value })} />
    </>
  );
}

function MobileField({ label, hint, value, error, onChange }: { label: string; hint?: string; value: string; error: string | null; onChange: (value: string) => void }) {
  return (
    <TextField
      label={label}
      hint={hint}
      prefix={COUNTRY_PREFIX}
      type="tel"
      inputMode="numeric"
      autoComplete="off"
      maxLength={14}
      value={value}
      error={error}
      onChange={(e) => onChange(localMobile(e.target.value))}
    />
  );
}
