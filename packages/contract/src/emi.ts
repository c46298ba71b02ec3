/** Instalments, payments (an append-only ledger with receipts) and upcoming dues. */
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope.ts';
import { IsoDate, MAX_PAISE } from './customers.ts';
import { Id, MultilineText, Page } from './fields.ts';
import { LoanTermsView } from './loan-terms.ts';

const CustomerId = Id;
export const PAYMENT_METHODS = ['cash', 'upi', 'card', 'bank', 'cheque', 'other'] as const;
const Method = Type.Unsafe<(typeof PAYMENT_METHODS)[number]>({ type: 'string', enum: [...PAYMENT_METHODS] });

export const InstalmentView = Type.Object({
  id: Type.Integer(),
  number: Type.Integer(),
  due_date: Type.String(),
  principal_paise: Type.Integer(),
  interest_paise: Type.Integer(),
  tax_paise: Type.Integer({ description: "GST on a no-cost loan's interest, part of the amount" }),
  amount_paise: Type.Integer(),
  penalty_paise: Type.Integer(),
  /** What of the penalty is still unpaid: what a waiver may take off. */
  unpaid_penalty_paise: Type.Integer(),
  paid_paise: Type.Integer(),
  outstanding_paise: Type.Integer(),
  status: Type.Unsafe<'paid' | 'partial' | 'due' | 'overdue'>({ type: 'string', enum: ['paid', 'partial', 'due', 'overdue'] }),
  days_past_due: Type.Integer(),
  advance: Type.Boolean(),
  paid_at: Nullable(Type.String()),
});
export type InstalmentView = Static<typeof InstalmentView>;

export const EmiDetails = Type.Object({
  customer_id: Type.Integer(),
  emi_paise: Type.Integer(),
  loan_terms: Nullable(LoanTermsView),
  instalments: Type.Array(InstalmentView),
  totals: Type.Object({ payable_paise: Type.Integer(), paid_paise: Type.Integer(), outstanding_paise: Type.Integer(), overdue_paise: Type.Integer() }),
});
export type EmiDetails = Static<typeof EmiDetails>;

export const CustomerIdQuery = Type.Object({ customer_id: CustomerId });
export const CustomerIdBody = Type.Object({ customer_id: CustomerId }, { additionalProperties: false });

/** Sent again with a retried request, it returns the first request's receipt instead of paying twice. */
const IdempotencyKey = Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$' });

export const PayOneBody = Type.Object(
  {
    customer_id: CustomerId,
    instalment_id: Id,
    amount_paise: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAISE, description: 'Defaults to what the instalment still owes' })),
    method: Method,
    reference: Type.Optional(Type.String({ maxLength: 60 })),
    idempotency_key: Type.Optional(IdempotencyKey),
  },
  { additionalProperties: false },
);
export type PayOneBody = Static<typeof PayOneBody>;

export const PayManyBody = Type.Object(
  {
    customer_id: CustomerId,
    instalment_ids: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 60, uniqueItems: true })),
    amount_paise: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAISE, description: 'Allocated oldest due first' })),
    method: Method,
    reference: Type.Optional(Type.String({ maxLength: 60 })),
    idempotency_key: Type.Optional(IdempotencyKey),
  },
  { additionalProperties: false },
);
export type PayManyBody = Static<typeof PayManyBody>;

export const ReverseBody = Type.Object({ payment_id: Id, reason: MultilineText({ minLength: 3, maxLength: 200 }) }, { additionalProperties: false });
export type ReverseBody = Static<typeof ReverseBody>;

/** A payment's (or a reversal's, negated) share of one instalment, by part, in the order the loan product settles them. */
export const LedgerParts = Type.Object({
  penalty_paise: Type.Integer(),
  interest_paise: Type.Integer(),
  tax_paise: Type.Integer({ description: "GST on a no-cost loan's interest" }),
  principal_paise: Type.Integer(),
});
export type LedgerParts = Static<typeof LedgerParts>;

