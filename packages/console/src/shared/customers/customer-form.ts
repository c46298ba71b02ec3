/**
 * The add-customer form as data: the draft the retailer types (strings, as typed), each step's
 * checks, the live loan schedule, the request body, and where a server complaint belongs.
 * Amounts are typed in rupees and sent in paise; interest is typed in percent a year and sent in
 * basis points.
 */
import type { CreateCustomerBody, CreateFinancedCustomerBody } from '@kisht/contract/customers';
import type { LoanProduct } from '@kisht/contract/catalogue';
import {
  buildProductSchedule, keyFacts, LoanProductError, MAX_OFFERED_PERIODS, MAX_PERIODS, offeredRate, requestFromTerms, type KeyFacts, type ProductSchedule,
} from '@kisht/domain/loan-product';
import { addMonths, isIsoDate } from '@kisht/domain/calendar';
import { generateSchedule, LoanTermsError, type InterestMethod, type LoanTerms, type Schedule } from '@kisht/domain/emi';
import { isValidIdNumber, normaliseIdNumber, type IdType } from '@kisht/domain/identity';
import { isValidImei } from '@kisht/domain/imei';
import { isValidLocalMobile, withCountryPrefix } from '@kisht/domain/mobile';
import { parsePercentToBps, parseRupeesToPaise } from '@kisht/domain/money-input';
import { isValidEmail } from '@kisht/domain/email';

export interface EnrolDraft {
  firstName: string;
  lastName: string;
  mobile: string;
  altMobile: string;
  email: string;
  dateOfBirth: string;
  address: string;
  stateId: string;
  cityId: string;
  pincode: string;
  idType: IdType | '';
  idNumber: string;
  brand: string;
  model: string;
  imei1: string;
  imei2: string;
  serial: string;
  provisioningType: string;
  productId: string;
  planId: string;
  financierId: string;
  financierReference: Record<string, string>;
  /** A loan product's id, or '' for the standard EMI (decision 027). */
  loanProductId: string;
  price: string;
  downPayment: string;
  processingFee: string;
  rate: string;
  method: InterestMethod;
  tenure: string;
  advanceEmis: string;
  firstDueDate: string;
}

export type DraftField = Exclude<keyof EnrolDraft, 'financierReference'>;
/** Form fields, plus one per financier reference ("financier_reference.loan_reference") and the images. */
export type FormField = DraftField | `financier_reference.${string}` | 'photo' | 'signature' | 'witnessSignature';

/** A message to show next to a field: a translation key (with values), or the server's own text. */
export type FieldError = { key: string; vars?: Record<string, string | number> } | { text: string };
export type FieldErrors = Partial<Record<FormField, FieldError>>;

export const STEPS = ['customer', 'device', 'loan', 'documents'] as const;
export type Step = (typeof STEPS)[number];

export interface FinancierChoice {
  id: number;
  required_fields: string[];
}

const REQUIRED: FieldError = { key: 'common.required' };
const PINCODE = /^[1-9][0-9]{5}$/;
const NAME_MAX = 60;

export function emptyDraft(today: string): EnrolDraft {
  return {
    firstName: '',
    lastName: '',
    mobile: '',
    altMobile: '',
    email: '',
    dateOfBirth: '',
    address: '',
    stateId: '',
    cityId: '',
    pincode: '',
    idType: '',
    idNumber: '',
    brand: '',
    model: '',
    imei1: '',
    imei2: '',
    serial: '',
    provisioningType: '',
    productId: '',
    planId: '',
    financierId: '',
    financierReference: {},
    loanProductId: '',
    price: '',
    downPayment: '',
    processingFee: '',
    rate: '',
    method: 'reducing',
    tenure: '',
    advanceEmis: '0',
    firstDueDate: addMonths(today, 1),
  };
}

