/**
 * Selling a phone a plan on its own (anti-theft or family care, no loan; decision 023), opened from the plan's screen
 * with `?enrol=1`: the plan, the owner (and the number alerts or the parent are reached on) and the phone. One key of
 * the plan's type is used; the phone then enrols from its EMM QR, which opens next (replacing the form, so Back does
 * not return to a sent form). The server's refusals show as its toast and on the field they concern.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PRODUCT_TYPE } from '@kisht/domain/constants';
import type { Plan } from '@kisht/contract/catalogue';
import { formatRupees } from '@kisht/domain/money';
import { Page } from '../../../shared/ui/page.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { Skeleton, SKELETON_LARGE } from '../../../shared/ui/skeleton.tsx';
import { isApiFailure, isOffline } from '../../../shared/api/api-failure.ts';
import { useGetBrandsQuery, useGetLicenseBalanceQuery, useGetPlansQuery, useGetProductsQuery } from '../../../shared/catalogue/catalogue-api.ts';
import { DeviceFields } from '../../../shared/customers/device-fields.tsx';
import { PersonFields } from '../../../shared/customers/person-fields.tsx';
import { emmQrPath } from '../../../shared/routes.ts';
import { useEnrolPlanPhoneMutation } from '../api/plan-phone-api.ts';
import {
  emptyPlanPhoneDraft,
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
  // The brand is required: without the list the form could not be sent.
  const brands = useGetBrandsQuery();
  const failed = products.isError ? products : plans.isError ? plans : brands.isError ? brands : null;
  const words = WORDS[productType];

  return (
    <Page title={t(words.title)}>
      <p className="page-subtitle">{t('planPhone.intro')}</p>
      {failed && !(products.data && plans.data && brands.data) ? (
        <LoadErrorCard message={isOffline(failed.error) ? t('planPhone.offline') : t('planPhone.loadError')} onRetry={() => void failed.refetch()} />
      ) : products.data && !product ? (
        <p className="card empty-state">{t('planPhone.notSold')}</p>
      ) : plans.data && plans.data.length === 0 ? (
        <p className="card empty-state">{t('planPhone.noPlans')}</p>
      ) : !plans.data || !product || !brands.data ? (
        <div aria-busy="true" aria-label={t('common.loading')}>
          <Skeleton height={SKELETON_LARGE} />
        </div>
      ) : (
        <PlanPhoneForm productId={product.id} productType={productType} plans={plans.data} brandNames={brands.data.map((b) => b.name)} />
      )}
    </Page>
  );
}

function PlanPhoneForm({ productId, productType, plans, brandNames }: { productId: number; productType: PlanPhoneType; plans: Plan[]; brandNames: string[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const words = WORDS[productType];
  const [enrol, { isLoading: sending }] = useEnrolPlanPhoneMutation();
  const { data: balances } = useGetLicenseBalanceQuery();
  // One plan is the choice made already.
  const [draft, setDraft] = useState<PlanPhoneDraft>(() => ({ ...emptyPlanPhoneDraft(), planId: plans.length === 1 ? String(plans[0]!.id) : '' }));
  const [errors, setErrors] = useState<PlanPhoneErrors>({});
  const form = useRef<HTMLFormElement>(null);
  const keysId = useId();
  const plan = plans.find((p) => String(p.id) === draft.planId);
  // No line for the type in the stock: no key of it.
  const keys = balances ? (balances.find((b) => b.product_type === productType)?.balance ?? 0) : undefined;

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
      <p id={keysId} className={keys === 0 ? 'field__error' : 'muted small'} role="status">
        {keys === undefined ? '' : keys > 0 ? t('planPhone.keysLeft', { count: keys }) : t('planPhone.noKeys')}
      </p>

      <h2 className="plan-phone-form__heading">{t('planPhone.owner')}</h2>
      <PersonFields
        draft={draft}
        update={update}
        errorOf={errorOf}
        numbers={{ mobile: t('planPhone.phoneNumber'), altMobile: t(words.other), altMobileHint: t(words.otherHint) }}
      />
      <h2 className="plan-phone-form__heading">{t('planPhone.phone')}</h2>
      <DeviceFields draft={draft} update={update} errorOf={errorOf} brandNames={brandNames} />
      <p className="muted small">{t('planPhone.qrNext')}</p>
      <p className="muted small" aria-live="polite">
        {sending ? t('planPhone.sending') : ''}
      </p>
      {/* Without a key the server would refuse the enrolment: the button says why it waits. */}
      <button type="submit" className="button button--primary button--block" disabled={sending || keys === 0} aria-describedby={keys === 0 ? keysId : undefined}>
        {t('planPhone.submit')}
      </button>
    </form>
  );
}
