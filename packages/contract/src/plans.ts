/** Add-on plans sold with a phone: the plan lists of each kind, anti-hacking sales and their activation codes. */
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope.ts';
import { Mobile } from './auth.ts';
import { Id, NOT_BLANK, Page } from './fields.ts';

const Name = Type.String({ minLength: 1, maxLength: 60 });

/** A plan of one kind as its screen lists it (spec: anti-hacking plan id, name, app_type), with what it costs and covers. */
export const KindPlan = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  app_type: Type.Integer(),
  product_id: Type.Integer(),
  product_type: Type.Integer(),
  validity_days: Nullable(Type.Integer()),
  price_paise: Nullable(Type.Integer()),
  terms: Nullable(Type.String()),
});
export type KindPlan = Static<typeof KindPlan>;

/**
 * POST /api/customer/add_customer_antihacking: the spec's payload (mobile, plan_id, app_type, plan_name) with the
 * form's other fields. The plan's own name is what is stored; plan_name is taken for the spec's sake and ignored.
 */
export const AddAntihackingBody = Type.Object(
  {
    firstName: Name,
    lastName: Name,
    email: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 120 }), Type.Literal('')])),
    mobile: Mobile,
    plan_id: Id,
    app_type: Type.Integer({ minimum: 0, maximum: 99 }),
    plan_name: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type AddAntihackingBody = Static<typeof AddAntihackingBody>;

export const ANTIHACKING_STATES = ['issued', 'activated', 'expired', 'revoked'] as const;
export type AntihackingState = (typeof ANTIHACKING_STATES)[number];

/** One anti-hacking plan sold. The code is shown while it can still be used (issued or activated), else null. */
export const AntihackingSale = Type.Object({
  id: Type.Integer(),
  plan_id: Type.Integer(),
  plan_name: Type.String(),
  app_type: Type.Integer(),
  product_type: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Nullable(Type.String()),
  mobile: Type.String(),
  antihacking_code: Nullable(Type.String()),
  state: Type.Unsafe<AntihackingState>({ type: 'string', enum: [...ANTIHACKING_STATES] }),
  issued_at: Type.String(),
  expires_at: Type.String(),
  activated_at: Nullable(Type.String()),
  device_model: Nullable(Type.String()),
  revoked_at: Nullable(Type.String()),
  revoke_reason: Nullable(Type.String()),
  retailer_id: Type.Integer(),
  retailer_name: Nullable(Type.String()),
});
export type AntihackingSale = Static<typeof AntihackingSale>;

/** The add answer: the spec's data list whose first item carries antihacking_code, and the seller's keys left. */
export const AntihackingAdded = Type.Array(Type.Intersect([AntihackingSale, Type.Object({ keys_left: Type.Integer() })]));
export type AntihackingAdded = Static<typeof AntihackingAdded>;

export const AntihackingListQuery = Type.Object({
  page: Type.Optional(Page),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  /** A name, a mobile number (or its last digits) or a code. */
  search: Type.Optional(Type.String({ maxLength: 60 })),
  state: Type.Optional(Type.Unsafe<AntihackingState>({ type: 'string', enum: [...ANTIHACKING_STATES] })),
});
export type AntihackingListQuery = Static<typeof AntihackingListQuery>;
export const AntihackingPage = Type.Object({ total: Type.Integer(), page: Type.Integer(), limit: Type.Integer(), items: Type.Array(AntihackingSale) });
export type AntihackingPage = Static<typeof AntihackingPage>;

export const RevokeAntihackingBody = Type.Object({ sale_id: Id, reason: Type.String({ minLength: 1, maxLength: 200, pattern: NOT_BLANK }) }, { additionalProperties: false });
export type RevokeAntihackingBody = Static<typeof RevokeAntihackingBody>;

/**
 * POST /api/antihacking/activate, from the security app on the buyer's phone: the code as typed (spaces and
 * dashes allowed), the mobile it was sold to, and the app's installation id.
 */
export const ActivateAntihackingBody = Type.Object(
  {
    code: Type.String({ minLength: 16, maxLength: 40 }),
    mobile: Mobile,
    install_id: Type.String({ pattern: '^[A-Za-z0-9_-]{8,100}$' }),
    device_model: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type ActivateAntihackingBody = Static<typeof ActivateAntihackingBody>;

export const AntihackingActivation = Type.Object({
  plan_name: Type.String(),
  app_type: Type.Integer(),
  activated_at: Type.String(),
  expires_at: Type.String(),
});
export type AntihackingActivation = Static<typeof AntihackingActivation>;