export function validateCustomerStep(d: EnrolDraft, today: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!d.firstName.trim()) errors.firstName = REQUIRED;
  else if (d.firstName.trim().length > NAME_MAX) errors.firstName = { key: 'addCustomer.errors.tooLong', vars: { count: NAME_MAX } };
  if (!d.lastName.trim()) errors.lastName = REQUIRED;
  else if (d.lastName.trim().length > NAME_MAX) errors.lastName = { key: 'addCustomer.errors.tooLong', vars: { count: NAME_MAX } };
  if (!d.mobile) errors.mobile = REQUIRED;
  else if (!isValidLocalMobile(d.mobile)) errors.mobile = { key: 'addCustomer.errors.mobile' };
  if (d.altMobile && !isValidLocalMobile(d.altMobile)) errors.altMobile = { key: 'addCustomer.errors.mobile' };
  if (d.email.trim() && !isValidEmail(d.email)) errors.email = { key: 'addCustomer.errors.email' };
  if (d.dateOfBirth && (!isIsoDate(d.dateOfBirth) || d.dateOfBirth >= today)) errors.dateOfBirth = { key: 'addCustomer.errors.dateOfBirth' };
  if (d.cityId && !d.stateId) errors.stateId = REQUIRED;
  if (d.pincode && !PINCODE.test(d.pincode)) errors.pincode = { key: 'addCustomer.errors.pincode' };
  if (d.idType && !d.idNumber.trim()) errors.idNumber = REQUIRED;
  else if (!d.idType && d.idNumber.trim()) errors.idType = REQUIRED;
  else if (d.idType && !isValidIdNumber(d.idType, d.idNumber)) errors.idNumber = { key: 'addCustomer.errors.idNumber' };
  return errors;
}

/** A phone's brand, model and IMEIs (check digits, the second not the first): every form that enrols a phone. */
export function phoneErrors(d: { brand: string; model: string; imei1: string; imei2: string }): Partial<Record<'brand' | 'model' | 'imei1' | 'imei2', FieldError>> {
  const errors: Partial<Record<'brand' | 'model' | 'imei1' | 'imei2', FieldError>> = {};
  if (!d.brand.trim()) errors.brand = REQUIRED;
  if (!d.model.trim()) errors.model = REQUIRED;
  if (!d.imei1) errors.imei1 = REQUIRED;
  else if (!isValidImei(d.imei1)) errors.imei1 = { key: 'addCustomer.errors.imei' };
  if (d.imei2) {
    if (!isValidImei(d.imei2)) errors.imei2 = { key: 'addCustomer.errors.imei' };
    else if (d.imei2 === d.imei1) errors.imei2 = { key: 'addCustomer.errors.imeiSame' };
  }
  return errors;
}

export function validateDeviceStep(d: EnrolDraft): FieldErrors {
  const errors: FieldErrors = phoneErrors(d);
  if (d.provisioningType === '') errors.provisioningType = REQUIRED;
  return errors;
}

const LOAN_FIELD: Record<keyof LoanTerms, DraftField> = {
  pricePaise: 'price',
  downPaymentPaise: 'downPayment',
  processingFeePaise: 'processingFee',
  annualRateBps: 'rate',
  method: 'method',
  tenureMonths: 'tenure',
  advanceEmis: 'advanceEmis',
  startDate: 'firstDueDate',
  firstDueDate: 'firstDueDate',
};

/** What validateLoanTerms refused, said in the retailer's words. */
const LOAN_ERROR_KEY: Record<keyof LoanTerms, string> = {
  pricePaise: 'addCustomer.loanErrors.price',
  downPaymentPaise: 'addCustomer.loanErrors.downPayment',
  processingFeePaise: 'addCustomer.loanErrors.processingFee',
  annualRateBps: 'addCustomer.loanErrors.rate',
  method: 'addCustomer.loanErrors.method',
  tenureMonths: 'addCustomer.loanErrors.tenure',
  advanceEmis: 'addCustomer.loanErrors.advanceEmis',
  startDate: 'addCustomer.loanErrors.firstDueDate',
  firstDueDate: 'addCustomer.loanErrors.firstDueDate',
};

function wholeNumber(text: string): number | null {
  return /^\d{1,3}$/.test(text.trim()) ? Number(text.trim()) : null;
}

export type LoanPreview =
  | { kind: 'incomplete'; errors: FieldErrors }
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'ok'; terms: LoanTerms; schedule: Schedule | ProductSchedule; product?: { id: number; rate: string; keyFacts: KeyFacts } };