export const Receipt = Type.Object({
  payment_id: Type.Integer(),
  receipt_no: Type.String(),
  kind: Type.String(),
  amount_paise: Type.Integer(),
  method: Type.String(),
  reference: Nullable(Type.String()),
  note: Nullable(Type.String()),
  created_at: Type.String(),
  customer: Type.Object({ id: Type.Integer(), name: Type.String(), mobile: Type.String(), imei1: Type.String(), device: Type.String() }),
  retailer: Type.Object({ shop_name: Nullable(Type.String()), name: Type.String(), mobile: Type.String() }),
  allocations: Type.Array(Type.Object({
    instalment_number: Type.Integer(),
    due_date: Type.String(),
    amount_paise: Type.Integer(),
    /** How the amount splits into penalty, interest, GST and principal; null for a payment recorded before payments were split. */
    parts: Nullable(LedgerParts),
  })),
  outstanding_after_paise: Type.Integer(),
  /** The loan product the loan was made with (its name as it was then), or null for a loan made without one. */
  loan_product: Nullable(Type.String()),
});
export type Receipt = Static<typeof Receipt>;

export const UpcomingQuery = Type.Object({
  filter: Type.Unsafe<'overdue' | 'today' | 'next'>({ type: 'string', enum: ['overdue', 'today', 'next'], default: 'today' }),
  days: Type.Integer({ minimum: 1, maximum: 90, default: 7 }),
  page: Page,
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
export type UpcomingQuery = Static<typeof UpcomingQuery>;

export const UpcomingItem = Type.Object({
  instalment_id: Type.Integer(),
  customer_id: Type.Integer(),
  customer_name: Type.String(),
  mobile: Type.String(),
  number: Type.Integer(),
  due_date: Type.String(),
  outstanding_paise: Type.Integer(),
  lock_status: Type.Integer(),
});
export const UpcomingList = Type.Object({ items: Type.Array(UpcomingItem), total: Type.Integer(), page: Type.Integer(), limit: Type.Integer() });
export type UpcomingList = Static<typeof UpcomingList>;

export const UpcomingCounts = Type.Object({ overdue: Type.Integer(), today: Type.Integer(), next_days: Type.Integer(), days: Type.Integer() });
export type UpcomingCounts = Static<typeof UpcomingCounts>;

export const Outstanding = Type.Object({ outstanding_paise: Type.Integer(), overdue_paise: Type.Integer(), customers: Type.Integer() });
export type Outstanding = Static<typeof Outstanding>;

export const PenaltyBody = Type.Object(
  { customer_id: CustomerId, instalment_id: Id, amount_paise: Type.Integer({ minimum: 1, maximum: 10_000_000 }), reason: MultilineText({ minLength: 3, maxLength: 200 }) },
  { additionalProperties: false },
);
export type PenaltyBody = Static<typeof PenaltyBody>;

export const AlertBody = Type.Object({ customer_id: CustomerId, message: Type.Optional(MultilineText({ minLength: 1, maxLength: 300 })) }, { additionalProperties: false });
export type AlertBody = Static<typeof AlertBody>;

export const Alert = Type.Object({ id: Type.Integer(), customer_id: Type.Integer(), message: Type.String(), amount_paise: Type.Integer(), status: Type.String(), created_at: Type.String() });
export type Alert = Static<typeof Alert>;

/** Why a schedule was changed: kept with the change (who, when, before, after, why). */
const ChangeReason = MultilineText({ minLength: 3, maxLength: 200 });

export const EditInstalmentBody = Type.Object(
  { customer_id: CustomerId, instalment_id: Id, due_date: Type.Optional(IsoDate), amount_paise: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAISE })), reason: Type.Optional(ChangeReason) },
  { additionalProperties: false },
);
export type EditInstalmentBody = Static<typeof EditInstalmentBody>;

export const AddInstalmentBody = Type.Object(
  { customer_id: CustomerId, due_date: IsoDate, amount_paise: Type.Integer({ minimum: 1, maximum: MAX_PAISE }), reason: Type.Optional(ChangeReason) },
  { additionalProperties: false },
);
export type AddInstalmentBody = Static<typeof AddInstalmentBody>;

