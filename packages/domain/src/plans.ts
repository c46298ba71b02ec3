/**
 * Plans sold with a phone that act on the phone itself (decision 023). Anti-theft and family care may be sold on
 * their own, for a phone without a loan; the customer then carries no loan, no schedule and no EMIs.
 */
import { PRODUCT_TYPE } from './constants.ts';

/** Product types a phone may be enrolled on without a loan. */
export const PLAN_ONLY_PRODUCT_TYPES: readonly number[] = [PRODUCT_TYPE.ANTI_THEFT, PRODUCT_TYPE.FAMILYCARE];

export function isPlanOnlyProduct(productType: number): boolean {
  return PLAN_ONLY_PRODUCT_TYPES.includes(productType);
}

/** A customer known to carry a loan: every loan term is set (the database keeps them all set or all empty). */
export type WithLoan<T> = T & {
  price_paise: number; down_payment_paise: number; annual_rate_bps: number; interest_method: string; tenure_months: number;
  start_date: string; first_due_date: string; emi_paise: number;
};

/** Whether a customer carries a loan: a phone on a plan alone has no price (and no other loan term). */
export function hasLoan<T extends { price_paise: number | null }>(customer: T): customer is WithLoan<T> {
  return customer.price_paise !== null;
}
