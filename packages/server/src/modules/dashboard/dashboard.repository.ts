/** The dashboard's aggregates over one network (or one mini-retailer's customers). */
import type { Queryable } from '../../db/database.ts';

export function createDashboardRepository(db: Queryable) {
  return {
    /** Customers by install and lock status, from the summaries the customers' triggers keep (migration 023). */
    async statusCounts(accountId: number, retailerId: number | null) {
      const res = await db.query<{ install_status: number; lock_status: number; n: number }>(
        `SELECT install_status, lock_status, sum(customers)::int AS n FROM customer_summaries
          WHERE account_id = $1 AND ($2::int IS NULL OR retailer_id = $2) GROUP BY install_status, lock_status`,
        [accountId, retailerId],
      );
      return res.rows;
    },
    /** Open instalments due today and overdue, from the sums kept by the instalments' triggers (migration 024). */
    async dues(accountId: number, retailerId: number | null, today: string) {
      const res = await db.query<{ due_today: number; due_today_paise: string; overdue: number; overdue_paise: string }>(
        `SELECT coalesce(sum(instalments) FILTER (WHERE due_date = $3::date), 0)::int AS due_today,
                coalesce(sum(outstanding_paise) FILTER (WHERE due_date = $3::date), 0)::bigint::text AS due_today_paise,
                coalesce(sum(instalments) FILTER (WHERE due_date < $3::date), 0)::int AS overdue,
                coalesce(sum(outstanding_paise) FILTER (WHERE due_date < $3::date), 0)::bigint::text AS overdue_paise
           FROM dues_summaries
          WHERE account_id = $1 AND ($2::int IS NULL OR retailer_id = $2) AND due_date <= $3::date`,
        [accountId, retailerId, today],
      );
      const r = res.rows[0]!;
      return { due_today: r.due_today, due_today_paise: Number(r.due_today_paise), overdue: r.overdue, overdue_paise: Number(r.overdue_paise) };
    },
    /** Net collections per India date from `from` to `to` (payments minus reversals), from the ledger's kept day sums. */
    async collections(accountId: number, retailerId: number | null, from: string, to: string) {
      const res = await db.query<{ day: string; amount: string }>(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(amount_paise)::bigint::text AS amount
           FROM collection_days
          WHERE account_id = $1 AND ($2::int IS NULL OR retailer_id = $2) AND day BETWEEN $3::date AND $4::date
          GROUP BY day`,
        [accountId, retailerId, from, to],
      );
      return new Map(res.rows.map((r) => [r.day, Number(r.amount)]));
    },
  };
}
export type DashboardRepository = ReturnType<typeof createDashboardRepository>;
