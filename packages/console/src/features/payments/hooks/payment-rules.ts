/** The payment screens' small rules: status badges, amounts and quantities typed in, and request ids. */
import type { ClaimStatus, OrderStatus, PaymentClaimView, PaymentOrderView } from '@kisht/contract/payments';
import { paiseToRupeesText, parseRupeesToPaise } from '@kisht/domain/money-input';
import type { Tone } from '../../../shared/ui/status-badges.tsx';



export const ORDER_STATUS_TONE: Record<OrderStatus, Tone> = { pending: 'info', paid: 'success', held: 'warning', refunded: 'neutral', expired: 'neutral', failed: 'danger' };
export const ORDER_STATUS_LABEL_KEYS: Record<OrderStatus, string> = {
  pending: 'gateway.status.pending',
  paid: 'gateway.status.paid',
  held: 'gateway.status.held',
  refunded: 'gateway.status.refunded',
  expired: 'gateway.status.expired',
  failed: 'gateway.status.failed',
};
export const CLAIM_STATUS_TONE: Record<ClaimStatus, Tone> = { open: 'info', confirmed: 'success', rejected: 'danger' };
export const CLAIM_STATUS_LABEL_KEYS: Record<ClaimStatus, string> = {
  open: 'gateway.claims.status.open',
  confirmed: 'gateway.claims.status.confirmed',
  rejected: 'gateway.claims.status.rejected',
};

/** The server's limit for one payment: ₹1,00,00,000. */
export const MAX_CLAIM_PAISE = 1_000_000_000;
/** The server's limit for a rejection's reason (CLAIM_REASON_MAX in the contract). */
export const CLAIM_REASON_MAX = 200;

/** The confirm dialog's amount as first shown: the amount the customer claimed, or empty for the retailer to type. */
export function claimAmountText(claim: Pick<PaymentClaimView, 'amount_paise'>): string {
  return claim.amount_paise === null ? '' : paiseToRupeesText(claim.amount_paise);
}

export type AmountCheck = { paise: number } | { error: 'required' | 'amount' };

/** An amount in rupees as typed (₹ with up to two decimals) checked for the confirm dialog. */
export function checkAmount(text: string): AmountCheck {
  if (text.trim() === '') return { error: 'required' };
  const paise = parseRupeesToPaise(text);
  if (paise === null || paise < 1 || paise > MAX_CLAIM_PAISE) return { error: 'amount' };
  return { paise };
}

/** Why a claim is rejected, as typed: required (the customer's phone shows it), spaces collapsed, within the server's limit. */
export function checkReason(text: string): { reason: string } | { error: 'required' | 'tooLong' } {
  const reason = text.trim().replace(/\s+/g, ' ');
  if (reason === '') return { error: 'required' };
  if (reason.length > CLAIM_REASON_MAX) return { error: 'tooLong' };
  return { reason };
}

/** Why the server held an order (payment_orders.held_reason), as the reviewer reads it; an unknown reason shows as itself. */
export const HELD_REASON_KEYS: Record<string, string> = {
  AMOUNT_MISMATCH: 'gateway.held.reason.AMOUNT_MISMATCH',
  CURRENCY_MISMATCH: 'gateway.held.reason.CURRENCY_MISMATCH',
  EXCEEDS_DUE: 'gateway.held.reason.EXCEEDS_DUE',
  SELLER_OUT_OF_KEYS: 'gateway.held.reason.SELLER_OUT_OF_KEYS',
};

/** The amount to prefill when recording a held order: what the gateway reported, when it reported rupees. */
export function receivedAmountText(order: Pick<PaymentOrderView, 'received_paise' | 'received_currency'>): string {
  return order.received_paise !== null && (order.received_currency ?? 'INR') === 'INR' ? paiseToRupeesText(order.received_paise) : '';
}

export const MAX_KEYS_PER_ORDER = 10_000;

/** How many keys to buy, as typed: a whole number from 1 to 10,000, else null. */
export function parseQuantity(text: string): number | null {
  if (!/^\d{1,5}$/.test(text.trim())) return null;
  const n = Number(text.trim());
  return n >= 1 && n <= MAX_KEYS_PER_ORDER ? n : null;
}

/**
 * A request id for one order (32 hex characters, the contract's idempotency key): sent again with a retry of the
 * same order, so a tap repeated over a bad connection opens one order, not two.
 */
export function newIdempotencyKey(fill: (bytes: Uint8Array<ArrayBuffer>) => void = (bytes) => crypto.getRandomValues(bytes)): string {
  const bytes = new Uint8Array(16);
  fill(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
