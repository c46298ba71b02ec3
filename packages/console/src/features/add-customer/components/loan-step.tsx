/**
 * Step 3: product, plan, financier (and the references it requires), then the loan terms with the
 * live schedule recomputed on every keystroke by the domain's generateSchedule.
 */
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Financier, LoanProduct } from '@kisht/contract/catalogue';
import { addDays } from '@kisht/domain/calendar';
import { ANTIHACKING_PRODUCT_TYPES } from '@kisht/domain/constants';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { INTEREST_METHOD_LABEL_KEYS } from '../../../shared/labels.ts';
import { useGetLicenseBalanceQuery, useGetPlanQuery, useGetPlansQuery, useGetProductsQuery } from '../../../shared/catalogue/catalogue-api.ts';
import { previewLoan, type FieldErrors } from '../../../shared/customers/customer-form.ts';
import { SchedulePreview } from './schedule-preview.tsx';
import { productKindText } from '../../../shared/customers/loan-words.ts';
import type { StepProps } from './step-props.ts';
import { digitsOnly } from '../../../shared/customers/field-input.ts';
import { antihackingPath } from '../../../shared/routes.ts';
import './add-customer.css';

/** "loan_reference" -> "Loan reference", for financier fields the dictionary does not name. */
function humanise(field: string): string {
  const text = field.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Live errors: what is wrong with what was typed, but not "required" before the retailer presses Next. */
function typedErrors(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).filter(([, e]) => e && !('key' in e && e.key === 'common.required')));
}

