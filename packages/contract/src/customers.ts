/** Customers: the enrolment form, the list, the profile. Identity numbers only ever leave masked. */
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope.ts';
import { CUSTOMER_STATUS_FILTERS } from '@kisht/domain/customer-status';
import { ID_TYPES, type IdType } from '@kisht/domain/identity';
import type { InterestMethod } from '@kisht/domain/emi';
import { MAX_OFFERED_PERIODS } from '@kisht/domain/loan-product';
import { Mobile } from './auth.ts';
import { Id, MultilineText, Page } from './fields.ts';
import { LoanTermsView } from './loan-terms.ts';

const Name = Type.String({ minLength: 1, maxLength: 60 });
/** Rs 1 crore: far above any phone, and keeps every amount and sum inside the integer columns. */
export const MAX_PAISE = 1_000_000_000;
const Paise = Type.Integer({ minimum: 0, maximum: MAX_PAISE });
/** A calendar date from 1900 to 2199 (the database rejects year 0). */
export const IsoDate = Type.String({ format: 'date', pattern: '^(19|20|21)[0-9]{2}-' });
const Imei = Type.String({ pattern: '^[0-9]{15}$' });

export const LoanFields = {
  price_paise: Type.Integer({ minimum: 1, maximum: MAX_PAISE }),
  down_payment_paise: Paise,
  processing_fee_paise: Type.Optional(Paise),
  annual_rate_bps: Type.Integer({ minimum: 0, maximum: 6000, description: 'Interest per year in basis points (1400 = 14%)' }),
  interest_method: Type.Unsafe<InterestMethod>({ type: 'string', enum: ['reducing', 'flat'] }),
  tenure_months: Type.Integer({ minimum: 1, maximum: MAX_OFFERED_PERIODS, description: 'Number of instalments: at most 60 monthly ones without a loan product, 520 with one' }),
  advance_emis: Type.Optional(Type.Integer({ minimum: 0, maximum: 59 })),
  /** A loan product of the organisation (GET /api/loan_products): its settings decide the schedule (decision 027). */
  loan_product_id: Type.Optional(Id),
  annual_rate: Type.Optional(Type.String({ pattern: '^[0-9]{1,2}(\\.[0-9]{1,4})?$', description: 'With a loan product: the exact rate per year, e.g. "13.99" or "10.125"; else annual_rate_bps / 100' })),
  start_date: Type.Optional(IsoDate),
  first_due_date: IsoDate,
};

export const CreateCustomerBody = Type.Object(
  {
    first_name: Name,
    last_name: Name,
    mobile: Mobile,
    alt_mobile: Type.Optional(Mobile),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 120 })),
    address: Type.Optional(MultilineText({ maxLength: 300 })),
    state_id: Type.Optional(Id),
    city_id: Type.Optional(Id),
    pincode: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{5}$' })),
    date_of_birth: Type.Optional(IsoDate),
    id_type: Type.Optional(Type.Unsafe<IdType>({ type: 'string', enum: [...ID_TYPES] })),
    id_number: Type.Optional(Type.String({ minLength: 4, maxLength: 20 })),
    device_brand: Type.String({ minLength: 1, maxLength: 40 }),
    device_model: Type.String({ minLength: 1, maxLength: 60 }),
    imei1: Imei,
    imei2: Type.Optional(Imei),
    serial_number: Type.Optional(Type.String({ maxLength: 40 })),
    provisioning_type: Type.Integer({ minimum: 0, maximum: 3 }),
    product_id: Id,
    plan_id: Type.Optional(Id),
    financier_id: Type.Optional(Id),
    ...LoanFields,
  },
  { additionalProperties: false },
);
export type CreateCustomerBody = Static<typeof CreateCustomerBody>;

/** The financier-specific flow: a financier is required, with the references it asks for. */
export const CreateFinancedCustomerBody = Type.Object(
  {
    ...CreateCustomerBody.properties,
    financier_id: Id,
    financier_reference: Type.Record(Type.String({ pattern: '^[a-z_]{1,40}$' }), Type.String({ minLength: 1, maxLength: 60 }), { maxProperties: 20 }),
  },
  { additionalProperties: false },
);
export type CreateFinancedCustomerBody = Static<typeof CreateFinancedCustomerBody>;

/**
 * A phone sold on a plan alone (anti-theft or family care, decision 023): the owner, the phone and the plan; no
 * loan. `alt_mobile` is the number a SIM-change alert goes to (anti-theft); for family care the parent's number.
 */
export const CreatePlanPhoneBody = Type.Object(
  {
    first_name: Name,
    last_name: Name,
    mobile: Mobile,
    alt_mobile: Type.Optional(Mobile),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 120 })),
    device_brand: Type.String({ minLength: 1, maxLength: 40 }),
    device_model: Type.String({ minLength: 1, maxLength: 60 }),
    imei1: Imei,
    imei2: Type.Optional(Imei),
    serial_number: Type.Optional(Type.String({ maxLength: 40 })),
    provisioning_type: Type.Literal(0, { description: '0 DPC: the phone enrols from its EMM QR and runs our agent, which carries out the plan' }),
    product_id: Id,
    plan_id: Id,
  },
  { additionalProperties: false },
);
export type CreatePlanPhoneBody = Static<typeof CreatePlanPhoneBody>;

