/**
 * The anti-hacking screen (spec sections 2 and 4): plans load on entry; the query's app_type narrows the plan
 * dropdown to that tier and its plan_id preselects a plan; the buyer's name, email and mobile; selling shows
 * the server's message and a dialog with the code, and closing it replaces this screen with the customer list.
 */
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AntihackingAdded, KindPlan } from '@kisht/contract/plans';
import { COUNTRY_PREFIX } from '@kisht/domain/constants';
import { formatRupees } from '@kisht/domain/money';
import { Page } from '../../../shared/ui/page.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { isApiFailure, isOffline } from '../../../shared/api/api-failure.ts';
import { useGetOrgAppConfigQuery } from '../../../shared/config/config-api.ts';
import { brandingOf } from '../../../shared/config/use-org-theme.ts';
import { localMobile } from '../../../shared/customers/field-input.ts';
import { customerListPath } from '../../../shared/routes.ts';
import { useAddAntihackingCustomerMutation, useGetAntihackingPlansQuery } from '../api/antihacking-api.ts';
import {
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  plansOffered,
  presetPlanId,
  readPlanQuery,
  saleBody,
  validateSale,
  type SaleDraft,
  type SaleErrors,
} from '../hooks/sale-form.ts';
import { SoldDialog } from './code-dialogs.tsx';
import './antihacking.css';

type Buyer = Omit<SaleDraft, 'planId'>;
const NO_BUYER: Buyer = { firstName: '', lastName: '', email: '', mobile: '' };

/** "₹299 · Valid for 365 days": what the chosen plan costs and how long it lasts. */
function usePlanSummary(plan: KindPlan | undefined): string | undefined {
  const { t } = useTranslation();
  if (!plan) return undefined;
  const validity = plan.validity_days ? t('pricing.validity', { days: plan.validity_days }) : t('pricing.noValidity');
  return plan.price_paise === null ? validity : `${formatRupees(plan.price_paise)} · ${validity}`;
}

export function AntihackingScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const query = useMemo(() => readPlanQuery(params), [params]);
  const { data: plans, isError, error, refetch } = useGetAntihackingPlansQuery();
  const { data: org } = useGetOrgAppConfigQuery();
  const compact = brandingOf(org).antihackingLayout === 'compact';
  const [addSale, { isLoading: selling }] = useAddAntihackingCustomerMutation();

  const offered = useMemo(() => plansOffered(plans ?? [], query), [plans, query]);
  const [buyer, setBuyer] = useState<Buyer>(NO_BUYER);
  // null until the retailer picks a plan: until then the query's plan (or the only plan offered) is the choice.
  const [pickedPlanId, setPickedPlanId] = useState<string | null>(null);
  const planId = pickedPlanId ?? presetPlanId(offered, query);
  const plan = offered.find((p) => String(p.id) === planId);
  const planSummary = usePlanSummary(plan);
  const [errors, setErrors] = useState<SaleErrors>({});
  const [sold, setSold] = useState<AntihackingAdded[number] | null>(null);
  const form = useRef<HTMLFormElement>(null);

  const errorOf = (field: keyof SaleDraft) => {
    const key = errors[field];
    return key ? t(key) : null;
  };

  /** An edited field's error goes until the next submit. */
  function clearErrors(fields: (keyof SaleDraft)[]) {
    setErrors((current) => {
      const next = { ...current };
      for (const field of fields) delete next[field];
      return next;
    });
  }

  function update(patch: Partial<Buyer>) {
    setBuyer((current) => ({ ...current, ...patch }));
    clearErrors(Object.keys(patch) as (keyof Buyer)[]);
  }

  function showErrors(found: SaleErrors) {
    setErrors(found);
    requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const draft: SaleDraft = { ...buyer, planId };
    const found = validateSale(draft, offered);
    if (Object.keys(found).length > 0 || !plan) return showErrors(found);
    setErrors({});
    try {
      // The server's message shows as the success toast (shared/api/base-query.ts); the code opens in the dialog.
      const added = await addSale(saleBody(draft, plan)).unwrap();
      if (added[0]) setSold(added[0]);
    } catch (failure) {
      // Its message is already a toast; a failure that belongs to the plan is marked on the dropdown too.
      if (isApiFailure(failure) && (failure.code === 'NO_LICENSE_KEY' || failure.code === 'PLAN_NOT_AVAILABLE')) {
        showErrors({ planId: `errors.${failure.code}` });
      }
    }
  }

  /** Back must not return to a form whose plan was sold: the list replaces it in the history. */
  function closeSold() {
    setSold(null);
    void navigate(customerListPath('antihacking'), { replace: true });
  }

  return (
    <Page title={t('antihacking.title')}>
      {!compact ? <p className="page-subtitle">{t('antihacking.intro')}</p> : null}
      {/* While the plans load the global spinner shows (this screen has no skeletons). */}
      {!plans && isError ? (
        <LoadErrorCard message={isOffline(error) ? t('antihacking.offline') : t('antihacking.plansLoadError')} onRetry={() => void refetch()} />
      ) : plans && plans.length === 0 ? (
        <p className="card empty-state">{t('antihacking.noPlans')}</p>
      ) : (
        <form ref={form} className="form card antihacking-form" noValidate onSubmit={(event) => void submit(event)}>
          <SelectField
            label={t('antihacking.plan')}
            value={planId}
            error={errorOf('planId')}
            hint={planSummary}
            disabled={!plans}
            onChange={(event) => {
              setPickedPlanId(event.target.value);
              clearErrors(['planId']);
            }}
          >
            <option value="">{t('common.choose')}</option>
            {offered.map((p) => (
              <option key={p.id} value={String(p.id)}>
                {p.name}
              </option>
            ))}
          </SelectField>
          {plan?.terms && !compact ? (
            <p className="antihacking-terms muted small">
              <span className="visually-hidden">{t('antihacking.planTerms')}: </span>
              {plan.terms}
            </p>
          ) : null}
          <TextField
            label={t('addCustomer.firstName')}
            autoComplete="off"
            maxLength={NAME_MAX_LENGTH}
            value={buyer.firstName}
            error={errorOf('firstName')}
            onChange={(event) => update({ firstName: event.target.value })}
          />
          <TextField
            label={t('addCustomer.lastName')}
            autoComplete="off"
            maxLength={NAME_MAX_LENGTH}
            value={buyer.lastName}
            error={errorOf('lastName')}
            onChange={(event) => update({ lastName: event.target.value })}
          />
          <TextField
            label={t('common.optionalLabel', { label: t('addCustomer.email') })}
            type="email"
            inputMode="email"
            autoComplete="off"
            maxLength={EMAIL_MAX_LENGTH}
            value={buyer.email}
            error={errorOf('email')}
            onChange={(event) => update({ email: event.target.value })}
          />
          <TextField
            label={t('addCustomer.mobile')}
            prefix={COUNTRY_PREFIX}
            type="tel"
            inputMode="numeric"
            autoComplete="off"
            maxLength={14}
            value={buyer.mobile}
            error={errorOf('mobile')}
            onChange={(event) => update({ mobile: localMobile(event.target.value) })}
          />
          <p className="muted small" aria-live="polite">
            {selling ? t('antihacking.selling') : ''}
          </p>
          <button type="submit" className="button button--primary button--block" disabled={selling || !plans}>
            {t('antihacking.submit')}
          </button>
        </form>
      )}
      {sold ? <SoldDialog sale={sold} onClose={closeSold} /> : null}
    </Page>
  );
}
