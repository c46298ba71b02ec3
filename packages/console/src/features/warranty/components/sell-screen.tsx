/**
 * Selling an extended warranty: the plan (its rules in plain words under the dropdown), the buyer and the phone with
 * its invoice. Opened from a customer's details (customer_id), the buyer and the phone come filled in from the
 * customer and the sale is linked to them. The server's refusals show as its message (the toast) and on the field
 * they concern; a sale replaces the form with the sale and its certificate, so Back does not return to a sold form.
 */
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CustomerProfile } from '@kisht/contract/customers';
import type { WarrantyPlan } from '@kisht/contract/warranty';
import { COUNTRY_PREFIX } from '@kisht/domain/constants';
import { formatDate, todayInIndia } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { isValidImei } from '@kisht/domain/imei';
import { Page } from '../../../shared/ui/page.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { RupeeField } from '../../../shared/ui/rupee-field.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { Skeleton, SKELETON_LARGE } from '../../../shared/ui/skeleton.tsx';
import { isApiFailure, isOffline } from '../../../shared/api/api-failure.ts';
import { useGetBrandsQuery } from '../../../shared/catalogue/catalogue-api.ts';
import { useGetCustomerProfileQuery } from '../../../shared/customers/customer-api.ts';
import { digitsOnly, IMEI_LENGTH, localMobile } from '../../../shared/customers/field-input.ts';
import { warrantyPath } from '../../../shared/routes.ts';
import { useGetWarrantyPlansQuery, useSellWarrantyMutation } from '../api/warranty-api.ts';
import {
  DEVICE_MAX_LENGTH,
  draftFromCustomer,
  EMAIL_MAX_LENGTH,
  emptySaleDraft,
  lastSaleDay,
  NAME_MAX_LENGTH,
  presetPlanId,
  saleBody,
  saleErrorsFromServer,
  validateSale,
  type FieldError,
  type SaleDraft,
  type SaleErrors,
} from '../hooks/sale-form.ts';
import { PlanRules } from './plan-rules.tsx';
import './warranty.css';

export function SellScreen({ customerId }: { customerId: number | null }) {
  const { t } = useTranslation();
  const { data: plans, isError, error, refetch } = useGetWarrantyPlansQuery();
  const customer = useGetCustomerProfileQuery(customerId ?? 0, { skip: customerId === null });
  const customerMissing = customerId !== null && !customer.data && customer.isError;

  return (
    <Page title={t('warranty.title')}>
      <p className="page-subtitle">{t('warranty.intro')}</p>
      {!plans && isError ? (
        <LoadErrorCard message={isOffline(error) ? t('warranty.offline') : t('warranty.plansLoadError')} onRetry={() => void refetch()} />
      ) : plans && plans.length === 0 ? (
        <p className="card empty-state">{t('warranty.noPlans')}</p>
      ) : customerMissing ? (
        <LoadErrorCard
          message={isApiFailure(customer.error) && customer.error.code === 'NOT_FOUND' ? t('customerDetails.notFound') : t('warranty.sell.customerLoadError')}
          onRetry={() => void customer.refetch()}
        />
      ) : customerId !== null && !customer.data ? (
        <div aria-busy="true" aria-label={t('common.loading')}>
          <Skeleton height={SKELETON_LARGE} />
        </div>
      ) : (
        // Keyed by the customer, so the form starts again from their details when it is opened for another one.
        <SellForm key={customerId ?? 'none'} plans={plans} customer={customer.data ?? null} />
      )}
    </Page>
  );
}