export function LoanStep({ draft, update, errorOf, today, financiers, loanProducts }: StepProps & { today: string; financiers: Financier[]; loanProducts: LoanProduct[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: products } = useGetProductsQuery();
  const productId = draft.productId ? Number(draft.productId) : null;
  const { data: plans } = useGetPlansQuery(productId ?? 0, { skip: productId === null });
  const { data: balances } = useGetLicenseBalanceQuery();
  const planId = draft.planId ? Number(draft.planId) : null;
  const { data: plan } = useGetPlanQuery(planId ?? 0, { skip: planId === null });
  const financier = financiers.find((f) => String(f.id) === draft.financierId) ?? null;
  const loanProduct = loanProducts.find((p) => String(p.id) === draft.loanProductId) ?? null;
  const preview = useMemo(() => previewLoan(draft, today, loanProduct), [draft, today, loanProduct]);
  const live = preview.kind === 'ok' ? {} : typedErrors(preview.errors);
  const loanError = (field: 'loanProductId' | 'price' | 'downPayment' | 'processingFee' | 'rate' | 'method' | 'tenure' | 'advanceEmis' | 'firstDueDate') => {
    const error = live[field];
    if (error) return 'text' in error ? error.text : t(error.key, error.vars);
    return errorOf(field);
  };
  const keysLeft = (productType: number) => balances?.find((b) => b.product_type === productType)?.balance ?? 0;
  const product = products?.find((p) => p.id === productId);
  // Anti-hacking plans are sold to a mobile number, not on a loan: choosing one opens their own screen.
  const financedProducts = (products ?? []).filter((p) => !ANTIHACKING_PRODUCT_TYPES.includes(p.product_type));
  const antihackingProducts = (products ?? []).filter((p) => ANTIHACKING_PRODUCT_TYPES.includes(p.product_type));

  function chooseProduct(value: string) {
    const chosen = products?.find((p) => String(p.id) === value);
    if (chosen && ANTIHACKING_PRODUCT_TYPES.includes(chosen.product_type)) {
      void navigate(antihackingPath({ appType: chosen.product_type, productId: chosen.id }));
      return;
    }
    update({ productId: value, planId: '' });
  }

  return (
    <fieldset className="form-step">
      <legend className="visually-hidden">{t('addCustomer.steps.loan')}</legend>
      <SelectField
        label={t('addCustomer.product')}
        value={draft.productId}
        error={errorOf('productId')}
        hint={product ? t('addCustomer.keysLeft', { count: keysLeft(product.product_type) }) : undefined}
        onChange={(e) => chooseProduct(e.target.value)}
      >
        <option value="">{t('common.choose')}</option>
        {financedProducts.map((p) => (
          <option key={p.id} value={String(p.id)}>
            {p.name}
          </option>
        ))}
        {antihackingProducts.length > 0 ? (
          <optgroup label={t('antihacking.title')}>
            {antihackingProducts.map((p) => (
              <option key={p.id} value={String(p.id)}>
                {p.name}
              </option>
            ))}
          </optgroup>
        ) : null}
      </SelectField>
      <SelectField
        label={t('common.optionalLabel', { label: t('addCustomer.plan') })}
        value={draft.planId}
        disabled={!draft.productId}
        error={errorOf('planId')}
        hint={plan && plan.id === planId ? (plan.validity_days ? t('pricing.validity', { days: plan.validity_days }) : t('pricing.noValidity')) : undefined}
        onChange={(e) => update({ planId: e.target.value })}
      >
        <option value="">{draft.productId ? t('common.none') : t('addCustomer.chooseProductFirst')}</option>
        {(plans ?? []).map((p) => (
          <option key={p.id} value={String(p.id)}>
            {p.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t('common.optionalLabel', { label: t('addCustomer.financier') })}
        value={draft.financierId}
        error={errorOf('financierId')}
        onChange={(e) => update({ financierId: e.target.value })}
      >
        <option value="">{t('common.none')}</option>
        {financiers.map((f) => (
          <option key={f.id} value={String(f.id)}>
            {f.name}
          </option>
        ))}
      </SelectField>
      {financier?.required_fields.map((field) => (
        <TextField
          key={field}
          label={t(`addCustomer.financierField.${field}`, { defaultValue: humanise(field) })}
          autoComplete="off"
          maxLength={60}
          value={draft.financierReference[field] ?? ''}
          error={errorOf(`financier_reference.${field}`)}
          hint={t('addCustomer.financierFieldHint', { financier: financier.name })}
          onChange={(e) => update({ financierReference: { ...draft.financierReference, [field]: e.target.value } })}
        />
      ))}

      {loanProducts.length > 0 ? (
        <SelectField
          label={t('addCustomer.loanProduct')}
          value={draft.loanProductId}
          error={loanError('loanProductId')}
          hint={loanProduct ? productKindText(loanProduct.settings, t) : t('addCustomer.standardLoanHint')}
          onChange={(e) => update({ loanProductId: e.target.value })}
        >
          <option value="">{t('addCustomer.standardLoan')}</option>
          {loanProducts.map((p) => (
            <option key={p.id} value={String(p.id)}>
              {p.name}
            </option>
          ))}
        </SelectField>
      ) : null}
      <TextField label={t('loan.price')} prefix="₹" inputMode="decimal" autoComplete="off" value={draft.price} error={loanError('price')} onChange={(e) => update({ price: e.target.value })} />
      <TextField
        label={t('loan.downPayment')}
        prefix="₹"
        inputMode="decimal"
        autoComplete="off"
        value={draft.downPayment}
        error={loanError('downPayment')}
        onChange={(e) => update({ downPayment: e.target.value })}
      />
      <TextField
        label={t('common.optionalLabel', { label: t('loan.processingFee') })}
        prefix="₹"
        inputMode="decimal"
        autoComplete="off"
        value={draft.processingFee}
        error={loanError('processingFee')}
        onChange={(e) => update({ processingFee: e.target.value })}
      />
      <TextField
        label={t('addCustomer.ratePerYear')}
        inputMode="decimal"
        autoComplete="off"
        value={draft.rate}
        error={loanError('rate')}
        hint={loanProduct?.settings.noCost ? t('addCustomer.noCostRateHint') : t('addCustomer.rateHint')}
        onChange={(e) => update({ rate: e.target.value })}
      />
      {loanProduct ? null : (
      <fieldset className="choice-row">
        <legend className="field__label">{t('loan.methodLabel')}</legend>
        {(['reducing', 'flat'] as const).map((method) => (
          <label key={method} className="choice-row__item">
            <input type="radio" name="interest-method" value={method} checked={draft.method === method} onChange={() => update({ method })} />
            <span>{t(INTEREST_METHOD_LABEL_KEYS[method])}</span>
          </label>
        ))}
      </fieldset>
      )}
      <div className="field-pair">
        <TextField
          label={loanProduct && loanProduct.settings.frequency.unit !== 'month' ? t('addCustomer.instalmentCount') : t('addCustomer.tenureMonths')}
          inputMode="numeric"
          autoComplete="off"
          maxLength={loanProduct ? 3 : 2}
          value={draft.tenure}
          error={loanError('tenure')}
          onChange={(e) => update({ tenure: digitsOnly(e.target.value, loanProduct ? 3 : 2) })}
        />
        <TextField
          label={t('loan.advanceEmis')}
          inputMode="numeric"
          autoComplete="off"
          maxLength={2}
          value={draft.advanceEmis}
          error={loanError('advanceEmis')}
          onChange={(e) => update({ advanceEmis: digitsOnly(e.target.value, 2) })}
        />
      </div>
      <TextField
        label={t('loan.firstDueDate')}
        type="date"
        min={addDays(today, 1)}
        value={draft.firstDueDate}
        error={loanError('firstDueDate')}
        onChange={(e) => update({ firstDueDate: e.target.value })}
      />
      <SchedulePreview schedule={preview.kind === 'ok' ? preview.schedule : null} keyFacts={preview.kind === 'ok' ? (preview.product?.keyFacts ?? null) : null} />
    </fieldset>
  );
}
