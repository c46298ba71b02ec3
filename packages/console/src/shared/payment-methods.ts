/** How a payment was made; the server's PayOneBody/PayManyBody accept exactly these. */
import type { PayManyBody } from '@kisht/contract/emi';

export type PaymentMethod = PayManyBody['method'];

// Kept in step with the contract's PAYMENT_METHODS by the type below (a value import would pull the
// schema library into the console bundle).
export const PAYMENT_METHODS = ['cash', 'upi', 'card', 'bank', 'cheque', 'other'] as const satisfies readonly PaymentMethod[];
type Missing = Exclude<PaymentMethod, (typeof PAYMENT_METHODS)[number]>;
const complete: [Missing] extends [never] ? true : never = true;
void complete;