export const CustomerListQuery = Type.Object({
  page: Page,
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  search: Type.Optional(Type.String({ maxLength: 60 })),
  status: Type.Unsafe<(typeof CUSTOMER_STATUS_FILTERS)[number]>({ type: 'string', enum: [...CUSTOMER_STATUS_FILTERS], default: 'all' }),
  lock_status: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
  from: Type.Optional(IsoDate),
  to: Type.Optional(IsoDate),
  retailer_id: Type.Optional(Id),
});
export type CustomerListQuery = Static<typeof CustomerListQuery>;

export const CustomerListItem = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.String(),
  mobile: Type.String(),
  imei1: Type.String(),
  device_brand: Nullable(Type.String()),
  device_model: Nullable(Type.String()),
  install_status: Type.Integer(),
  lock_status: Type.Integer(),
  provisioning_type: Type.Integer(),
  emi_paise: Nullable(Type.Integer({ description: 'null for a phone on a plan alone' })),
  next_due_date: Nullable(Type.String()),
  overdue_paise: Type.Integer(),
  retailer_id: Type.Integer(),
  created_at: Type.String(),
});
export type CustomerListItem = Static<typeof CustomerListItem>;

export const CustomerList = Type.Object({
  items: Type.Array(CustomerListItem),
  total: Type.Integer({ description: 'Customers matching the filters. Exact, except with a search or dates: then at most 1,000 are counted, and total_capped says there are more' }),
  total_capped: Type.Boolean({ description: 'true: at least `total` customers match (more than 1,000), and pages go on past it' }),
  page: Type.Integer(),
  limit: Type.Integer(),
});
export type CustomerList = Static<typeof CustomerList>;

export const CustomerProfile = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.String(),
  mobile: Type.String(),
  alt_mobile: Nullable(Type.String()),
  email: Nullable(Type.String()),
  address: Nullable(Type.String()),
  state_id: Nullable(Type.Integer()),
  city_id: Nullable(Type.Integer()),
  pincode: Nullable(Type.String()),
  date_of_birth: Nullable(Type.String()),
  id_type: Nullable(Type.String()),
  id_number_masked: Nullable(Type.String()),
  has_photo: Type.Boolean(),
  has_signature: Type.Boolean(),
  has_witness_signature: Type.Boolean(),
  has_invoice: Type.Boolean(),
  device_brand: Nullable(Type.String()),
  device_model: Nullable(Type.String()),
  imei1: Type.String(),
  imei2: Nullable(Type.String()),
  serial_number: Nullable(Type.String()),
  provisioning_type: Type.Integer(),
  product_id: Type.Integer(),
  product_type: Type.Integer(),
  plan_id: Nullable(Type.Integer()),
  financier_id: Nullable(Type.Integer()),
  financier_reference: Type.Record(Type.String(), Type.String()),
  // The loan; all null for a phone on a plan alone (anti-theft or family care without a loan, decision 023).
  price_paise: Nullable(Type.Integer()),
  down_payment_paise: Nullable(Type.Integer()),
  processing_fee_paise: Type.Integer(),
  annual_rate_bps: Nullable(Type.Integer()),
  interest_method: Nullable(Type.String()),
  tenure_months: Nullable(Type.Integer()),
  advance_emis: Type.Integer(),
  start_date: Nullable(Type.String()),
  first_due_date: Nullable(Type.String()),
  emi_paise: Nullable(Type.Integer()),
  /** A loan made with a loan product: the product, its settings, the exact rate and the KFS; null otherwise. */
  loan_terms: Nullable(LoanTermsView),
  install_status: Type.Integer(),
  lock_status: Type.Integer(),
  allowed_actions: Nullable(Type.Array(Type.String())),
  /** The customer's language (a Language code) for what is sent to them (the phone's screens, the KFS); null: not set. */
  language: Nullable(Type.String()),
  retailer_id: Type.Integer(),
  created_at: Type.String(),
});
export type CustomerProfile = Static<typeof CustomerProfile>;

export const CustomerCreated = Type.Object({ customer: CustomerProfile, keys_left: Type.Integer() });
export type CustomerCreated = Static<typeof CustomerCreated>;

export const UpdateCustomerDetailsBody = Type.Object(
  {
    customer_id: Id,
    first_name: Type.Optional(Name),
    last_name: Type.Optional(Name),
    mobile: Type.Optional(Mobile),
    alt_mobile: Type.Optional(Type.Union([Mobile, Type.Null()])),
    email: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 120 }), Type.Null()])),
    address: Type.Optional(Type.Union([MultilineText({ maxLength: 300 }), Type.Null()])),
    state_id: Type.Optional(Type.Union([Id, Type.Null()])),
    city_id: Type.Optional(Type.Union([Id, Type.Null()])),
    pincode: Type.Optional(Type.Union([Type.String({ pattern: '^[1-9][0-9]{5}$' }), Type.Null()])),
    date_of_birth: Type.Optional(Type.Union([IsoDate, Type.Null()])),
    id_type: Type.Optional(Type.Unsafe<IdType>({ type: 'string', enum: [...ID_TYPES] })),
    id_number: Type.Optional(Type.String({ minLength: 4, maxLength: 20 })),
  },
  { additionalProperties: false },
);
export type UpdateCustomerDetailsBody = Static<typeof UpdateCustomerDetailsBody>;

/** IMEI_EDIT: the device registration of a customer. */
export const UpdateRegistrationBody = Type.Object(
  {
    customer_id: Id,
    imei1: Type.Optional(Imei),
    imei2: Type.Optional(Type.Union([Imei, Type.Null()])),
    serial_number: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
    device_brand: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
    device_model: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
  },
  { additionalProperties: false },
);
export type UpdateRegistrationBody = Static<typeof UpdateRegistrationBody>;
