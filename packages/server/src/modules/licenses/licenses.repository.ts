/** License keys: balances per retailer and product type, and their append-only history. */
import type { Queryable } from '../../db/database.ts';

/** The key ledger's column naming each kind of add-on plan sale (fixed names, never input). */
const SALE_COLUMN = { antihacking: 'antihacking_sale_id', warranty: 'warranty_sale_id' } as const;
/** An add-on plan sale that took (or gives back) a key. */
export interface PlanSale {
  kind: keyof typeof SALE_COLUMN;
  id: number;
}

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
      await q.query(`INSERT INTO license_ledger (user_id, product_type, change, reason, customer_id, balance_after) VALUES ($1, $2, -1, 'enrolment', $3, $4)`, [userId, productType, customerId, left]);
      return left;
    },
    /**
     * Gives back the key an enrolment used, to whoever it was taken from, with a ledger line naming the
     * customer; null when that enrolment took no key (or it was already given back).
     */
    async release(customerId: number, q: Queryable): Promise<{ userId: number; productType: number; balance: number } | null> {
      const taken = (await q.query<{ user_id: number; product_type: number }>(
        `SELECT user_id, product_type FROM license_ledger l WHERE customer_id = $1 AND reason = 'enrolment'
            AND NOT EXISTS (SELECT 1 FROM license_ledger r WHERE r.customer_id = $1 AND r.reason = 'enrolment_released')`,
        [customerId],
      )).rows[0];
      if (!taken) return null;
      const res = await q.query<{ balance: number }>(
        'UPDATE license_balances SET balance = balance + 1 WHERE user_id = $1 AND product_type = $2 RETURNING balance', [taken.user_id, taken.product_type],
      );
      const balance = res.rows[0]!.balance;
      await q.query(`INSERT INTO license_ledger (user_id, product_type, change, reason, customer_id, balance_after) VALUES ($1, $2, 1, 'enrolment_released', $3, $4)`,
        [taken.user_id, taken.product_type, customerId, balance]);
      return { userId: taken.user_id, productType: taken.product_type, balance };
    },
    /** Takes one key for an add-on plan sale in the caller's transaction; null when none is left. */
    /** Takes one key for renewing a customer's plan (anti-theft, decision 022): a `renewal` line naming the customer. */
    async consumeForRenewal(userId: number, productType: number, customerId: number, q: Queryable): Promise<number | null> {
      const res = await q.query<{ balance: number }>(
        'UPDATE license_balances SET balance = balance - 1 WHERE user_id = $1 AND product_type = $2 AND balance > 0 RETURNING balance',
        [userId, productType],
      );
      const left = res.rows[0]?.balance;
      if (left === undefined) return null;
      await q.query(`INSERT INTO license_ledger (user_id, product_type, change, reason, customer_id, balance_after) VALUES ($1, $2, -1, 'renewal', $3, $4)`, [userId, productType, customerId, left]);
      return left;
    },
    async consumeForSale(userId: number, productType: number, sale: PlanSale, q: Queryable): Promise<number | null> {
      const res = await q.query<{ balance: number }>(
        'UPDATE license_balances SET balance = balance - 1 WHERE user_id = $1 AND product_type = $2 AND balance > 0 RETURNING balance',
        [userId, productType],
      );
      const left = res.rows[0]?.balance;
      if (left === undefined) return null;
      await q.query(`INSERT INTO license_ledger (user_id, product_type, change, reason, ${SALE_COLUMN[sale.kind]}, balance_after) VALUES ($1, $2, -1, 'plan_sale', $3, $4)`, [userId, productType, sale.id, left]);
      return left;
    },
    /**
     * Gives back the key a sale used (an anti-hacking sale revoked before the phone activated it, a warranty revoked
     * before any claim); null when it was given back already.
     */
    async releaseSale(sale: PlanSale, q: Queryable): Promise<{ userId: number; balance: number } | null> {
      const column = SALE_COLUMN[sale.kind];
      const taken = (await q.query<{ user_id: number; product_type: number }>(
        `SELECT user_id, product_type FROM license_ledger WHERE ${column} = $1 AND reason = 'plan_sale'
            AND NOT EXISTS (SELECT 1 FROM license_ledger r WHERE r.${column} = $1 AND r.reason = 'plan_sale_released')`,
        [sale.id],
      )).rows[0];
      if (!taken) return null;
      const res = await q.query<{ balance: number }>(
        'UPDATE license_balances SET balance = balance + 1 WHERE user_id = $1 AND product_type = $2 RETURNING balance', [taken.user_id, taken.product_type],
      );
      const balance = res.rows[0]!.balance;
      await q.query(`INSERT INTO license_ledger (user_id, product_type, change, reason, ${column}, balance_after) VALUES ($1, $2, 1, 'plan_sale_released', $3, $4)`,
        [taken.user_id, taken.product_type, sale.id, balance]);
      return { userId: taken.user_id, balance };
    },
    async grant(userId: number, productType: number, count: number, reason: string, q: Queryable = db): Promise<number> {
      const res = await q.query<{ balance: number }>(
        `INSERT INTO license_balances (user_id, product_type, balance) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, product_type) DO UPDATE SET balance = license_balances.balance + EXCLUDED.balance RETURNING balance`,
        [userId, productType, count],
      );
      await q.query('INSERT INTO license_ledger (user_id, product_type, change, reason, balance_after) VALUES ($1, $2, $3, $4, $5)', [userId, productType, count, reason, res.rows[0]!.balance]);
      return res.rows[0]!.balance;
    },
  };
}
export type LicensesRepository = ReturnType<typeof createLicensesRepository>;
