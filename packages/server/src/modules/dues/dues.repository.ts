/**
 * The set-based statements of the daily dues run; each is safe to repeat for the same day. They read the
 * instalments alone (each carries its loan's organisation and whether the loan is active, migration 022), through
 * partial indexes on open instalments of active loans, so a day's work reads about what it changes.
 */
import { addDays } from '@kisht/domain/calendar';
import type { Queryable } from '../../db/database.ts';

export interface DuesRule {
  org_id: number;
  penalty_grace_days: number;
  penalty_kind: 'none' | 'flat' | 'percent';
  penalty_value: number;
  maturing_days: number;
  reminder_days: number;
  /** The device policy's lock threshold in days overdue (0: off); crossing it is a change worth a notice. */
  auto_lock_days_overdue: number;
}

/** The organisation's last run before a day: where the "what changed since" windows start. */
export interface PreviousRun {
  run_date: string;
  /** When that run's transaction started. */
  ran_at: Date;
  /** The lock threshold it worked with (null before migration 022). */
  lock_days_overdue: number | null;
}

// Still owing something, on an active loan: the predicate of the partial indexes.
const OPEN = 'e.loan_active AND e.paid_paise < e.amount_paise + e.penalty_paise';
const OWED = 'e.amount_paise + e.penalty_paise - e.paid_paise';
// No date before every due date ('-infinity' is a valid date on both drivers).
const NO_LIMIT = '-infinity';