function SellForm({ plans, customer }: { plans: WarrantyPlan[] | undefined; customer: CustomerProfile | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [sell, { isLoading: selling }] = useSellWarrantyMutation();
  const { data: brands } = useGetBrandsQuery();
  const [draft, setDraft] = useState<SaleDraft>(() => (customer ? draftFromCustomer(customer) : emptySaleDraft()));
  const [errors, setErrors] = useState<SaleErrors>({});
  const form = useRef<HTMLFormElement>(null);
  const today = todayInIndia();

  const offered = useMemo(() => plans ?? [], [plans]);
  // Until the retailer picks a plan, the only plan offered is the choice.
  const planId = draft.planId || presetPlanId(offered);
  const plan = offered.find((p) => String(p.id) === planId);
  // The brands to choose from, with the customer's own when the list does not have it.
  const brandNames = useMemo(() => {
    const names = (brands ?? []).map((b) => b.name);
    return draft.brand && !names.includes(draft.brand) ? [draft.brand, ...names] : names;
  }, [brands, draft.brand]);
  const lastDay = lastSaleDay(plan, draft.invoiceDate);

  const say = (error: FieldError | undefined): string | null => {
    if (!error) return null;
    return 'text' in error ? error.text : t(error.key, error.vars);
  };
  const errorOf = (field: keyof SaleDraft) => say(errors[field]);

  function update(patch: Partial<SaleDraft>) {
    setDraft((current) => ({ ...current, ...patch }));
    // An edited field's error goes until the next submit.
    setErrors((current) => {
      const next = { ...current };
      for (const field of Object.keys(patch) as (keyof SaleDraft)[]) delete next[field];
      return next;
    });
  }

  function showErrors(found: SaleErrors) {
    setErrors(found);
    requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const complete: SaleDraft = { ...draft, planId };
    const found = validateSale(complete, offered, today);
    if (Object.keys(found).length > 0) return showErrors(found);
    setErrors({});
    try {
      // The server's message shows as the success toast (shared/api/base-query.ts).
      const sold = await sell(saleBody(complete, customer?.id ?? null)).unwrap();
      void navigate(warrantyPath({ saleId: sold.id }), { replace: true });
    } catch (failure) {
      // Its message is already a toast; it stays on the field it concerns.
      if (isApiFailure(failure)) showErrors(saleErrorsFromServer(failure));
    }
  }

  // A full IMEI is checked as soon as it is typed, as on the add-customer form.
  const imeiError = draft.imei.length === IMEI_LENGTH && !isValidImei(draft.imei) ? t('addCustomer.errors.imei') : errorOf('imei');

  return (
    <form ref={form} className="form card warranty-form" noValidate onSubmit={(event) => void submit(event)}>
      {customer ? <p className="warranty-form__for">{t('warranty.sell.forCustomer', { name: `${customer.first_name} ${customer.last_name}`.trim() })}</p> : null}
      <SelectField
        label={t('warranty.plan')}
        value={planId}
        error={errorOf('planId')}
        hint={plan && plan.price_paise !== null ? t('warranty.rules.price', { price: formatRupees(plan.price_paise) }) : undefined}
        disabled={!plans}
        onChange={(event) => update({ planId: event.target.value })}
      >
        <option value="">{t('common.choose')}</option>
        {offered.map((p) => (
          <option key={p.id} value={String(p.id)}>
            {p.name}
          </option>
        ))}
      </SelectField>
      {plan ? <PlanRules plan={plan} /> : null}

      <h2 className="warranty-form__heading">{t('warranty.sell.buyer')}</h2>
      <TextField
        label={t('addCustomer.firstName')}
        autoComplete="off"
        maxLength={NAME_MAX_LENGTH}
        value={draft.firstName}
        error={errorOf('firstName')}
        onChange={(event) => update({ firstName: event.target.value })}
      />
      <TextField
        label={t('addCustomer.lastName')}
        autoComplete="off"
        maxLength={NAME_MAX_LENGTH}
        value={draft.lastName}
        error={errorOf('lastName')}
        onChange={(event) => update({ lastName: event.target.value })}
      />
      <TextField
        label={t('addCustomer.mobile')}
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
        label={t('common.optionalLabel', { label: t('addCustomer.email') })}
        type="email"
        inputMode="email"
        autoComplete="off"
        maxLength={EMAIL_MAX_LENGTH}
        value={draft.email}
        error={errorOf('email')}
        onChange={(event) => update({ email: event.target.value })}
      />

      <h2 className="warranty-form__heading">{t('warranty.sell.phone')}</h2>
      <TextField
        label={t('warranty.certificate.imei')}
        inputMode="numeric"
        autoComplete="off"
        maxLength={IMEI_LENGTH}
        value={draft.imei}
        error={imeiError}
        hint={t('addCustomer.imeiHint')}
        onChange={(event) => update({ imei: digitsOnly(event.target.value, IMEI_LENGTH) })}
      />
      <SelectField label={t('device.brand')} value={draft.brand} error={errorOf('brand')} onChange={(event) => update({ brand: event.target.value })}>
        <option value="">{t('common.choose')}</option>
        {brandNames.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t('device.model')}
        autoComplete="off"
        maxLength={DEVICE_MAX_LENGTH}
        value={draft.model}
        error={errorOf('model')}
        onChange={(event) => update({ model: event.target.value })}
      />
      <RupeeField
        label={t('warranty.certificate.invoiceValue')}
        value={draft.invoiceValue}
        error={errorOf('invoiceValue')}
        onChange={(text) => update({ invoiceValue: text })}
      />
      <TextField
        label={t('warranty.certificate.invoiceDate')}
        type="date"
        max={today}
        value={draft.invoiceDate}
        error={errorOf('invoiceDate')}
        hint={lastDay ? t('warranty.sell.lastSaleDay', { date: formatDate(lastDay) }) : t('warranty.sell.invoiceDateHint')}
        onChange={(event) => update({ invoiceDate: event.target.value })}
      />
      <p className="muted small" aria-live="polite">
        {selling ? t('warranty.sell.selling') : ''}
      </p>
      <button type="submit" className="button button--primary button--block" disabled={selling || !plans}>
        {t('warranty.sell.submit')}
      </button>
    </form>
  );
}
