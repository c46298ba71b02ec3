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
    async dues(accountId: number, retailerId: number | null, today: string) {
      const res = await db.query<{ due_today: number; due_today_paise: string; overdue: number; overdue_paise: string }>(
        `SELECT count(*) FILTER (WHERE e.due_date = $3::date)::int AS due_today,
                coalesce(sum(e.amount_paise + e.penalty_paise - e.paid_paise) FILTER (WHERE e.due_date = $3::date), 0)::bigint::text AS due_today_paise,
                count(*) FILTER (WHERE e.due_date < $3::date)::int AS overdue,
                coalesce(sum(e.amount_paise + e.penalty_paise - e.paid_paise) FILTER (WHERE e.due_date < $3::date), 0)::bigint::text AS overdue_paise
           FROM emi_instalments e JOIN customers c ON c.id = e.customer_id
          WHERE e.account_id = $1 AND ($2::int IS NULL OR c.retailer_id = $2) AND e.due_date <= $3::date
            AND e.paid_paise < e.amount_paise + e.penalty_paise AND c.install_status NOT IN (3, 5)`,
        [accountId, retailerId, today],
      );
      const r = res.rows[0]!;
      return { due_today: r.due_today, due_today_paise: Number(r.due_today_paise), overdue: r.overdue, overdue_paise: Number(r.overdue_paise) };
    },
    /** Net collections per India date from `from` to `to` (payments minus reversals). */
    async collections(accountId: number, retailerId: number | null, from: string, to: string) {
      const res = await db.query<{ day: string; amount: string }>(
        `SELECT to_char((p.created_at AT TIME ZONE 'Asia/Kolkata')::date, 'YYYY-MM-DD') AS day, sum(p.amount_paise)::bigint::text AS amount
           FROM payments p JOIN customers c ON c.id = p.customer_id
          WHERE p.account_id = $1 AND ($2::int IS NULL OR c.retailer_id = $2)
            AND p.created_at >= ($3::date::timestamp AT TIME ZONE 'Asia/Kolkata') AND p.created_at < (($4::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata')
          GROUP BY 1`,
        [accountId, retailerId, from, to],
      );
      return new Map(res.rows.map((r) => [r.day, Number(r.amount)]));
    },
  };
}
export type DashboardRepository = ReturnType<typeof createDashboardRepository>;
