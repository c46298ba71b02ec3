/** Instalments and the payment ledger. The ledger is append-only (a database trigger refuses edits). */
import type { Queryable } from '../../db/database.ts';

export interface InstalmentRow {
  id: number;
  customer_id: number;
  number: number;
  due_date: string;
  principal_paise: number;
  interest_paise: number;
  /** GST on a no-cost loan's interest (part of the amount); 0 otherwise. */
  tax_paise: number;
  amount_paise: number;
  penalty_paise: number;
  paid_paise: number;
  advance: boolean;
  paid_at: Date | null;
  /** What has been paid of each part; together they are paid_paise (migration 037). */
  paid_penalty_paise: number;
  paid_interest_paise: number;
  paid_tax_paise: number;
  paid_principal_paise: number;
}

/** A share of one instalment by part: what a payment paid (a reversal: took back, negated). */
export interface Parts {
  penalty_paise: number;
  interest_paise: number;
  tax_paise: number;
  principal_paise: number;
}

export type ChangeKind = 'edit' | 'add' | 'waiver' | 'foreclosure';
/** An instalment's fields a schedule change is recorded with. */
export interface ChangedFields {
  due_date: string | null;
  amount_paise: number;
  penalty_paise: number;
}

export interface PaymentRow {
  id: number;
  customer_id: number;
  account_id: number;
  kind: 'payment' | 'reversal';
  amount_paise: number;
  reverses_id: number | null;
  method: string;
  reference: string | null;
  receipt_no: string;
  note: string | null;
  created_by: number;
  created_at: Date;
  outstanding_after_paise: string | null;
  idempotency_key: string | null;
}

const INSTALMENT_COLUMNS = `id, customer_id, number, to_char(due_date, 'YYYY-MM-DD') AS due_date, principal_paise, interest_paise,
  tax_paise, amount_paise, penalty_paise, paid_paise, advance, paid_at, paid_penalty_paise, paid_interest_paise, paid_tax_paise, paid_principal_paise`;