/** Where a loan product's refusal belongs on the form, and its words. */
const PRODUCT_FIELD: Record<string, DraftField> = {
  pricePaise: 'price', downPaymentPaise: 'downPayment', processingFeePaise: 'processingFee', annualRate: 'rate',
  periods: 'tenure', advanceInstalments: 'advanceEmis', disbursementDate: 'firstDueDate', firstDueDate: 'firstDueDate', dueDay: 'firstDueDate',
};
const PRODUCT_ERROR_KEY: Partial<Record<DraftField, string>> = {
  price: 'addCustomer.loanErrors.price', downPayment: 'addCustomer.loanErrors.downPayment', processingFee: 'addCustomer.loanErrors.processingFee',
  rate: 'addCustomer.loanErrors.rate', tenure: 'addCustomer.loanErrors.tenure', advanceEmis: 'addCustomer.loanErrors.advanceEmis', firstDueDate: 'addCustomer.loanErrors.firstDueDate',
};

function productPreview(product: LoanProduct, terms: LoanTerms, rateText: string): LoanPreview {
  // The rate and instalments enrolment takes with a product, as the server checks them (the domain's rules).
  const offered = offeredRate(rateText);
  if (!offered) return { kind: 'invalid', errors: { rate: { key: 'addCustomer.errors.rate' } } };
  const maxPeriods = Math.min(MAX_PERIODS[product.settings.frequency.unit], MAX_OFFERED_PERIODS);
  if (terms.tenureMonths > maxPeriods) return { kind: 'invalid', errors: { tenure: { key: 'addCustomer.loanErrors.periodsMax', vars: { count: maxPeriods } } } };
  const request = requestFromTerms(terms, offered.rate);
  try {
    const schedule = buildProductSchedule(product.settings, request);
    return { kind: 'ok', terms, schedule, product: { id: product.id, rate: offered.rate, keyFacts: keyFacts(product.settings, request, schedule) } };
  } catch (error) {
    if (!(error instanceof LoanProductError)) throw error;
    const field = error.rule === 'product_settings' ? 'loanProductId' : (PRODUCT_FIELD[error.field] ?? 'loanProductId');
    let key = error.rule === 'loan_terms' ? (PRODUCT_ERROR_KEY[field] ?? 'validation.product_settings') : `validation.${error.rule}`;
    // A rate in range that this product does not take: a 0% product takes only 0, a no-cost one needs the lender's.
    if (error.rule === 'loan_terms' && field === 'rate') key = product.settings.interest === 'zero' ? 'addCustomer.loanErrors.rateZeroOnly' : product.settings.noCost ? 'addCustomer.loanErrors.rateNeeded' : key;
    return { kind: 'invalid', errors: { [field]: { key } } };
  }
}

/**
 * The loan as typed, checked and scheduled with the domain's own rules (the server runs the same ones).
 * 'incomplete': a required field is empty (its errors say so, for when the retailer presses Next);
 * 'invalid': something typed cannot be used; 'ok': the schedule the customer will get.
 */
export function previewLoan(d: EnrolDraft, today: string, loanProduct: LoanProduct | null = null): LoanPreview {
  const errors: FieldErrors = {};
  let incomplete = false;
  const amount = (field: 'price' | 'downPayment' | 'processingFee', required: boolean): number | null => {
    const text = d[field].trim();
    if (!text) {
      if (required) {
        errors[field] = REQUIRED;
        incomplete = true;
      }
      return required ? null : 0;
    }
    const paise = parseRupeesToPaise(text);
    if (paise === null) errors[field] = { key: 'addCustomer.errors.amount' };
    return paise;
  };
  const price = amount('price', true);
  const down = amount('downPayment', true);
  const fee = amount('processingFee', false);
  let rate: number | null = null;
  if (!d.rate.trim()) {
    errors.rate = REQUIRED;
    incomplete = true;
  } else {
    // A product takes the exact rate (up to 4 decimals); the basis points sent beside it are only for display.
    rate = loanProduct ? (offeredRate(d.rate)?.bps ?? null) : parsePercentToBps(d.rate);
    if (rate === null) errors.rate = { key: 'addCustomer.errors.rate' };
  }
  let tenure: number | null = null;
  if (!d.tenure.trim()) {
    errors.tenure = REQUIRED;
    incomplete = true;
  } else {
    tenure = wholeNumber(d.tenure);
    if (tenure === null) errors.tenure = { key: 'addCustomer.errors.wholeNumber' };
  }
  const advance = d.advanceEmis.trim() ? wholeNumber(d.advanceEmis) : 0;
  if (advance === null) errors.advanceEmis = { key: 'addCustomer.errors.wholeNumber' };
  if (!d.firstDueDate) {
    errors.firstDueDate = REQUIRED;
    incomplete = true;
  }

  const hasErrors = Object.keys(errors).length > 0;
  if (hasErrors || price === null || down === null || fee === null || rate === null || tenure === null || advance === null) {
    const onlyMissing = incomplete && Object.values(errors).every((e) => e === REQUIRED);
    return { kind: onlyMissing ? 'incomplete' : 'invalid', errors };
  }
  const terms: LoanTerms = {
    pricePaise: price,
    downPaymentPaise: down,
    processingFeePaise: fee,
    annualRateBps: rate,
    method: d.method,
    tenureMonths: tenure,
    advanceEmis: advance,
    startDate: today,
    firstDueDate: d.firstDueDate,
  };
  if (loanProduct) return productPreview(loanProduct, terms, d.rate);
  try {
    return { kind: 'ok', terms, schedule: generateSchedule(terms) };
  } catch (error) {
    if (!(error instanceof LoanTermsError)) throw error;
    // A field out of range is said per field; any other rule in the words the server uses for it (validation.<rule>).
    const key = error.rule === 'loan_terms' ? LOAN_ERROR_KEY[error.field] : `validation.${error.rule}`;
    return { kind: 'invalid', errors: { [LOAN_FIELD[error.field]]: { key } } };
  }
}

