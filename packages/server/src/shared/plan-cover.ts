/**
 * How long a plan that acts on the phone lasts (anti-theft, decision 022; family care, decision 024), as SQL over a
 * customers row `c`: a term is the validity of the customer's plan, or of the product's shortest active plan, or a
 * year; the cover runs from the enrolment day (India) for one term, or to the last day a renewal stored.
 */

import { INSTALL_STATUS } from '@kisht/domain/constants';
import type { Queryable } from '../db/database.ts';
import { AppError } from '../errors.ts';

/** A term when neither the customer's plan nor the product's plans say how long. */
export const DEFAULT_TERM_DAYS = 365;

/** One term in days. */
export const TERM_DAYS = `COALESCE((SELECT validity_days FROM plans WHERE id = c.plan_id), (SELECT min(validity_days) FROM plans WHERE product_id = c.product_id AND active), ${DEFAULT_TERM_DAYS})`;

/** The last day in force, given the column that holds the renewed last day (null before any renewal). */
export function coveredUntil(renewed: string): string {
  return `COALESCE(${renewed}, (c.created_at AT TIME ZONE 'Asia/Kolkata')::date - 1 + ${TERM_DAYS})`;
}

/** A phone whose agent is gone (released, or the Apple profile removed) cannot be kept by a renewal. */
export const RELEASED_STATUSES: readonly number[] = [INSTALL_STATUS.uninstall, INSTALL_STATUS.apple_removed];

/** The releases the end of a plan asks for (decision 023). */
export const PLAN_RELEASES = ['uninstall', 'uninstall_antitheft'] as const;

/**
 * In a renewal's transaction (the customer row locked first, as the release sweep locks it): withdraws a release
 * the plan's end asked for that the phone has not carried out yet, so a phone that was off when its plan ended is
 * not released when it comes back renewed. Answers whether one was withdrawn.
 */
export async function withdrawPlanRelease(customerId: number, q: Queryable): Promise<boolean> {
  const res = await q.query(
    `UPDATE device_commands SET state = 'expired', finished_at = now()
      WHERE customer_id = $1 AND origin = 'system' AND type = ANY($2::text[]) AND state IN ('queued', 'sent', 'delivered')`,
    [customerId, [...PLAN_RELEASES]],
  );
  return res.rowCount > 0;
}

/** Locks the customer row in the caller's transaction: renewals, rule saves and the release sweep take it first. */
export async function lockCustomer(customerId: number, q: Queryable): Promise<void> {
  await q.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [customerId]);
}

/**
 * A renewal in the caller's transaction: the customer row locked (the release sweep takes it too), a phone already
 * released refused (ENROLMENT_CLOSED), one key of the product taken (NO_LICENSE_KEY when none is left), the cover
 * moved on by `extend`, and a release the plan's end asked for withdrawn. Answers whether one was withdrawn.
 */
export async function renewIn(
  tx: Queryable,
  customer: { id: number; product_type: number },
  extend: () => Promise<unknown>,
  userId: number,
  licenses: { consumeForRenewal(userId: number, productType: number, customerId: number, q: Queryable): Promise<number | null> },
): Promise<boolean> {
  await lockCustomer(customer.id, tx);
  const status = (await tx.query<{ install_status: number }>('SELECT install_status FROM customers WHERE id = $1', [customer.id])).rows[0]!.install_status;
  if (RELEASED_STATUSES.includes(status)) throw new AppError('ENROLMENT_CLOSED');
  if ((await licenses.consumeForRenewal(userId, customer.product_type, customer.id, tx)) === null) throw new AppError('NO_LICENSE_KEY');
  await extend();
  return withdrawPlanRelease(customer.id, tx);
}
