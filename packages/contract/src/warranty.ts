/**
 * Extended warranty (decision 021): the plans with their rules, a sale for one phone with its certificate, the
 * claims on it and their history, and a financed customer's plans for the customer details screen.
 */
import { Type, type Static } from 'typebox';
import { LANGUAGES, type Language } from '@kisht/domain/constants';
import {
  CLAIM_CAUSES, CLAIM_PHOTOS_MAX, CLAIM_PHOTOS_MIN, CLAIM_STATES, COVER_KINDS, MAX_INVOICE_PAISE, type ClaimCause, type ClaimState, type CoverKind,
} from '@kisht/domain/warranty';
import { Nullable } from './envelope.ts';
import { Mobile } from './auth.ts';
import { IsoDate } from './customers.ts';
import { Id, MultilineText, NOT_BLANK, Page } from './fields.ts';
import { AntihackingSale, KindPlan } from './plans.ts';

const Name = Type.String({ minLength: 1, maxLength: 60, pattern: NOT_BLANK });
const Imei = Type.String({ pattern: '^[0-9]{15}$', description: '15 digits; the last is the Luhn check digit' });
const enumOf = <T extends string>(values: readonly T[]) => Type.Unsafe<T>({ type: 'string', enum: [...values] });

export const DeductibleBand = Type.Object({
  from_months: Type.Integer({ description: 'completed months since the invoice date, from (included)' }),
  to_months: Nullable(Type.Integer({ description: 'to (not included); null: no end' })),
  bps: Type.Integer({ description: 'the share taken off a claim, in basis points (1000 = 10 %)' }),
});

/** A plan's rules, as its product sets them and as a sale keeps them. */
export const WarrantyRules = Type.Object({
  cover_kind: enumOf<CoverKind>(COVER_KINDS),
  insurer_name: Nullable(Type.String()),
  purchase_window_days: Type.Integer(),
  waiting_days: Type.Integer(),
  term_months: Type.Integer(),
  brand_warranty_months: Type.Integer(),
  covers_defects: Type.Boolean(),
  covers_accidental: Type.Boolean(),
  covers_liquid: Type.Boolean(),
  deductible_bands: Type.Array(DeductibleBand),
  max_claims: Type.Integer(),
  cover_limit_bps: Type.Integer({ description: 'the most a claim pays, as a share of the invoice value (10000: the invoice value)' }),
});
export type WarrantyRules = Static<typeof WarrantyRules>;

export const WarrantyPlan = Type.Intersect([KindPlan, Type.Object({ rules: WarrantyRules })]);
export type WarrantyPlan = Static<typeof WarrantyPlan>;

/** POST /api/customer/extended_warranty: the buyer, the phone and its invoice, the plan. */
export const SellWarrantyBody = Type.Object(
  {
    plan_id: Id,
    first_name: Name,
    last_name: Name,
    mobile: Mobile,
    email: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 120 }), Type.Literal('')])),
    /** A financed customer of your network whose phone this is (optional). */
    customer_id: Type.Optional(Id),
    imei: Imei,
    brand: Name,
    model: Name,
    invoice_value_paise: Type.Integer({ minimum: 1, maximum: MAX_INVOICE_PAISE }),
    invoice_date: IsoDate,
  },
  { additionalProperties: false },
);
export type SellWarrantyBody = Static<typeof SellWarrantyBody>;

/** waiting: sold, cover not started yet; in_cover; expired: past the cover's end; revoked. */
export const WARRANTY_STATES = ['waiting', 'in_cover', 'expired', 'revoked'] as const;
export type WarrantyState = (typeof WARRANTY_STATES)[number];

export const WarrantySale = Type.Object({
  id: Type.Integer(),
  certificate_no: Type.String(),
  plan_id: Type.Integer(),
  plan_name: Type.String(),
  product_type: Type.Integer(),
  price_paise: Nullable(Type.Integer()),
  cover_kind: enumOf<CoverKind>(COVER_KINDS),
  insurer_name: Nullable(Type.String()),
  rules: WarrantyRules,
  customer_id: Nullable(Type.Integer()),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Nullable(Type.String()),
  mobile: Type.String(),
  imei: Type.String(),
  brand: Type.String(),
  model: Type.String(),
  invoice_value_paise: Type.Integer(),
  invoice_date: Type.String({ format: 'date' }),
  sale_date: Type.String({ format: 'date' }),
  cover_start: Type.String({ format: 'date' }),
  cover_end: Type.String({ format: 'date' }),
  state: enumOf<WarrantyState>(WARRANTY_STATES),
  /** Claims raised that were not rejected: they count against the plan's max_claims. */
  claims_used: Type.Integer(),
  sold_at: Type.String(),
  revoked_at: Nullable(Type.String()),
  revoke_reason: Nullable(Type.String()),
  retailer_id: Type.Integer(),
  retailer_name: Nullable(Type.String()),
});
export type WarrantySale = Static<typeof WarrantySale>;

export const WarrantySold = Type.Intersect([WarrantySale, Type.Object({ keys_left: Type.Integer() })]);
export type WarrantySold = Static<typeof WarrantySold>;

export const WarrantyListQuery = Type.Object({
  page: Type.Optional(Page),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  /** A name, a mobile number (or its last digits), an IMEI or a certificate number. */
  search: Type.Optional(Type.String({ maxLength: 60 })),
  state: Type.Optional(enumOf<WarrantyState>(WARRANTY_STATES)),
});
export type WarrantyListQuery = Static<typeof WarrantyListQuery>;
export const WarrantyPage = Type.Object({ total: Type.Integer(), page: Type.Integer(), limit: Type.Integer(), items: Type.Array(WarrantySale) });
export type WarrantyPage = Static<typeof WarrantyPage>;