export const PaymentItem = Type.Object({
  payment_id: Type.Integer(),
  receipt_no: Type.String(),
  kind: Type.String(),
  amount_paise: Type.Integer(),
  method: Type.String(),
  reversed: Type.Boolean(),
  created_at: Type.String(),
});
export type PaymentItem = Static<typeof PaymentItem>;

/** Waives a penalty in full (no amount) or in part: an appended entry with its reason; the charge itself stays recorded. */
export const WaiveBody = Type.Object(
  {
    customer_id: CustomerId,
    instalment_id: Id,
    amount_paise: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAISE, description: "Defaults to the instalment's whole unpaid penalty" })),
    reason: ChangeReason,
  },
  { additionalProperties: false },
);
export type WaiveBody = Static<typeof WaiveBody>;

export const STATEMENT_KINDS = ['due', 'penalty', 'waiver', 'payment', 'reversal', 'edit'] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

/** One line of a customer statement: what it adds to (positive) or takes off (negative) what is owed. */
export const StatementLine = Type.Object({
  date: Type.String({ description: 'India date (YYYY-MM-DD): the due date of a due line, the day of anything else' }),
  kind: Type.Unsafe<StatementKind>({ type: 'string', enum: [...STATEMENT_KINDS] }),
  delta_paise: Type.Integer(),
  balance_after_paise: Type.Integer(),
  instalment_number: Nullable(Type.Integer()),
  payment_id: Nullable(Type.Integer()),
  receipt_no: Nullable(Type.String()),
  reason: Nullable(Type.String()),
  parts: Nullable(LedgerParts),
});
export type StatementLine = Static<typeof StatementLine>;

/** Every due, charge, waiver, payment, reversal and change of a loan in date order; the last balance is what is owed. */
export const Statement = Type.Object({
  customer_id: Type.Integer(),
  lines: Type.Array(StatementLine),
  balance_paise: Type.Integer({ description: 'The balance after the last line: always equal to outstanding_paise' }),
  outstanding_paise: Type.Integer(),
  paid_parts: LedgerParts,
});
export type Statement = Static<typeof Statement>;

/** The amount that closes a loan today, by the loan product's rule. */
export const ForeclosureQuote = Type.Object({
  customer_id: Type.Integer(),
  as_of: Type.String(),
  principal_paise: Type.Integer(),
  interest_paise: Type.Integer({ description: 'Interest due and unpaid, plus the current period accrued to today' }),
  tax_paise: Type.Integer(),
  penalty_paise: Type.Integer(),
  fee_paise: Type.Integer({ description: "The product's foreclosure fee on principal not yet due" }),
  total_paise: Type.Integer(),
  outstanding_paise: Type.Integer({ description: 'What the schedule still asks, for comparison' }),
  saving_paise: Type.Integer({ description: 'outstanding_paise - total_paise (interest of later periods not charged), never below 0' }),
});
export type ForeclosureQuote = Static<typeof ForeclosureQuote>;

export const ForecloseBody = Type.Object(
  {
    customer_id: CustomerId,
    amount_paise: Type.Integer({ minimum: 1, maximum: MAX_PAISE, description: "The quote's total as shown: a quote that has changed since is refused (QUOTE_CHANGED)" }),
    method: Method,
    reference: Type.Optional(Type.String({ maxLength: 60 })),
    idempotency_key: Type.Optional(IdempotencyKey),
  },
  { additionalProperties: false },
);
export type ForecloseBody = Static<typeof ForecloseBody>;

export const CHANGE_KINDS = ['edit', 'add', 'waiver', 'foreclosure'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
const ChangedFields = Type.Object({ due_date: Nullable(Type.String()), amount_paise: Type.Integer(), penalty_paise: Type.Integer() });

/** An appended record of a change to a loan's schedule: who, when, before, after, why. */
export const InstalmentChange = Type.Object({
  id: Type.Integer(),
  kind: Type.Unsafe<ChangeKind>({ type: 'string', enum: [...CHANGE_KINDS] }),
  instalment_number: Type.Integer(),
  before: Nullable(ChangedFields),
  after: ChangedFields,
  reason: Nullable(Type.String()),
  by: Type.String(),
  at: Type.String(),
});
export type InstalmentChange = Static<typeof InstalmentChange>;
