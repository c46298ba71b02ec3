/** License keys: balances per retailer and product type, and their append-only history. */
import type { Queryable } from '../../db/database.ts';

export function createLicensesRepository(db: Queryable) {
  return {
    /**
     * Takes one key in the caller's transaction; null when none is left. The conditional UPDATE takes a row
     * lock, so concurrent enrolments queue on it and the balance never goes below zero.
     */
    async consume(userId: number, productType: number, customerId: number, q: Queryable): Promise<number | null> {
      const res = await q.query<{ balance: number }>(
        'UPDATE license_balances SET balance = balance - 1 WHERE user_id = $1 AND product_type = $2 AND balance > 0 RETURNING balance',
        [userId, productType],
      );
      const left = res.rows[0]?.balance;
      if (left === undefined) return null;
      await q.query(`INSERT INTO license_ledger (user_id, product_type, change, reason, customer_id) VALUES ($1, $2, -1, 'enrolment', $3)`, [userId, productType, customerId]);
      return left;
    },
    async grant(userId: number, productType: number, count: number, reason: string, q: Queryable = db): Promise<number> {
      const res = await q.query<{ balance: number }>(
        `INSERT INTO license_balances (user_id, product_type, balance) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, product_type) DO UPDATE SET balance = license_balances.balance + EXCLUDED.balance RETURNING balance`,
        [userId, productType, count],
      );
      await q.query('INSERT INTO license_ledger (user_id, product_type, change, reason) VALUES ($1, $2, $3, $4)', [userId, productType, count, reason]);
      return res.rows[0]!.balance;
    },
  };
}
export type LicensesRepository = ReturnType<typeof createLicensesRepository>;
