/**
 * The form that sells a phone a plan on its own (anti-theft or family care, decision 023): the owner, the phone and
 * the plan, checked as the add-customer form checks the same fields, the request it sends (mobiles with +91), and the
 * server's refusals placed on the fields they concern.
 */
import type { CreatePlanPhoneBody } from '@kisht/contract/customers';
import { isValidEmail } from '@kisht/domain/email';
import { isValidLocalMobile, withCountryPrefix } from '@kisht/domain/mobile';
import { phoneErrors } from '../../../shared/customers/customer-form.ts';

export interface PlanPhoneDraft {
  planId: string;
  firstName: string;
  lastName: string;
  /** Ten local digits; +91 goes in front when sending. */
  mobile: string;
  /** The owner's other number (anti-theft alerts) or the parent's (family care). */
  altMobile: string;
  email: string;
  brand: string;
  model: string;
  imei1: string;
  imei2: string;
  serial: string;
}
export type PlanPhoneField = keyof PlanPhoneDraft;
export type FieldError = { key: string; vars?: Record<string, string | number> } | { text: string };
export type PlanPhoneErrors = Partial<Record<PlanPhoneField, FieldError>>;

export const NAME_MAX = 60;

export const emptyPlanPhoneDraft = (): PlanPhoneDraft => ({
  planId: '', firstName: '', lastName: '', mobile: '', altMobile: '', email: '', brand: '', model: '', imei1: '', imei2: '', serial: '',
});

const REQUIRED: FieldError = { key: 'common.required' };

/**
 * What must be right before sending. The other number is required for anti-theft (a SIM-change alert must reach the
 * owner on a phone that is not the stolen one) and for family care (the parent), and must not be the phone's own.
 */
export function validatePlanPhone(d: PlanPhoneDraft): PlanPhoneErrors {
  const errors: PlanPhoneErrors = {};
  if (!d.planId) errors.planId = REQUIRED;
  for (const field of ['firstName', 'lastName'] as const) {
    if (!d[field].trim()) errors[field] = REQUIRED;
    else if (d[field].trim().length > NAME_MAX) errors[field] = { key: 'addCustomer.errors.tooLong', vars: { count: NAME_MAX } };
  }
  if (!d.mobile) errors.mobile = REQUIRED;
  else if (!isValidLocalMobile(d.mobile)) errors.mobile = { key: 'addCustomer.errors.mobile' };
  if (!d.altMobile) errors.altMobile = REQUIRED;
  else if (!isValidLocalMobile(d.altMobile)) errors.altMobile = { key: 'addCustomer.errors.mobile' };
  else if (d.altMobile === d.mobile) errors.altMobile = { key: 'validation.alt_mobile_same' };
  if (d.email.trim() && !isValidEmail(d.email)) errors.email = { key: 'addCustomer.errors.email' };
  return { ...errors, ...phoneErrors(d) };
}

/** The request for a checked draft: the phone enrols by the EMM QR (provisioning type 0) as a financed phone does. */
export function planPhoneBody(d: PlanPhoneDraft, productId: number): CreatePlanPhoneBody {
  return {
    product_id: productId,
    plan_id: Number(d.planId),
    first_name: d.firstName.trim(),
    last_name: d.lastName.trim(),
    mobile: withCountryPrefix(d.mobile),
    alt_mobile: withCountryPrefix(d.altMobile),
    ...(d.email.trim() ? { email: d.email.trim() } : {}),
    device_brand: d.brand.trim(),
    device_model: d.model.trim(),
    imei1: d.imei1,
    ...(d.imei2 ? { imei2: d.imei2 } : {}),
    ...(d.serial.trim() ? { serial_number: d.serial.trim() } : {}),
    provisioning_type: 0,
  };
}

const SERVER_FIELDS: Record<string, PlanPhoneField> = {
  plan_id: 'planId', product_id: 'planId', first_name: 'firstName', last_name: 'lastName', mobile: 'mobile', alt_mobile: 'altMobile',
  email: 'email', device_brand: 'brand', device_model: 'model', imei1: 'imei1', imei2: 'imei2', serial_number: 'serial',
};

/** The server's VALIDATION_FAILED details on the fields they name; an IMEI already in use goes on IMEI 1. */
export function planPhoneErrorsFromServer(failure: { code: string; message: string; details?: readonly { field: string; message: string }[] }): PlanPhoneErrors {
  if (failure.code === 'IMEI_IN_USE') return { imei1: { text: failure.message } };
  const errors: PlanPhoneErrors = {};
  for (const { field, message } of failure.details ?? []) {
    const target = SERVER_FIELDS[field.replace(/^body\./, '')];
    if (target && !errors[target]) errors[target] = { text: message };
  }
  return errors;
}
