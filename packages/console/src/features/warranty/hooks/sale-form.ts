/**
 * The extended warranty sale form's rules: what is required and how each field is checked before sending, the
 * request (mobile with +91, the invoice value in exact paise), the fields a financed customer fills in, the last
 * day the chosen plan may still be sold for the phone, and the server's refusals placed on the fields they concern.
 */
import type { CustomerProfile } from '@kisht/contract/customers';
import type { SellWarrantyBody, WarrantyPlan } from '@kisht/contract/warranty';
import { addDays, isIsoDate } from '@kisht/domain/calendar';
import { isValidEmail } from '@kisht/domain/email';
import { isValidImei } from '@kisht/domain/imei';
import { isValidLocalMobile, withCountryPrefix } from '@kisht/domain/mobile';
import { formatRupees } from '@kisht/domain/money';
import { parseRupeesToPaise } from '@kisht/domain/money-input';
import { MAX_INVOICE_PAISE } from '@kisht/domain/warranty';
import { IMEI_LENGTH, localMobile } from '../../../shared/customers/field-input.ts';

export interface SaleDraft {
  planId: string;
  firstName: string;
  lastName: string;
  /** The ten local digits; +91 is put in front when sending. */
  mobile: string;
  email: string;
  imei: string;
  brand: string;
  model: string;
  /** Rupees as typed (15999 or 15999.50). */
  invoiceValue: string;
  /** YYYY-MM-DD, as a date input gives it. */
  invoiceDate: string;
}

export type SaleField = keyof SaleDraft;

/** A field's error: a translation key (with its values) for the form's own checks, or the server's words. */
export type FieldError = { key: string; vars?: Record<string, string> } | { text: string };
export type SaleErrors = Partial<Record<SaleField, FieldError>>;

export const NAME_MAX_LENGTH = 60;
export const EMAIL_MAX_LENGTH = 120;
export const DEVICE_MAX_LENGTH = 60;

export const emptySaleDraft = (): SaleDraft => ({
  planId: '', firstName: '', lastName: '', mobile: '', email: '', imei: '', brand: '', model: '', invoiceValue: '', invoiceDate: '',
});

/** A financed customer's name, mobile and phone, as the form starts for them (the invoice is the retailer's to enter). */
export function draftFromCustomer(profile: Pick<CustomerProfile, 'first_name' | 'last_name' | 'mobile' | 'email' | 'imei1' | 'device_brand' | 'device_model'>): SaleDraft {
  return {
    ...emptySaleDraft(),
    firstName: profile.first_name.slice(0, NAME_MAX_LENGTH),
    lastName: profile.last_name.slice(0, NAME_MAX_LENGTH),
    mobile: localMobile(profile.mobile),
    email: profile.email ?? '',
    imei: profile.imei1,
    brand: profile.device_brand ?? '',
    model: (profile.device_model ?? '').slice(0, DEVICE_MAX_LENGTH),
  };
}

/** The plan chosen before the retailer picks one: the only plan offered, else none. */
export const presetPlanId = (plans: readonly WarrantyPlan[]): string => (plans.length === 1 ? String(plans[0]!.id) : '');

/** The invoice value in paise: a positive amount of at most ₹10,00,000 with at most two decimals, else the error. */
export function invoicePaise(text: string): { paise: number } | { error: FieldError } {
  if (!text.trim()) return { error: { key: 'common.required' } };
  const paise = parseRupeesToPaise(text);
  if (paise === null) return { error: { key: 'addCustomer.errors.amount' } };
  if (paise <= 0) return { error: { key: 'warranty.sell.invoiceValuePositive' } };
  if (paise > MAX_INVOICE_PAISE) return { error: { key: 'warranty.sell.invoiceValueMax', vars: { amount: formatRupees(MAX_INVOICE_PAISE) } } };
  return { paise };
}

/** The last invoice date's day the plan may still be sold on, for an invoice of `invoiceDate`: null without both. */
export function lastSaleDay(plan: WarrantyPlan | undefined, invoiceDate: string): string | null {
  if (!plan || !isIsoDate(invoiceDate)) return null;
  return addDays(invoiceDate, plan.rules.purchase_window_days);
}

