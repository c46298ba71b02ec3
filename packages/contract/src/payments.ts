/**
 * Payments through a gateway (orders for a customer's dues and for a retailer's keys, settled by verified
 * webhooks), and the customer's "I paid" claims for payments to a retailer's own UPI ID, which send nothing back.
 */
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope.ts';
import { MAX_PAISE } from './customers.ts';
import { Id, Page } from './fields.ts';

const ProductType = Type.Integer({ minimum: 0, maximum: 1000 });
/** Sent again with a retried request, it returns the first request's order instead of opening another. */
const IdempotencyKey = Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$' });

export const ORDER_PURPOSES = ['emi', 'keys'] as const;
export type OrderPurpose = (typeof ORDER_PURPOSES)[number];
/**
 * pending: waiting for the customer or retailer to pay; paid: credited (ledger payment or keys); held: the
 * gateway reported a payment that does not match the order (amount or currency), kept for review, not credited;
 * refunded: a held order whose money the reviewer says went back to the payer; expired: not paid before it
 * closed; failed: the gateway reported the payment failed.
 */
export const ORDER_STATUSES = ['pending', 'paid', 'held', 'refunded', 'expired', 'failed'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const PaymentOrderView = Type.Object({
  /** Our order id, the reference (`tr`) the customer's UPI app and the gateway carry back. */
  id: Type.String(),
  purpose: Type.Unsafe<OrderPurpose>({ type: 'string', enum: [...ORDER_PURPOSES] }),
  status: Type.Unsafe<OrderStatus>({ type: 'string', enum: [...ORDER_STATUSES] }),
  amount_paise: Type.Integer(),
  currency: Type.Literal('INR'),
  customer_id: Nullable(Type.Integer()),
  customer_name: Nullable(Type.String()),
  product_type: Nullable(Type.Integer()),
  quantity: Nullable(Type.Integer()),
  /** A `upi://pay` link for the amount (what the QR code holds), while the order is pending. */
  upi_link: Nullable(Type.String()),
  /** The gateway's hosted payment page, where it offers one. */
  short_url: Nullable(Type.String()),
  /** The receipt of the ledger payment, once an EMI order is paid. */
  receipt_no: Nullable(Type.String()),
  /** Why an order is held (e.g. AMOUNT_MISMATCH), for the reviewer; kept once the order is resolved. */
  held_reason: Nullable(Type.String()),
  /** What the gateway reported paid against a held order (paise, and the currency when it was not INR). */
  received_paise: Nullable(Type.Integer()),
  received_currency: Nullable(Type.String()),
  /** When a person resolved the held order (recorded as a payment, or refunded). */
  resolved_at: Nullable(Type.String()),
  created_at: Type.String(),
  paid_at: Nullable(Type.String()),
  expires_at: Nullable(Type.String()),
});
export type PaymentOrderView = Static<typeof PaymentOrderView>;

export const PaymentOrderList = Type.Object({
  items: Type.Array(PaymentOrderView),
  page: Type.Integer(),
  has_more: Type.Boolean(),
});
export type PaymentOrderList = Static<typeof PaymentOrderList>;

export const PaymentOrderQuery = Type.Object({
  purpose: Type.Optional(Type.Unsafe<OrderPurpose>({ type: 'string', enum: [...ORDER_PURPOSES] })),
  status: Type.Optional(Type.Unsafe<OrderStatus>({ type: 'string', enum: [...ORDER_STATUSES] })),
  customer_id: Type.Optional(Id),
  page: Type.Optional(Page),
});

/** POST /api/payments/customer_order: an order for what the customer owes now (overdue and due today), or `amount_paise`. */
export const CustomerOrderBody = Type.Object(
  {
    customer_id: Id,
    amount_paise: Type.Optional(Type.Integer({ minimum: 100, maximum: MAX_PAISE })),
    idempotency_key: Type.Optional(IdempotencyKey),
    /** Also send the link to the customer's mobile by SMS. */
    send_sms: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CustomerOrderBody = Static<typeof CustomerOrderBody>;

/** POST /api/payments/validate (the spec's "payments validate"): the price of keys before buying them. */
export const KeyQuoteBody = Type.Object({ product_type: ProductType, quantity: Type.Integer({ minimum: 1, maximum: 10_000 }) }, { additionalProperties: false });
export type KeyQuoteBody = Static<typeof KeyQuoteBody>;
export const KeyQuote = Type.Object({
  product_type: Type.Integer(),
  quantity: Type.Integer(),
  unit_price_paise: Type.Integer(),
  amount_paise: Type.Integer(),
  /** Who sells the keys: the caller's parent, or the operator (null) at the top of the network. */
  seller_id: Nullable(Type.Integer()),
  seller_name: Type.String(),
});
export type KeyQuote = Static<typeof KeyQuote>;

/**
 * POST /api/payments/orders/resolve: a held order after review. `record` puts the amount received (as the gateway
 * reported it, or as corrected) into the customer's ledger once, and the order is paid; `refund` notes that the
 * money went back to the payer. Only an EMI order can be recorded.
 */
export const HeldOrderBody = Type.Object(
  {
    id: Type.String({ pattern: '^po_[A-Za-z0-9]{20}$' }),
    action: Type.Unsafe<'record' | 'refund'>({ type: 'string', enum: ['record', 'refund'] }),
    amount_paise: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAISE })),
  },
  { additionalProperties: false },
);
export type HeldOrderBody = Static<typeof HeldOrderBody>;