export const RevokeWarrantyBody = Type.Object({ sale_id: Id, reason: Type.String({ minLength: 1, maxLength: 200, pattern: NOT_BLANK }) }, { additionalProperties: false });
export type RevokeWarrantyBody = Static<typeof RevokeWarrantyBody>;

export const CertificateQuery = Type.Object({
  sale_id: Id,
  /** The language to word it in; by default the linked customer's, else the caller's. */
  lng: Type.Optional(enumOf<Language>(LANGUAGES)),
});
export type CertificateQuery = Static<typeof CertificateQuery>;

/** One line of the certificate: a translated label and its value, formatted for India. */
const CertificateLine = Type.Object({ key: Type.String(), label: Type.String(), value: Type.String() });

/** What the console draws the certificate from (an image or a PDF to share): every text already in `lng`. */
export const WarrantyCertificate = Type.Object({
  lng: enumOf<Language>(LANGUAGES),
  title: Type.String(),
  certificate_no: Type.String(),
  lines: Type.Array(CertificateLine),
  /** What the plan covers, one sentence each. */
  covers: Type.Array(Type.String()),
  /** The deductible by the phone's age, one sentence per band. */
  deductibles: Type.Array(Type.String()),
  /** Service contract or insurance, and what that means for the buyer; a revoked plan says so first. */
  notes: Type.Array(Type.String()),
  /** The plan's own terms, as the catalogue words them. */
  terms: Nullable(Type.String()),
  sale: WarrantySale,
});
export type WarrantyCertificate = Static<typeof WarrantyCertificate>;

/** The form of a photo upload (multipart/form-data), as the OpenAPI document shows it. */
export const WarrantyPhotoUpload = Type.Object({
  sale_id: Id,
  file: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'A JPEG or PNG image of at most 5 MB' }),
}, { description: 'multipart/form-data: the sale_id field, then one file part' });

export const WarrantyPhotoStored = Type.Object({ photo_id: Type.Integer(), sale_id: Type.Integer(), content_type: Type.String(), bytes: Type.Integer() });
export type WarrantyPhotoStored = Static<typeof WarrantyPhotoStored>;

export const WarrantyPhotoQuery = Type.Object({ photo_id: Id });

export const RaiseClaimBody = Type.Object(
  {
    sale_id: Id,
    /** The IMEI of the phone brought in: it must be the one the plan was sold for. */
    imei: Imei,
    cause: enumOf<ClaimCause>(CLAIM_CAUSES),
    description: MultilineText({ minLength: 1, maxLength: 1000, pattern: NOT_BLANK }),
    /** Photos uploaded for this sale and not yet part of a claim. */
    photo_ids: Type.Array(Id, { minItems: CLAIM_PHOTOS_MIN, maxItems: CLAIM_PHOTOS_MAX, uniqueItems: true }),
  },
  { additionalProperties: false },
);
export type RaiseClaimBody = Static<typeof RaiseClaimBody>;

/** The states a claim may be moved to (every state but the first). */
export const CLAIM_TARGET_STATES = CLAIM_STATES.filter((s) => s !== 'intimated');

export const TransitionClaimBody = Type.Object(
  {
    claim_id: Id,
    to: enumOf<ClaimState>(CLAIM_TARGET_STATES),
    /** Required to reject. */
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: NOT_BLANK })),
    /** Required to approve: the repair cost assessed, in paise. */
    assessed_cost_paise: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_000_000_000 })),
  },
  { additionalProperties: false },
);
export type TransitionClaimBody = Static<typeof TransitionClaimBody>;

export const ClaimEvent = Type.Object({
  from_state: Nullable(enumOf<ClaimState>(CLAIM_STATES)),
  to_state: enumOf<ClaimState>(CLAIM_STATES),
  by_user_id: Type.Integer(),
  by_name: Nullable(Type.String()),
  at: Type.String(),
  note: Nullable(Type.String()),
});
export type ClaimEvent = Static<typeof ClaimEvent>;

export const WarrantyClaim = Type.Object({
  id: Type.Integer(),
  sale_id: Type.Integer(),
  cause: enumOf<ClaimCause>(CLAIM_CAUSES),
  imei: Type.String(),
  description: Type.String(),
  claim_date: Type.String({ format: 'date' }),
  state: enumOf<ClaimState>(CLAIM_STATES),
  reject_reason: Nullable(Type.String()),
  assessed_cost_paise: Nullable(Type.Integer()),
  cover_limit_paise: Nullable(Type.Integer()),
  device_age_months: Nullable(Type.Integer()),
  deductible_bps: Nullable(Type.Integer()),
  deductible_paise: Nullable(Type.Integer()),
  payable_paise: Nullable(Type.Integer()),
  photo_ids: Type.Array(Type.Integer()),
  raised_by: Type.Integer(),
  raised_at: Type.String(),
  updated_at: Type.String(),
  events: Type.Array(ClaimEvent),
});
export type WarrantyClaim = Static<typeof WarrantyClaim>;

export const ClaimsQuery = Type.Object({ sale_id: Id });

export const CustomerPlansQuery = Type.Object({ customer_id: Id });

/** GET /api/customer/plans: a financed customer's add-on plans, for the customer details screen. */
export const CustomerPlans = Type.Object({
  /** Warranty sales linked to the customer or sold to their mobile number, newest first, with their claims. */
  warranty: Type.Array(Type.Intersect([WarrantySale, Type.Object({ claims: Type.Array(WarrantyClaim) })])),
  /** Anti-hacking plans sold to the customer's mobile number. */
  antihacking: Type.Array(AntihackingSale),
});
export type CustomerPlans = Static<typeof CustomerPlans>;