export function createEmiRepository(db: Queryable) {
  return {
    async instalments(customerId: number, q: Queryable = db, lock = false): Promise<InstalmentRow[]> {
      const res = await q.query<InstalmentRow>(
        `SELECT ${INSTALMENT_COLUMNS} FROM emi_instalments WHERE customer_id = $1 ORDER BY number${lock ? ' FOR UPDATE' : ''}`,
        [customerId],
      );
      return res.rows;
    },

    /** The loan's terms (a product loan's settings), read inside a payment's transaction. */
    async loanOf(customerId: number, q: Queryable): Promise<{ loan_terms: unknown }> {
      return (await q.query<{ loan_terms: unknown }>('SELECT loan_terms FROM customers WHERE id = $1', [customerId])).rows[0]!;
    },

    /** Appends a payment or reversal with its allocations and moves the instalments' paid amounts. */
    async record(
      entry: { customer_id: number; account_id: number; kind: 'payment' | 'reversal'; amount_paise: number; reverses_id: number | null; method: string; reference: string | null; note: string | null; created_by: number; idempotency_key?: string | null },
      allocations: Array<{ instalment_id: number; amount_paise: number; parts: Parts }>,
      q: Queryable,
    ): Promise<number> {
      const id = (await q.query<{ id: number }>(`SELECT nextval('payments_id_seq')::int AS id`)).rows[0]!.id;
      const receipt = `${entry.kind === 'payment' ? 'RCP' : 'REV'}-${String(id).padStart(8, '0')}`;
      // The receipt keeps what was owed at its moment; reopening it later shows the same figure.
      const owedBefore = Number((await q.query<{ s: string }>(
        'SELECT coalesce(sum(amount_paise + penalty_paise - paid_paise), 0)::bigint::text AS s FROM emi_instalments WHERE customer_id = $1',
        [entry.customer_id],
      )).rows[0]!.s);
      await q.query(
        `INSERT INTO payments (id, customer_id, account_id, kind, amount_paise, reverses_id, method, reference, receipt_no, note, created_by, outstanding_after_paise, idempotency_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [id, entry.customer_id, entry.account_id, entry.kind, entry.amount_paise, entry.reverses_id, entry.method, entry.reference, receipt, entry.note, entry.created_by, owedBefore - entry.amount_paise, entry.idempotency_key ?? null],
      );
      for (const a of allocations) {
        const { penalty_paise: pen, interest_paise: int, tax_paise: tax, principal_paise: pri } = a.parts;
        if (pen + int + tax + pri !== a.amount_paise) throw new Error(`allocation parts ${pen}+${int}+${tax}+${pri} are not ${a.amount_paise}`);
        await q.query(
          'INSERT INTO payment_allocations (payment_id, instalment_id, amount_paise, penalty_paise, interest_paise, tax_paise, principal_paise) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          [id, a.instalment_id, a.amount_paise, pen, int, tax, pri],
        );
        await q.query(
          `UPDATE emi_instalments SET paid_paise = paid_paise + $2, paid_penalty_paise = paid_penalty_paise + $3, paid_interest_paise = paid_interest_paise + $4,
             paid_tax_paise = paid_tax_paise + $5, paid_principal_paise = paid_principal_paise + $6,
             paid_at = CASE WHEN paid_paise + $2 >= amount_paise + penalty_paise THEN now() ELSE NULL END
           WHERE id = $1`,
          [a.instalment_id, a.amount_paise, pen, int, tax, pri],
        );
      }
      return id;
    },

    async addPenalty(entry: { customer_id: number; instalment_id: number; account_id: number; amount_paise: number; reason: string; created_by: number }, q: Queryable): Promise<void> {
      await q.query(
        'INSERT INTO penalty_charges (customer_id, instalment_id, account_id, amount_paise, reason, created_by) VALUES ($1, $2, $3, $4, $5, $6)',
        [entry.customer_id, entry.instalment_id, entry.account_id, entry.amount_paise, entry.reason, entry.created_by],
      );
      await q.query('UPDATE emi_instalments SET penalty_paise = penalty_paise + $2, paid_at = NULL WHERE id = $1', [entry.instalment_id, entry.amount_paise]);
    },

    async editInstalment(id: number, change: { due_date?: string; amount_paise?: number }, q: Queryable): Promise<void> {
      await q.query(
        `UPDATE emi_instalments SET due_date = coalesce($2::date, due_date),
           -- A new amount keeps the tax (GST of a no-cost loan) and the interest as far as it reaches; the rest is principal.
           tax_paise = CASE WHEN $3::bigint IS NULL THEN tax_paise ELSE least(tax_paise, $3::bigint) END,
           interest_paise = CASE WHEN $3::bigint IS NULL THEN interest_paise ELSE least(interest_paise, $3::bigint - least(tax_paise, $3::bigint)) END,
           principal_paise = CASE WHEN $3::bigint IS NULL THEN principal_paise
                                  ELSE $3::bigint - least(tax_paise, $3::bigint) - least(interest_paise, $3::bigint - least(tax_paise, $3::bigint)) END,
           amount_paise = coalesce($3::bigint, amount_paise),
           paid_at = CASE WHEN paid_paise >= coalesce($3::bigint, amount_paise) + penalty_paise THEN coalesce(paid_at, now()) ELSE NULL END
         WHERE id = $1`,
        [id, change.due_date ?? null, change.amount_paise ?? null],
      );
    },

    /** Sets an instalment's parts (a foreclosure drops the interest of periods not yet due and credits interest paid ahead as principal); paid parts that no longer fit are spread again (migration 037's trigger). */
    async setParts(id: number, parts: { interest_paise: number; tax_paise: number; principal_paise: number }, q: Queryable): Promise<void> {
      await q.query(
        `UPDATE emi_instalments SET interest_paise = $2::bigint, tax_paise = $3::bigint, principal_paise = $4::bigint, amount_paise = $4::bigint + $2::bigint + $3::bigint,
           paid_at = CASE WHEN paid_paise >= $4::bigint + $2::bigint + $3::bigint + penalty_paise THEN coalesce(paid_at, now()) ELSE NULL END
         WHERE id = $1`,
        [id, parts.interest_paise, parts.tax_paise, parts.principal_paise],
      );
    },

    /** Takes part or all of an unpaid penalty off an instalment, with the waiver appended to its ledger. */
    async waive(entry: { customer_id: number; instalment_id: number; account_id: number; amount_paise: number; reason: string; created_by: number }, q: Queryable): Promise<void> {
      await q.query(
        'INSERT INTO penalty_waivers (customer_id, instalment_id, account_id, amount_paise, reason, created_by) VALUES ($1, $2, $3, $4, $5, $6)',
        [entry.customer_id, entry.instalment_id, entry.account_id, entry.amount_paise, entry.reason, entry.created_by],
      );
      await q.query(
        `UPDATE emi_instalments SET penalty_paise = penalty_paise - $2,
           paid_at = CASE WHEN paid_paise >= amount_paise + penalty_paise - $2 THEN coalesce(paid_at, now()) ELSE NULL END
         WHERE id = $1`,
        [entry.instalment_id, entry.amount_paise],
      );
    },

    /** Appends a record of a change to the schedule (who, when, before, after, why). */
    async addChange(entry: { customer_id: number; instalment_id: number; account_id: number; kind: ChangeKind; before: ChangedFields | null; after: ChangedFields; reason: string | null; created_by: number }, q: Queryable): Promise<void> {
      await q.query(
        'INSERT INTO instalment_changes (customer_id, instalment_id, account_id, kind, before, after, reason, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
        [entry.customer_id, entry.instalment_id, entry.account_id, entry.kind, entry.before && JSON.stringify(entry.before), JSON.stringify(entry.after), entry.reason, entry.created_by],
      );
    },

    /** The loan's schedule changes, oldest first, with who made them. */
    async changes(customerId: number, q: Queryable = db) {
      return (await q.query<{ id: number; kind: ChangeKind; instalment_id: number; instalment_number: number; before: ChangedFields | null; after: ChangedFields; reason: string | null; by: string; created_at: Date }>(
        `SELECT h.id, h.kind, h.instalment_id, e.number AS instalment_number, h.before, h.after, h.reason,
                coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.mobile) AS by, h.created_at
           FROM instalment_changes h JOIN emi_instalments e ON e.id = h.instalment_id JOIN users u ON u.id = h.created_by
          WHERE h.customer_id = $1 ORDER BY h.id`,
        [customerId],
      )).rows;
    },

    /** What the statement reads besides the instalments: charges, waivers and payments with their parts, oldest first. */
    async ledger(customerId: number, q: Queryable = db) {
      const [penalties, waivers, payments] = await Promise.all([
        q.query<{ instalment_id: number; amount_paise: number; reason: string; day: string; at: Date }>(
          `SELECT instalment_id, amount_paise, reason, to_char(created_at AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD') AS day, created_at AS at FROM penalty_charges WHERE customer_id = $1 ORDER BY created_at, id`,
          [customerId],
        ),
        q.query<{ instalment_id: number; amount_paise: number; reason: string; day: string; at: Date }>(
          `SELECT instalment_id, amount_paise, reason, to_char(created_at AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD') AS day, created_at AS at FROM penalty_waivers WHERE customer_id = $1 ORDER BY created_at, id`,
          [customerId],
        ),
        q.query<{ id: number; kind: 'payment' | 'reversal'; amount_paise: number; receipt_no: string; note: string | null; day: string; at: Date; split: boolean } & Parts>(
          `SELECT p.id, p.kind, p.amount_paise, p.receipt_no, p.note, to_char(p.created_at AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD') AS day, p.created_at AS at,
                  bool_and(a.principal_paise IS NOT NULL) AS split,
                  coalesce(sum(a.penalty_paise), 0)::bigint AS penalty_paise, coalesce(sum(a.interest_paise), 0)::bigint AS interest_paise,
                  coalesce(sum(a.tax_paise), 0)::bigint AS tax_paise, coalesce(sum(a.principal_paise), 0)::bigint AS principal_paise
             FROM payments p LEFT JOIN payment_allocations a ON a.payment_id = p.id
            WHERE p.customer_id = $1 GROUP BY p.id ORDER BY p.created_at, p.id`,
          [customerId],
        ),
      ]);
      return { penalties: penalties.rows, waivers: waivers.rows, payments: payments.rows };
    },

    async addInstalment(customerId: number, accountId: number, dueDate: string, amountPaise: number, q: Queryable): Promise<number> {
      return (await q.query<{ id: number }>(
        `INSERT INTO emi_instalments (customer_id, account_id, number, due_date, principal_paise, interest_paise, amount_paise)
         SELECT $1, $2, coalesce(max(number), 0) + 1, $3, $4, 0, $4 FROM emi_instalments WHERE customer_id = $1 RETURNING id`,
        [customerId, accountId, dueDate, amountPaise],
      )).rows[0]!.id;
    },

    async queueAlert(entry: { customer_id: number; account_id: number; message: string; amount_paise: number; created_by: number }) {
      const res = await db.query<{ id: number; status: string; created_at: Date }>(
        'INSERT INTO emi_alerts (customer_id, account_id, message, amount_paise, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING id, status, created_at',
        [entry.customer_id, entry.account_id, entry.message, entry.amount_paise, entry.created_by],
      );
      return res.rows[0]!;
    },

    async alerts(customerId: number) {
      return (await db.query<{ id: number; customer_id: number; message: string; amount_paise: number; status: string; created_at: Date }>(
        `SELECT a.id, a.customer_id, a.message, a.amount_paise, coalesce(d.state, a.status) AS status, a.created_at
           FROM emi_alerts a LEFT JOIN device_commands d ON d.id = a.command_id
          WHERE a.customer_id = $1 ORDER BY a.created_at DESC, a.id DESC LIMIT 50`,
        [customerId],
      )).rows;
    },

    async payment(accountId: number, id: number, q: Queryable = db): Promise<PaymentRow | undefined> {
      return (await q.query<PaymentRow>('SELECT * FROM payments WHERE account_id = $1 AND id = $2', [accountId, id])).rows[0];
    },

    async payments(customerId: number) {
      const res = await db.query<{ payment_id: number; receipt_no: string; kind: string; amount_paise: number; method: string; reversed: boolean; created_at: Date }>(
        `SELECT p.id AS payment_id, p.receipt_no, p.kind, p.amount_paise, p.method,
                EXISTS (SELECT 1 FROM payments r WHERE r.reverses_id = p.id) AS reversed, p.created_at
           FROM payments p WHERE p.customer_id = $1 ORDER BY p.created_at DESC, p.id DESC`,
        [customerId],
      );
      return res.rows;
    },

    async paymentByKey(accountId: number, key: string): Promise<PaymentRow | undefined> {
      return (await db.query<PaymentRow>('SELECT * FROM payments WHERE account_id = $1 AND idempotency_key = $2', [accountId, key])).rows[0];
    },

    async isReversed(paymentId: number, q: Queryable): Promise<boolean> {
      return (await q.query('SELECT 1 FROM payments WHERE reverses_id = $1', [paymentId])).rows.length > 0;
    },

    async allocations(paymentId: number, q: Queryable = db) {
      const res = await q.query<{ instalment_id: number; instalment_number: number; due_date: string; amount_paise: number; parts: Parts | null }>(
        `SELECT a.instalment_id, e.number AS instalment_number, to_char(e.due_date, 'YYYY-MM-DD') AS due_date, a.amount_paise,
                CASE WHEN a.principal_paise IS NULL THEN NULL
                     ELSE json_build_object('penalty_paise', a.penalty_paise, 'interest_paise', a.interest_paise, 'tax_paise', a.tax_paise, 'principal_paise', a.principal_paise) END AS parts
           FROM payment_allocations a JOIN emi_instalments e ON e.id = a.instalment_id
          WHERE a.payment_id = $1 ORDER BY e.number`,
        [paymentId],
      );
      return res.rows;
    },

    async upcoming(accountId: number, retailerId: number | null, range: { from: string | null; to: string | null }, page: { limit: number; offset: number }) {
      const params: unknown[] = [accountId, retailerId, range.from, range.to];
      const where = `e.account_id = $1 AND e.paid_paise < e.amount_paise + e.penalty_paise
        AND ($2::int IS NULL OR c.retailer_id = $2) AND ($3::date IS NULL OR e.due_date >= $3) AND ($4::date IS NULL OR e.due_date <= $4)
        AND c.install_status NOT IN (3, 5)`;
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM emi_instalments e JOIN customers c ON c.id = e.customer_id WHERE ${where}`, params)).rows[0]!.n;
      const res = await db.query<{ instalment_id: number; customer_id: number; customer_name: string; mobile: string; number: number; due_date: string; outstanding_paise: number; lock_status: number }>(
        `SELECT e.id AS instalment_id, c.id AS customer_id, c.first_name || ' ' || c.last_name AS customer_name, c.mobile, e.number,
                to_char(e.due_date, 'YYYY-MM-DD') AS due_date, (e.amount_paise + e.penalty_paise - e.paid_paise) AS outstanding_paise, c.lock_status
           FROM emi_instalments e JOIN customers c ON c.id = e.customer_id
          WHERE ${where} ORDER BY e.due_date, e.id LIMIT $5::int OFFSET $6::bigint`,
        [...params, page.limit, page.offset],
      );
      return { items: res.rows, total };
    },

    async upcomingCounts(accountId: number, retailerId: number | null, today: string, until: string) {
      const res = await db.query<{ overdue: number; today: number; next_days: number }>(
        `SELECT count(*) FILTER (WHERE e.due_date < $3::date)::int AS overdue,
                count(*) FILTER (WHERE e.due_date = $3::date)::int AS today,
                count(*) FILTER (WHERE e.due_date > $3::date AND e.due_date <= $4::date)::int AS next_days
           FROM emi_instalments e JOIN customers c ON c.id = e.customer_id
          WHERE e.account_id = $1 AND ($2::int IS NULL OR c.retailer_id = $2) AND e.paid_paise < e.amount_paise + e.penalty_paise
            AND e.due_date <= $4::date AND c.install_status NOT IN (3, 5)`,
        [accountId, retailerId, today, until],
      );
      return res.rows[0]!;
    },

    /**
     * Everything still owed, whatever the phone's state: a loan whose agent was uninstalled still owes its money
     * (a completed loan owes nothing, so it adds nothing). Sums can pass 2^31 paise (Rs 2.1 crore) for a
     * network, so they come back as bigint text and are read as numbers.
     */
    async outstanding(accountId: number, retailerId: number | null, today: string) {
      const res = await db.query<{ outstanding_paise: string; overdue_paise: string; customers: number }>(
        `SELECT coalesce(sum(e.amount_paise + e.penalty_paise - e.paid_paise), 0)::bigint::text AS outstanding_paise,
                coalesce(sum(e.amount_paise + e.penalty_paise - e.paid_paise) FILTER (WHERE e.due_date < $3::date), 0)::bigint::text AS overdue_paise,
                count(DISTINCT e.customer_id)::int AS customers
           FROM emi_instalments e JOIN customers c ON c.id = e.customer_id
          WHERE e.account_id = $1 AND ($2::int IS NULL OR c.retailer_id = $2) AND e.paid_paise < e.amount_paise + e.penalty_paise`,
        [accountId, retailerId, today],
      );
      const row = res.rows[0]!;
      return { outstanding_paise: Number(row.outstanding_paise), overdue_paise: Number(row.overdue_paise), customers: row.customers };
    },
  };
}
export type EmiRepository = ReturnType<typeof createEmiRepository>;