export function validateLoanStep(d: EnrolDraft, today: string, financier: FinancierChoice | null, loanProduct: LoanProduct | null = null): FieldErrors {
  const errors: FieldErrors = {};
  if (!d.productId) errors.productId = REQUIRED;
  for (const field of financier?.required_fields ?? []) {
    if (!d.financierReference[field]?.trim()) errors[`financier_reference.${field}`] = REQUIRED;
  }
  const preview = previewLoan(d, today, loanProduct);
  return preview.kind === 'ok' ? errors : { ...errors, ...preview.errors };
}

export function validateImagesStep(images: { photo: boolean; signature: boolean; witnessSignature: boolean }, witnessRequired: boolean): FieldErrors {
  const errors: FieldErrors = {};
  if (!images.photo) errors.photo = REQUIRED;
  if (!images.signature) errors.signature = REQUIRED;
  if (witnessRequired && !images.witnessSignature) errors.witnessSignature = REQUIRED;
  return errors;
}

export type EnrolRequest =
  | { endpoint: 'standard'; body: CreateCustomerBody }
  | { endpoint: 'financed'; body: CreateFinancedCustomerBody };

const optional = (text: string): string | undefined => text.trim() || undefined;
const optionalId = (text: string): number | undefined => (text ? Number(text) : undefined);

/** The request for a draft that passed every step (throws if the loan does not schedule). */
export function buildEnrolRequest(d: EnrolDraft, today: string, financier: FinancierChoice | null, loanProduct: LoanProduct | null = null): EnrolRequest {
  const preview = previewLoan(d, today, loanProduct);
  if (preview.kind !== 'ok') throw new Error('buildEnrolRequest needs a valid loan');
  const { terms } = preview;
  const body: CreateCustomerBody = {
    first_name: d.firstName.trim(),
    last_name: d.lastName.trim(),
    mobile: withCountryPrefix(d.mobile),
    alt_mobile: d.altMobile ? withCountryPrefix(d.altMobile) : undefined,
    email: optional(d.email),
    address: optional(d.address),
    state_id: optionalId(d.stateId),
    city_id: optionalId(d.cityId),
    pincode: optional(d.pincode),
    date_of_birth: optional(d.dateOfBirth),
    id_type: d.idType || undefined,
    id_number: d.idType ? normaliseIdNumber(d.idNumber) : undefined,
    device_brand: d.brand.trim(),
    device_model: d.model.trim(),
    imei1: d.imei1,
    imei2: optional(d.imei2),
    serial_number: optional(d.serial),
    provisioning_type: Number(d.provisioningType),
    product_id: Number(d.productId),
    plan_id: optionalId(d.planId),
    financier_id: financier?.id,
    price_paise: terms.pricePaise,
    down_payment_paise: terms.downPaymentPaise,
    processing_fee_paise: terms.processingFeePaise || undefined,
    annual_rate_bps: terms.annualRateBps,
    interest_method: terms.method,
    tenure_months: terms.tenureMonths,
    advance_emis: terms.advanceEmis || undefined,
    // With a loan product, the day its KFS was worked out from: the stored KFS is the one shown, even across midnight.
    start_date: preview.product ? terms.startDate : undefined,
    first_due_date: terms.firstDueDate,
    loan_product_id: preview.product?.id,
    annual_rate: preview.product?.rate,
  };
  // The server refuses unknown keys: leave the unset optional ones out instead of sending undefined.
  const clean = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)) as CreateCustomerBody;
  if (financier && financier.required_fields.length > 0) {
    const reference = Object.fromEntries(financier.required_fields.map((field) => [field, (d.financierReference[field] ?? '').trim()]));
    return { endpoint: 'financed', body: { ...clean, financier_id: financier.id, financier_reference: reference } };
  }
  return { endpoint: 'standard', body: clean };
}

