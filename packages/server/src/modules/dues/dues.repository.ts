/** The set-based statements of the daily dues run; each is safe to repeat for the same day. */
import type { Queryable } from '../../db/database.ts';

export interface DuesRule {
  org_id: number;
  penalty_grace_days: number;
  penalty_kind: 'none' | 'flat' | 'percent';
  penalty_value: number;
  maturing_days: number;
  reminder_days: number;
}

const ACTIVE = 'c.install_status NOT IN (3, 5)';
const OPEN = 'e.paid_paise < e.amount_paise + e.penalty_paise';

export function createDuesRepository(db: Queryable) {
  return {
    async rules(): Promise<DuesRule[]> {
      return (await db.query<DuesRule>('SELECT id AS org_id, penalty_grace_days, penalty_kind, penalty_value, maturing_days, reminder_days FROM organizations ORDER BY id')).rows;
    },
    /** Takes the day for the organisation; false when another node or an earlier run already did it. */
    async claim(orgId: number, day: string, q: Queryable): Promise<boolean> {
      const res = await q.query('INSERT INTO dues_runs (org_id, run_date) VALUES ($1, $2) ON CONFLICT DO NOTHING', [orgId, day]);
      return res.rowCount > 0;
    },
    async finish(orgId: number, day: string, stats: Record<string, number>, q: Queryable): Promise<void> {
      await q.query('UPDATE dues_runs SET stats = $3, finished_at = now() WHERE org_id = $1 AND run_date = $2', [orgId, day, JSON.stringify(stats)]);
    },
    /** One penalty per instalment, once it is past its grace days and still unpaid. */
    async applyPenalties(rule: DuesRule, day: string, q: Queryable): Promise<number> {
      if (rule.penalty_kind === 'none' || rule.penalty_value === 0) return 0;
      const amount = rule.penalty_kind === 'flat' ? '$3::int' : 'round(e.amount_paise * $3::numeric / 10000)::int';
      // Each automatic penalty is also written to the penalty ledger, like a manual one.
      const res = await q.query<{ n: number }>(
        `WITH charged AS (
           UPDATE emi_instalments e SET penalty_paise = e.penalty_paise + ${amount}, penalty_applied_at = now()
             FROM customers c
            WHERE c.id = e.customer_id AND c.org_id = $1 AND ${ACTIVE} AND ${OPEN} AND e.penalty_applied_at IS NULL
              AND e.due_date + $4::int < $2::date AND ${amount} > 0
            RETURNING e.id, e.customer_id, e.account_id, ${amount} AS amount
         ), logged AS (
           INSERT INTO penalty_charges (customer_id, instalment_id, account_id, amount_paise, reason, source)
           SELECT customer_id, id, account_id, amount, 'late payment (' || $2::date || ')', 'dues_run' FROM charged RETURNING 1
         )
         SELECT count(*)::int AS n FROM logged`,
        [rule.org_id, day, rule.penalty_value, rule.penalty_grace_days],
      );
      return res.rows[0]!.n;
    },
    /** Loans with nothing left to pay become EMIs completed (5) and free their IMEIs. */
    async completeLoans(orgId: number, day: string, q: Queryable): Promise<number> {
      const res = await q.query<{ id: number; account_id: number }>(
        `UPDATE customers c SET install_status = 5, completed_from = c.install_status, updated_at = now()
          WHERE c.org_id = $1 AND ${ACTIVE}
            AND NOT EXISTS (SELECT 1 FROM emi_instalments e WHERE e.customer_id = c.id AND ${OPEN})
          RETURNING c.id, c.account_id`,
        [orgId],
      );
      if (res.rows.length === 0) return 0;
      const ids = res.rows.map((r) => r.id);
      await q.query('UPDATE customer_imeis SET active = false WHERE customer_id = ANY($1::int[])', [ids]);
      await q.query(
        `INSERT INTO customer_events (org_id, account_id, customer_id, type, event_date)
         SELECT $1, c.account_id, c.id, 'loan_completed', $2::date FROM customers c WHERE c.id = ANY($3::int[]) ON CONFLICT DO NOTHING`,
        [orgId, day, ids],
      );
      return ids.length;
    },
    /** Installed loans whose last instalment falls within the maturing window become EMIs maturing (6). */
    async markMaturing(rule: DuesRule, day: string, q: Queryable): Promise<number> {
      const res = await q.query<{ id: number }>(
        `UPDATE customers c SET install_status = 6, updated_at = now()
          WHERE c.org_id = $1 AND c.install_status = 1
            AND (SELECT max(e.due_date) FROM emi_instalments e WHERE e.customer_id = c.id) <= $2::date + $3::int
          RETURNING c.id`,
        [rule.org_id, day, rule.maturing_days],
      );
      if (res.rows.length > 0) {
        await q.query(
          `INSERT INTO customer_events (org_id, account_id, customer_id, type, event_date)
           SELECT $1, c.account_id, c.id, 'loan_maturing', $2::date FROM customers c WHERE c.id = ANY($3::int[]) ON CONFLICT DO NOTHING`,
          [rule.org_id, day, res.rows.map((r) => r.id)],
        );
      }
      return res.rows.length;
    },
    /** Reminders for instalments due within the reminder window, and overdue notices with the days past due. */
    async emitDueEvents(rule: DuesRule, day: string, q: Queryable): Promise<{ reminders: number; overdue: number }> {
      const reminders = await q.query(
        `INSERT INTO customer_events (org_id, account_id, customer_id, type, event_date, payload)
         SELECT $1, c.account_id, c.id, 'emi_reminder', $2::date,
                jsonb_build_object('due_date', to_char(min(e.due_date), 'YYYY-MM-DD'), 'amount_paise', sum(e.amount_paise + e.penalty_paise - e.paid_paise))
           FROM emi_instalments e JOIN customers c ON c.id = e.customer_id
          WHERE c.org_id = $1 AND ${ACTIVE} AND ${OPEN} AND e.due_date BETWEEN $2::date AND $2::date + $3::int
          GROUP BY c.id, c.account_id
         ON CONFLICT DO NOTHING`,
        [rule.org_id, day, rule.reminder_days],
      );
      const overdue = await q.query(
        `INSERT INTO customer_events (org_id, account_id, customer_id, type, event_date, payload)
         SELECT $1, c.account_id, c.id, 'emi_overdue', $2::date,
                jsonb_build_object('days_past_due', $2::date - min(e.due_date), 'overdue_paise', sum(e.amount_paise + e.penalty_paise - e.paid_paise))
           FROM emi_instalments e JOIN customers c ON c.id = e.customer_id
          WHERE c.org_id = $1 AND ${ACTIVE} AND ${OPEN} AND e.due_date < $2::date
          GROUP BY c.id, c.account_id
         ON CONFLICT DO NOTHING`,
        [rule.org_id, day],
      );
      return { reminders: reminders.rowCount, overdue: overdue.rowCount };
    },
  };
}
export type DuesRepository = ReturnType<typeof createDuesRepository>;