export function createDuesRepository(db: Queryable) {
  return {
    async rules(): Promise<DuesRule[]> {
      return (await db.query<DuesRule>(
        'SELECT id AS org_id, penalty_grace_days, penalty_kind, penalty_value, maturing_days, reminder_days, auto_lock_days_overdue FROM organizations ORDER BY id',
      )).rows;
    },
    /** Takes the day for the organisation; false when another node or an earlier run already did it. */
    async claim(orgId: number, day: string, q: Queryable): Promise<boolean> {
      const res = await q.query('INSERT INTO dues_runs (org_id, run_date) VALUES ($1, $2) ON CONFLICT DO NOTHING', [orgId, day]);
      return res.rowCount > 0;
    },
    async previousRun(orgId: number, day: string, q: Queryable): Promise<PreviousRun | undefined> {
      return (await q.query<PreviousRun>(
        `SELECT to_char(run_date, 'YYYY-MM-DD') AS run_date, finished_at AS ran_at, lock_days_overdue FROM dues_runs
          WHERE org_id = $1 AND run_date < $2::date ORDER BY run_date DESC LIMIT 1`,
        [orgId, day],
      )).rows[0];
    },
    async finish(rule: DuesRule, day: string, stats: Record<string, number>, q: Queryable): Promise<void> {
      await q.query(
        'UPDATE dues_runs SET stats = $3, finished_at = now(), lock_days_overdue = $4 WHERE org_id = $1 AND run_date = $2',
        [rule.org_id, day, JSON.stringify(stats), rule.auto_lock_days_overdue],
      );
    },
    /**
     * Drops the dues summary rows whose slots net to nothing (days paid in full, loans moved or closed), so the
     * dashboard's sum reads the days still owed, not the whole history. A writer's later change to such a row
     * inserts it again; one that holds it uncommitted makes the delete wait and then see its result.
     */
    async pruneDuesSummaries(): Promise<number> {
      return (await db.query('DELETE FROM dues_summaries WHERE instalments = 0 AND outstanding_paise = 0')).rowCount;
    },
    /** One penalty per instalment once it is past its grace days and still unpaid, written to the penalty ledger in the same statement. */
    async applyPenalties(rule: DuesRule, day: string, q: Queryable): Promise<number> {
      if (rule.penalty_kind === 'none' || rule.penalty_value === 0) return 0;
      const due = `e.org_id = $1 AND ${OPEN} AND e.penalty_applied_at IS NULL AND e.due_date < $2::date - $4::int`;
      // A flat penalty is one statement over the instalments. A percentage is of what is overdue on the instalment,
      // not of the whole instalment: Rs 50 still owed on a Rs 2,000 EMI is charged on Rs 50. Payments go to earlier
      // penalties first, so the EMI's unpaid part is its amount less whatever was paid beyond those penalties (never
      // a charge on a penalty). That amount depends on the penalty the row had before, so it is worked out first.
      const charged = rule.penalty_kind === 'flat'
        ? `charged AS (
             UPDATE emi_instalments e SET penalty_paise = e.penalty_paise + $3::bigint, penalty_applied_at = now()
              WHERE ${due} RETURNING e.id, e.customer_id, e.account_id, $3::bigint AS amount
           )`
        : `owed AS (
             SELECT e.id, round((e.amount_paise - greatest(e.paid_paise - e.penalty_paise, 0)) * $3::numeric / 10000)::bigint AS amount
               FROM emi_instalments e WHERE ${due}
           ), charged AS (
             UPDATE emi_instalments e SET penalty_paise = e.penalty_paise + o.amount, penalty_applied_at = now()
               FROM owed o WHERE e.id = o.id AND o.amount > 0 AND ${due}
               RETURNING e.id, e.customer_id, e.account_id, o.amount
           )`;
      const res = await q.query<{ n: number }>(
        `WITH ${charged}, logged AS (
           INSERT INTO penalty_charges (customer_id, instalment_id, account_id, amount_paise, reason, source)
           SELECT customer_id, id, account_id, amount, 'late payment (' || $2::date || ')', 'dues_run' FROM charged RETURNING 1
         )
         SELECT count(*)::int AS n FROM logged`,
        [rule.org_id, day, rule.penalty_value, rule.penalty_grace_days],
      );
      return res.rows[0]!.n;
    },
    /**
     * Active loans with nothing left to pay become EMIs completed (5) (a phone on a plan alone has no loan to complete), free their IMEIs and get a loan_completed
     * event. A loan completes when its last instalment is paid in full, so after a first run only loans with an
     * instalment paid since the last run (a day's margin for payments that committed while it ran) are looked at.
     */
    async completeLoans(orgId: number, day: string, previous: PreviousRun | undefined, q: Queryable): Promise<number> {
      const recent = previous
        ? `AND c.id IN (SELECT e.customer_id FROM emi_instalments e WHERE e.paid_at >= $3::timestamptz - interval '1 day' AND e.org_id = $1 AND e.loan_active)`
        : '';
      const res = await q.query<{ n: number }>(
        `WITH completed AS (
           UPDATE customers c SET install_status = 5, completed_from = c.install_status, updated_at = now()
            WHERE c.org_id = $1 AND c.install_status NOT IN (3, 5) AND c.price_paise IS NOT NULL ${recent}
              AND NOT EXISTS (SELECT 1 FROM emi_instalments e WHERE e.customer_id = c.id AND e.paid_paise < e.amount_paise + e.penalty_paise)
            RETURNING c.id, c.account_id
         ), freed AS (
           UPDATE customer_imeis i SET active = false FROM completed WHERE i.customer_id = completed.id AND i.active RETURNING 1
         ), logged AS (
           INSERT INTO customer_events (org_id, account_id, customer_id, type, event_date)
           SELECT $1, account_id, id, 'loan_completed', $2::date FROM completed ON CONFLICT DO NOTHING RETURNING 1
         )
         SELECT count(*)::int AS n FROM completed`,
        previous ? [orgId, day, previous.ran_at] : [orgId, day],
      );
      return res.rows[0]!.n;
    },
    /** Installed loans whose end date falls within the maturing window become EMIs maturing (6), with a loan_maturing event. */
    async markMaturing(rule: DuesRule, day: string, q: Queryable): Promise<number> {
      const res = await q.query<{ n: number }>(
        `WITH matured AS (
           UPDATE customers c SET install_status = 6, updated_at = now()
            WHERE c.org_id = $1 AND c.install_status = 1 AND c.last_due_date <= $2::date + $3::int
            RETURNING c.id, c.account_id
         ), logged AS (
           INSERT INTO customer_events (org_id, account_id, customer_id, type, event_date)
           SELECT $1, account_id, id, 'loan_maturing', $2::date FROM matured ON CONFLICT DO NOTHING RETURNING 1
         )
         SELECT count(*)::int AS n FROM matured`,
        [rule.org_id, day, rule.maturing_days],
      );
      return res.rows[0]!.n;
    },
    /** A reminder each day for loans with an instalment due within the reminder window. */
    async emitReminders(rule: DuesRule, day: string, q: Queryable): Promise<number> {
      const res = await q.query(
        `INSERT INTO customer_events (org_id, account_id, customer_id, type, event_date, payload)
         SELECT $1, e.account_id, e.customer_id, 'emi_reminder', $2::date,
                jsonb_build_object('due_date', to_char(min(e.due_date), 'YYYY-MM-DD'), 'amount_paise', sum(${OWED}))
           FROM emi_instalments e
          WHERE e.org_id = $1 AND ${OPEN} AND e.due_date BETWEEN $2::date AND $2::date + $3::int
          GROUP BY e.customer_id, e.account_id
         ON CONFLICT DO NOTHING`,
        [rule.org_id, day, rule.reminder_days],
      );
      return res.rowCount;
    },
    /**
     * An overdue notice (days past due of the oldest unpaid instalment, everything overdue) for the loans whose
     * overdue state changed since the previous run (or since yesterday, on a first run): an instalment reached its
     * first overdue day, or one crossed the organisation's lock threshold. A new threshold (or the first run with
     * one) covers every loan already past it. Loans that stay as they were get nothing new.
     */
    async emitOverdue(rule: DuesRule, day: string, previous: PreviousRun | undefined, q: Queryable): Promise<number> {
      const lockDays = rule.auto_lock_days_overdue;
      const since = previous?.run_date ?? addDays(day, -1);
      // Due dates that put an instalment past the threshold only after the previous run (all of them when the threshold is new).
      const crossedAfter = previous && previous.lock_days_overdue === lockDays ? addDays(since, -lockDays) : NO_LIMIT;
      // The loans come from the instalments in those windows; each loan's figures from its own instalments.
      const res = await q.query(
        `INSERT INTO customer_events (org_id, account_id, customer_id, type, event_date, payload)
         SELECT $1, changed.account_id, changed.customer_id, 'emi_overdue', $2::date,
                jsonb_build_object('days_past_due', $2::date - overdue.oldest, 'overdue_paise', overdue.owed)
           FROM (SELECT DISTINCT e.customer_id, e.account_id FROM emi_instalments e
                  WHERE e.org_id = $1 AND ${OPEN}
                    AND ((e.due_date >= $3::date AND e.due_date < $2::date)
                         OR ($4::int > 0 AND e.due_date <= $2::date - $4::int AND e.due_date > $5::date))) changed
          CROSS JOIN LATERAL (SELECT min(e.due_date) AS oldest, sum(${OWED}) AS owed FROM emi_instalments e
                               WHERE e.customer_id = changed.customer_id AND ${OPEN} AND e.due_date < $2::date) overdue
         ON CONFLICT DO NOTHING`,
        [rule.org_id, day, since, lockDays, crossedAfter],
      );
      return res.rowCount;
    },
  };
}
export type DuesRepository = ReturnType<typeof createDuesRepository>;
