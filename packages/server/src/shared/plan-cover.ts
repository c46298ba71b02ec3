/**
 * How long a plan that acts on the phone lasts (anti-theft, decision 022; family care, decision 024), as SQL over a
 * customers row `c`: a term is the validity of the customer's plan, or of the product's shortest active plan, or a
 * year; the cover runs from the enrolment day (India) for one term, or to the last day a renewal stored.
 */

/** A term when neither the customer's plan nor the product's plans say how long. */
export const DEFAULT_TERM_DAYS = 365;

/** One term in days. */
export const TERM_DAYS = `COALESCE((SELECT validity_days FROM plans WHERE id = c.plan_id), (SELECT min(validity_days) FROM plans WHERE product_id = c.product_id AND active), ${DEFAULT_TERM_DAYS})`;

/** The last day in force, given the column that holds the renewed last day (null before any renewal). */
export function coveredUntil(renewed: string): string {
  return `COALESCE(${renewed}, (c.created_at AT TIME ZONE 'Asia/Kolkata')::date - 1 + ${TERM_DAYS})`;
}
