/**
 * A payment gateway, chosen by PAYMENT_GATEWAY: it opens a payable order for an amount under our reference,
 * tells what was paid against it (for reconciliation) and signs the events it sends us. The payments module
 * knows only this interface; what a gateway's callback says is always compared with our own order before
 * anything is credited.
 */

/** What we ask for: the amount in paise, our order id as the reference, and until when it may be paid. */
export interface GatewayOrderRequest {
  reference: string;
  amountPaise: number;
  currency: 'INR';
  description: string;
  expiresAt: Date;
  customer?: { name: string; mobile: string };
}

/** What the gateway opened. */
export interface GatewayOrder {
  /** The gateway's id of what it opened (a payment link, a QR code), which reconciliation asks about. */
  ref: string;
  /** The gateway's order behind it, when it has one: its payments carry this id. */
  orderId: string | null;
  shortUrl: string | null;
  upiLink: string | null;
}

export type GatewayPaymentStatus = 'authorized' | 'captured' | 'failed';

/** One payment the gateway holds against an order, as reconciliation reads it. */
export interface GatewayPayment {
  id: string;
  amountPaise: number;
  currency: string;
  status: GatewayPaymentStatus | 'other';
}

/**
 * A verified event, reduced to what the payments module needs. `refs` are every reference the event carries
 * (our order id from the notes or the reference, the gateway's link and order ids): any of them finds our
 * order. The amount and currency are the gateway's claim, compared with the order, never credited as such.
 */
export interface GatewayEvent {
  type: string;
  /** What the event says of the payment; null: an event we keep but that moves no money (e.g. a link expired). */
  status: GatewayPaymentStatus | null;
  payment: { id: string; amountPaise: number; currency: string } | null;
  refs: { reference: string | null; gatewayRef: string | null; gatewayOrderId: string | null };
}

export interface PaymentGateway {
  readonly name: string;
  createOrder(request: GatewayOrderRequest): Promise<GatewayOrder>;
  /** Every payment made against what `createOrder` opened (`ref`). Throws when the gateway cannot answer. */
  payments(ref: string): Promise<GatewayPayment[]>;
  /** True only when `signature` is this gateway's signature of exactly these bytes (checked in constant time). */
  verify(rawBody: Buffer, signature: string | undefined): boolean;
  /** The event id the gateway sent, or one derived from the body so a resent body is still one event. */
  eventId(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): string;
  /** Reads a verified body; null when it is not an event this module reads. */
  parseEvent(rawBody: Buffer | string): GatewayEvent | null;
}