const SERVER_FIELDS: Record<string, DraftField> = {
  first_name: 'firstName',
  last_name: 'lastName',
  mobile: 'mobile',
  alt_mobile: 'altMobile',
  email: 'email',
  address: 'address',
  state_id: 'stateId',
  city_id: 'cityId',
  pincode: 'pincode',
  date_of_birth: 'dateOfBirth',
  id_type: 'idType',
  id_number: 'idNumber',
  device_brand: 'brand',
  device_model: 'model',
  imei1: 'imei1',
  imei2: 'imei2',
  serial_number: 'serial',
  provisioning_type: 'provisioningType',
  product_id: 'productId',
  plan_id: 'planId',
  financier_id: 'financierId',
  price_paise: 'price',
  down_payment_paise: 'downPayment',
  processing_fee_paise: 'processingFee',
  annual_rate_bps: 'rate',
  interest_method: 'method',
  tenure_months: 'tenure',
  advance_emis: 'advanceEmis',
  loan_product_id: 'loanProductId',
  annual_rate: 'rate',
  start_date: 'firstDueDate',
  first_due_date: 'firstDueDate',
};

const STEP_OF_FIELD: Record<DraftField, Step> = {
  firstName: 'customer',
  lastName: 'customer',
  mobile: 'customer',
  altMobile: 'customer',
  email: 'customer',
  dateOfBirth: 'customer',
  address: 'customer',
  stateId: 'customer',
  cityId: 'customer',
  pincode: 'customer',
  idType: 'customer',
  idNumber: 'customer',
  brand: 'device',
  model: 'device',
  imei1: 'device',
  imei2: 'device',
  serial: 'device',
  provisioningType: 'device',
  productId: 'loan',
  planId: 'loan',
  financierId: 'loan',
  loanProductId: 'loan',
  price: 'loan',
  downPayment: 'loan',
  processingFee: 'loan',
  rate: 'loan',
  method: 'loan',
  tenure: 'loan',
  advanceEmis: 'loan',
  firstDueDate: 'loan',
};

export function stepOf(field: FormField): Step {
  if (field.startsWith('financier_reference.')) return 'loan';
  if (field === 'photo' || field === 'signature' || field === 'witnessSignature') return 'documents';
  return STEP_OF_FIELD[field as DraftField];
}

/** The server's VALIDATION_FAILED details placed on the form's fields (unknown fields are returned apart). */
export function fieldErrorsFromServer(details: readonly { field: string; message: string }[]): { errors: FieldErrors; unplaced: string[] } {
  const errors: FieldErrors = {};
  const unplaced: string[] = [];
  for (const { field, message } of details) {
    const name = field.replace(/^body\./, '');
    const target: FormField | undefined = name.startsWith('financier_reference.') ? (name as FormField) : SERVER_FIELDS[name];
    if (target && !errors[target]) errors[target] = { text: message };
    else if (!target) unplaced.push(`${field}: ${message}`);
  }
  return { errors, unplaced };
}

/** The first step (in order) that has an error, if any. */
export function firstStepWithError(errors: FieldErrors): Step | null {
  const steps = Object.keys(errors).map((field) => STEPS.indexOf(stepOf(field as FormField)));
  return steps.length > 0 ? STEPS[Math.min(...steps)]! : null;
}
