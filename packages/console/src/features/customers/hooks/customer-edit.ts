/**
 * Editing an enrolled customer: the device registration (IMEI_EDIT) and the personal details. The
 * drafts reuse the add-customer form's field names, checks and server-error mapping; the request
 * bodies carry only what changed (an emptied optional field is sent as null).
 */
import type { CustomerProfile, UpdateCustomerDetailsBody, UpdateRegistrationBody } from '@kisht/contract/customers';
import { withCountryPrefix } from '@kisht/domain/mobile';
import { emptyDraft, validateCustomerStep, validateDeviceStep, type EnrolDraft, type FieldErrors } from '../../../shared/customers/customer-form.ts';
import { localMobile } from '../../../shared/customers/field-input.ts';

export type RegistrationDraft = Pick<EnrolDraft, 'brand' | 'model' | 'imei1' | 'imei2' | 'serial'>;
export type DetailsDraft = Pick<EnrolDraft, 'firstName' | 'lastName' | 'mobile' | 'altMobile' | 'email' | 'address' | 'dateOfBirth'>;

const REGISTRATION_FIELDS = ['brand', 'model', 'imei1', 'imei2', 'serial'] as const;
const DETAILS_FIELDS = ['firstName', 'lastName', 'mobile', 'altMobile', 'email', 'address', 'dateOfBirth'] as const;

function pick(errors: FieldErrors, fields: readonly string[]): FieldErrors {
  return Object.fromEntries(Object.entries(errors).filter(([field]) => fields.includes(field))) as FieldErrors;
}

export function registrationDraftFrom(p: CustomerProfile): RegistrationDraft {
  return { brand: p.device_brand ?? '', model: p.device_model ?? '', imei1: p.imei1, imei2: p.imei2 ?? '', serial: p.serial_number ?? '' };
}

/** The add-customer device checks (IMEI check digits, IMEI 2 unlike IMEI 1), without the provisioning type. */
export function validateRegistration(d: RegistrationDraft): FieldErrors {
  return pick(validateDeviceStep({ ...emptyDraft('2000-01-01'), ...d, provisioningType: '0' }), REGISTRATION_FIELDS);
}

/** The changed device fields for customerRegistrationByKegenUpdateV3, or null when nothing changed. */
export function buildRegistrationBody(p: CustomerProfile, d: RegistrationDraft): UpdateRegistrationBody | null {
  const was = registrationDraftFrom(p);
  const body: UpdateRegistrationBody = { customer_id: p.id };
  if (d.brand.trim() !== was.brand) body.device_brand = d.brand.trim();
  if (d.model.trim() !== was.model) body.device_model = d.model.trim();
  if (d.imei1 !== was.imei1) body.imei1 = d.imei1;
  if (d.imei2 !== was.imei2) body.imei2 = d.imei2 || null;
  if (d.serial.trim() !== was.serial) body.serial_number = d.serial.trim() || null;
  return Object.keys(body).length > 1 ? body : null;
}

export function detailsDraftFrom(p: CustomerProfile): DetailsDraft {
  return {
    firstName: p.first_name,
    lastName: p.last_name,
    mobile: localMobile(p.mobile),
    altMobile: p.alt_mobile ? localMobile(p.alt_mobile) : '',
    email: p.email ?? '',
    address: p.address ?? '',
    dateOfBirth: p.date_of_birth ?? '',
  };
}

/** The add-customer checks for the same fields (names, +91 mobiles, email, date of birth before today). */
export function validateDetails(d: DetailsDraft, today: string): FieldErrors {
  return pick(validateCustomerStep({ ...emptyDraft(today), ...d }, today), DETAILS_FIELDS);
}

/** The changed fields for update_customer_detailsV3, or null when nothing changed. */
export function buildDetailsBody(p: CustomerProfile, d: DetailsDraft): UpdateCustomerDetailsBody | null {
  const was = detailsDraftFrom(p);
  const body: UpdateCustomerDetailsBody = { customer_id: p.id };
  if (d.firstName.trim() !== was.firstName) body.first_name = d.firstName.trim();
  if (d.lastName.trim() !== was.lastName) body.last_name = d.lastName.trim();
  if (d.mobile !== was.mobile) body.mobile = withCountryPrefix(d.mobile);
  if (d.altMobile !== was.altMobile) body.alt_mobile = d.altMobile ? withCountryPrefix(d.altMobile) : null;
  if (d.email.trim() !== was.email) body.email = d.email.trim() || null;
  if (d.address.trim() !== was.address) body.address = d.address.trim() || null;
  if (d.dateOfBirth !== was.dateOfBirth) body.date_of_birth = d.dateOfBirth || null;
  return Object.keys(body).length > 1 ? body : null;
}