/** What is missing or wrong, in the form's order (the first one gets the focus). `today` is India's date. */
export function validateSale(draft: SaleDraft, plans: readonly WarrantyPlan[], today: string): SaleErrors {
  const errors: SaleErrors = {};
  const required = { key: 'common.required' };
  if (!draft.planId) errors.planId = required;
  else if (!plans.some((plan) => String(plan.id) === draft.planId)) errors.planId = { key: 'errors.PLAN_NOT_AVAILABLE' };
  if (!draft.firstName.trim()) errors.firstName = required;
  if (!draft.lastName.trim()) errors.lastName = required;
  if (!draft.mobile) errors.mobile = required;
  else if (!isValidLocalMobile(draft.mobile)) errors.mobile = { key: 'addCustomer.errors.mobile' };
  if (draft.email.trim() && !isValidEmail(draft.email)) errors.email = { key: 'addCustomer.errors.email' };
  if (!draft.imei) errors.imei = required;
  else if (draft.imei.length !== IMEI_LENGTH || !isValidImei(draft.imei)) errors.imei = { key: 'addCustomer.errors.imei' };
  if (!draft.brand.trim()) errors.brand = required;
  if (!draft.model.trim()) errors.model = required;
  const value = invoicePaise(draft.invoiceValue);
  if ('error' in value) errors.invoiceValue = value.error;
  if (!draft.invoiceDate) errors.invoiceDate = required;
  else if (!isIsoDate(draft.invoiceDate)) errors.invoiceDate = { key: 'validation.invalid' };
  else if (draft.invoiceDate > today) errors.invoiceDate = { key: 'validation.not_future_date' };
  return errors;
}

/** The request for a valid draft: names and phone trimmed, +91 in front of the mobile, the value in paise. */
export function saleBody(draft: SaleDraft, customerId: number | null): SellWarrantyBody {
  const value = invoicePaise(draft.invoiceValue);
  if ('error' in value) throw new Error('saleBody needs a valid draft');
  const body: SellWarrantyBody = {
    plan_id: Number(draft.planId),
    first_name: draft.firstName.trim(),
    last_name: draft.lastName.trim(),
    mobile: withCountryPrefix(draft.mobile),
    imei: draft.imei,
    brand: draft.brand.trim(),
    model: draft.model.trim(),
    invoice_value_paise: value.paise,
    invoice_date: draft.invoiceDate,
  };
  const email = draft.email.trim();
  if (email) body.email = email;
  if (customerId !== null) body.customer_id = customerId;
  return body;
}

/** The request's field names as the form's. */
const FIELD_OF: Record<string, SaleField> = {
  plan_id: 'planId',
  first_name: 'firstName',
  last_name: 'lastName',
  mobile: 'mobile',
  email: 'email',
  imei: 'imei',
  brand: 'brand',
  model: 'model',
  invoice_value_paise: 'invoiceValue',
  invoice_date: 'invoiceDate',
};

/**
 * A refusal placed on the field it concerns, in the server's words (the toast says it too, and goes): the
 * validation details on their fields, the purchase window on the invoice date, a plan or key problem on the plan.
 */
export function saleErrorsFromServer(failure: { code: string; message: string; details?: readonly { field: string; message: string }[] | undefined }): SaleErrors {
  const errors: SaleErrors = {};
  if (failure.code === 'WARRANTY_PURCHASE_WINDOW_CLOSED') errors.invoiceDate = { text: failure.message };
  else if (failure.code === 'NO_LICENSE_KEY' || failure.code === 'PLAN_NOT_AVAILABLE') errors.planId = { text: failure.message };
  for (const { field, message } of failure.details ?? []) {
    const target = FIELD_OF[field.replace(/^body\./, '').replace(/^\//, '')];
    if (target && !errors[target]) errors[target] = { text: message };
  }
  return errors;
}
