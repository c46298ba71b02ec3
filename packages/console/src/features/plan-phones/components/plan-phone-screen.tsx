/**
 * Selling a phone a plan on its own (anti-theft or family care, no loan; decision 023), opened from the plan's screen
 * with `?enrol=1`: the plan, the owner (and the number alerts or the parent are reached on) and the phone. One key of
 * the plan's type is used; the phone then enrols from its EMM QR, which opens next (replacing the form, so Back does
 * not return to a sent form). The server's refusals show as its toast and on the field they concern.
 */
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { COUNTRY_PREFIX, PRODUCT_TYPE } from '@kisht/domain/constants';
import type { Plan } from '@kisht/contract/catalogue';
import { isValidImei } from '@kisht/domain/imei';
import { formatRupees } from '@kisht/domain/money';
import { Page } from '../../../shared/ui/page.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { Skeleton, SKELETON_LARGE } from '../../../shared/ui/skeleton.tsx';
import { isApiFailure, isOffline } from '../../../shared/api/api-failure.ts';
import { useGetBrandsQuery, useGetLicenseBalanceQuery, useGetPlansQuery, useGetProductsQuery } from '../../../shared/catalogue/catalogue-api.ts';
import { digitsOnly, IMEI_LENGTH, localMobile } from '../../../shared/customers/field-input.ts';
import { emmQrPath } from '../../../shared/routes.ts';
import { useEnrolPlanPhoneMutation } from '../api/plan-phone-api.ts';
import {
  EMAIL_MAX,
  emptyPlanPhoneDraft,
  MODEL_MAX,
  NAME_MAX,
  planPhoneBody,
  planPhoneErrorsFromServer,
  validatePlanPhone,
  type FieldError,
  type PlanPhoneDraft,
  type PlanPhoneErrors,
} from '../hooks/plan-phone-form.ts';
import './plan-phone.css';

export type PlanPhoneType = typeof PRODUCT_TYPE.ANTI_THEFT | typeof PRODUCT_TYPE.FAMILYCARE;

/** Words that differ between the two plans: the screen's title and what the other number is for. */
const WORDS: Record<PlanPhoneType, { title: string; other: string; otherHint: string }> = {
  [PRODUCT_TYPE.ANTI_THEFT]: { title: 'planPhone.title.antitheft', other: 'planPhone.ownerOther', otherHint: 'planPhone.ownerOtherHint' },
  [PRODUCT_TYPE.FAMILYCARE]: { title: 'planPhone.title.familycare', other: 'planPhone.parentMobile', otherHint: 'planPhone.parentMobileHint' },
};

export function PlanPhoneScreen({ productType }: { productType: PlanPhoneType }) {
  const { t } = useTranslation();
  const products = useGetProductsQuery();
  const product = products.data?.find((p) => p.product_type === productType);
  const plans = useGetPlansQuery(product?.id ?? 0, { skip: !product });
  const failed = products.isError ? products : plans.isError ? plans : null;
  const words = WORDS[productType];

  return (
    <Page title={t(words.title)}>
      <p className="page-subtitle">{t('planPhone.intro')}</p>
      {failed && !(products.data && plans.data) ? (
        <LoadErrorCard message={isOffline(failed.error) ? t('planPhone.offline') : t('planPhone.loadError')} onRetry={() => void failed.refetch()} />
      ) : products.data && !product ? (
        <p className="card empty-state">{t('planPhone.notSold')}</p>
      ) : plans.data && plans.data.length === 0 ? (
        <p className="card empty-state">{t('planPhone.noPlans')}</p>
      ) : !plans.data || !product ? (
        <div aria-busy="true" aria-label={t('common.loading')}>
          <Skeleton height={SKELETON_LARGE} />
        </div>
      ) : (
        <PlanPhoneForm productId={product.id} productType={productType} plans={plans.data} />
      )}
    </Page>
  );
}