/** POST /api/payments (the spec's "payments", make payment): an order for keys at the quoted price. */
export const KeyOrderBody = Type.Object(
  { product_type: ProductType, quantity: Type.Integer({ minimum: 1, maximum: 10_000 }), idempotency_key: IdempotencyKey },
  { additionalProperties: false },
);
export type KeyOrderBody = Static<typeof KeyOrderBody>;

/** The longest reason a retailer may give for rejecting a claim (the phone's lock screen shows it whole). */
export const CLAIM_REASON_MAX = 200;

export const CLAIM_STATUSES = ['open', 'confirmed', 'rejected'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** A customer's "I paid" from the lock screen, for a payment to the retailer's own UPI ID. */
export const PaymentClaimView = Type.Object({
  id: Type.Integer(),
  customer_id: Type.Integer(),
  customer_name: Type.String(),
  amount_paise: Nullable(Type.Integer()),
  /** The UPI transaction reference the customer typed, if any. */
  reference: Nullable(Type.String()),
  status: Type.Unsafe<ClaimStatus>({ type: 'string', enum: [...CLAIM_STATUSES] }),
  created_at: Type.String(),
  decided_at: Nullable(Type.String()),
  /** Why the retailer rejected it (null for open and confirmed claims, or a rejection without a reason). */
  reason: Nullable(Type.String()),
  receipt_no: Nullable(Type.String()),
});
export type PaymentClaimView = Static<typeof PaymentClaimView>;

export const PaymentClaimList = Type.Object({ items: Type.Array(PaymentClaimView), page: Type.Integer(), has_more: Type.Boolean() });
export type PaymentClaimList = Static<typeof PaymentClaimList>;
export const PaymentClaimQuery = Type.Object({
  status: Type.Optional(Type.Unsafe<ClaimStatus>({ type: 'string', enum: [...CLAIM_STATUSES] })),
  customer_id: Type.Optional(Id),
  page: Type.Optional(Page),
});

/** POST /api/payments/claims/decide: confirming records the payment in the ledger (amount as claimed or corrected). */
export const ClaimDecisionBody = Type.Object(
  {
    id: Id,
    decision: Type.Unsafe<'confirm' | 'reject'>({ type: 'string', enum: ['confirm', 'reject'] }),
    amount_paise: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAISE })),
    /** With a rejection: why, in the retailer's words; the customer's locked phone shows it. */
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: CLAIM_REASON_MAX })),
  },
  { additionalProperties: false },
);
export type ClaimDecisionBody = Static<typeof ClaimDecisionBody>;

/** POST /api/device/pay_order (the phone's own credentials): "Pay now" on the lock screen, through the gateway. */
export const DevicePayOrder = Type.Object({
  order_id: Type.String(),
  amount_paise: Type.Integer(),
  upi_link: Nullable(Type.String()),
  short_url: Nullable(Type.String()),
});
export type DevicePayOrder = Static<typeof DevicePayOrder>;

/** POST /api/device/payment_claim (the phone's own credentials): "I paid" to the retailer's own UPI ID. */
export const DeviceClaimBody = Type.Object(
  {
    amount_paise: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAISE })),
    reference: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9]{6,35}$', description: 'The UPI transaction reference (UTR) shown by the payer app' })),
  },
  { additionalProperties: false },
);
export type DeviceClaimBody = Static<typeof DeviceClaimBody>;