function PlanPhoneForm({ productId, productType, plans }: { productId: number; productType: PlanPhoneType; plans: Plan[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const words = WORDS[productType];
  const [enrol, { isLoading: sending }] = useEnrolPlanPhoneMutation();
  const { data: brands } = useGetBrandsQuery();
  const { data: balances } = useGetLicenseBalanceQuery();
  // One plan is the choice made already.
  const [draft, setDraft] = useState<PlanPhoneDraft>(() => ({ ...emptyPlanPhoneDraft(), planId: plans.length === 1 ? String(plans[0]!.id) : '' }));
  const [errors, setErrors] = useState<PlanPhoneErrors>({});
  const form = useRef<HTMLFormElement>(null);
  const plan = plans.find((p) => String(p.id) === draft.planId);
  const keys = balances?.find((b) => b.product_type === productType)?.balance;
  const brandNames = useMemo(() => (brands ?? []).map((b) => b.name), [brands]);

  // "Valid for 365 days · ₹499": how long the plan lasts and what it costs, where the catalogue says.
  const planHint = (p: Plan) =>
    [p.validity_days !== null ? t('planPhone.validFor', { count: p.validity_days }) : null, p.price_paise !== null ? formatRupees(p.price_paise) : null].filter(Boolean).join(' · ') || undefined;
  const say = (error: FieldError | undefined): string | null => (!error ? null : 'text' in error ? error.text : t(error.key, error.vars));
  const errorOf = (field: keyof PlanPhoneDraft) => say(errors[field]);

  function update(patch: Partial<PlanPhoneDraft>) {
    setDraft((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const field of Object.keys(patch) as (keyof PlanPhoneDraft)[]) delete next[field];
      return next;
    });
  }

  function showErrors(found: PlanPhoneErrors) {
    setErrors(found);
    requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validatePlanPhone(draft);
    if (Object.keys(found).length > 0) return showErrors(found);
    setErrors({});
    try {
      // The server's message shows as the success toast; the phone's QR is next.
      const created = await enrol(planPhoneBody(draft, productId)).unwrap();
      void navigate(emmQrPath(created.customer.id), { replace: true });
    } catch (failure) {
      if (isApiFailure(failure)) showErrors(planPhoneErrorsFromServer(failure));
    }
  }

  // A full IMEI is checked as soon as it is typed, as on the add-customer form.
  const imeiError = (field: 'imei1' | 'imei2') => (draft[field].length === IMEI_LENGTH && !isValidImei(draft[field]) ? t('addCustomer.errors.imei') : errorOf(field));

  return (
    <form ref={form} className="form card" noValidate onSubmit={(event) => void submit(event)}>
      <SelectField
        label={t('planPhone.plan')}
        value={draft.planId}
        error={errorOf('planId')}
        hint={plan ? planHint(plan) : undefined}
        onChange={(event) => update({ planId: event.target.value })}
      >
        <option value="">{t('common.choose')}</option>
        {plans.map((p) => (
          <option key={p.id} value={String(p.id)}>
            {p.name}
          </option>
        ))}
      </SelectField>
      {keys !== undefined ? <p className={keys > 0 ? 'muted small' : 'field__error'}>{keys > 0 ? t('planPhone.keysLeft', { count: keys }) : t('planPhone.noKeys')}</p> : null}

      <h2 className="plan-phone-form__heading">{t('planPhone.owner')}</h2>
      <TextField label={t('addCustomer.firstName')} autoComplete="off" maxLength={NAME_MAX} value={draft.firstName} error={errorOf('firstName')} onChange={(event) => update({ firstName: event.target.value })} />
      <TextField label={t('addCustomer.lastName')} autoComplete="off" maxLength={NAME_MAX} value={draft.lastName} error={errorOf('lastName')} onChange={(event) => update({ lastName: event.target.value })} />
      <TextField
        label={t('planPhone.phoneNumber')}
        prefix={COUNTRY_PREFIX}
        type="tel"
        inputMode="numeric"
        autoComplete="off"
        maxLength={14}
        value={draft.mobile}
        error={errorOf('mobile')}
        onChange={(event) => update({ mobile: localMobile(event.target.value) })}
      />
      <TextField
        label={t(words.other)}
        hint={t(words.otherHint)}
        prefix={COUNTRY_PREFIX}
        type="tel"
        inputMode="numeric"
        autoComplete="off"
        maxLength={14}
        value={draft.altMobile}
        error={errorOf('altMobile')}
        onChange={(event) => update({ altMobile: localMobile(event.target.value) })}
      />
      <TextField
        label={t('common.optionalLabel', { label: t('addCustomer.email') })}
        type="email"
        inputMode="email"
        autoComplete="off"
        maxLength={EMAIL_MAX}
        value={draft.email}
        error={errorOf('email')}
        onChange={(event) => update({ email: event.target.value })}
      />

      <h2 className="plan-phone-form__heading">{t('planPhone.phone')}</h2>
      <SelectField label={t('device.brand')} value={draft.brand} error={errorOf('brand')} onChange={(event) => update({ brand: event.target.value })}>
        <option value="">{t('common.choose')}</option>
        {brandNames.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </SelectField>
      <TextField label={t('device.model')} autoComplete="off" maxLength={MODEL_MAX} value={draft.model} error={errorOf('model')} onChange={(event) => update({ model: event.target.value })} />
      <TextField
        label={t('device.imei1')}
        inputMode="numeric"
        autoComplete="off"
        maxLength={IMEI_LENGTH}
        value={draft.imei1}
        error={imeiError('imei1')}
        hint={t('addCustomer.imeiHint')}
        onChange={(event) => update({ imei1: digitsOnly(event.target.value, IMEI_LENGTH) })}
      />
      <TextField
        label={t('common.optionalLabel', { label: t('device.imei2') })}
        inputMode="numeric"
        autoComplete="off"
        maxLength={IMEI_LENGTH}
        value={draft.imei2}
        error={imeiError('imei2')}
        onChange={(event) => update({ imei2: digitsOnly(event.target.value, IMEI_LENGTH) })}
      />
      <p className="muted small">{t('planPhone.qrNext')}</p>
      <p className="muted small" aria-live="polite">
        {sending ? t('planPhone.sending') : ''}
      </p>
      <button type="submit" className="button button--primary button--block" disabled={sending}>
        {t('planPhone.submit')}
      </button>
    </form>
  );
}
