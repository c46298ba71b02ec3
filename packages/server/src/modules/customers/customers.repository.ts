/** Customers and their IMEIs. Every read takes the caller's account id: another network's rows do not exist. */
import type { Queryable } from '../../db/database.ts';
import type { Instalment } from '@kisht/domain/emi';
import type { CustomerListItem, CustomerListQuery } from '@kisht/contract/customers';
import { installStatusOf } from '@kisht/domain/customer-status';

export interface NewCustomer {
  org_id: number;
  account_id: number;
  retailer_id: number;
  first_name: string;
  last_name: string;
  mobile: string;
  alt_mobile: string | null;
  email: string | null;
  address: string | null;
  state_id: number | null;
  city_id: number | null;
  pincode: string | null;
  date_of_birth: string | null;
  id_type: string | null;
  id_number: string | null;
  device_brand: string;
  device_model: string;
  imei1: string;
  imei2: string | null;
  serial_number: string | null;
  provisioning_type: number;
  product_id: number;
  plan_id: number | null;
  financier_id: number | null;
  financier_reference: Record<string, string>;
  /** The loan: all set, or all null for a phone on a plan alone (anti-theft, family care; decision 023). */
  price_paise: number | null;
  down_payment_paise: number | null;
  processing_fee_paise: number;
  annual_rate_bps: number | null;
  interest_method: string | null;
  tenure_months: number | null;
  advance_emis: number;
  start_date: string | null;
  first_due_date: string | null;
  emi_paise: number | null;
  /** The loan product chosen at enrolment, and the copy of its settings, exact rate and KFS the loan keeps (decision 027). */
  loan_product_id?: number | null;
  loan_terms?: unknown;
}

export interface CustomerRow extends NewCustomer {
  id: number;
  product_type: number;
  photo_path: string | null;
  signature_path: string | null;
  witness_signature_path: string | null;
  invoice_path: string | null;
  install_status: number;
  lock_status: number;
  allowed_actions: string[] | null;
  /** The customer's language (a Language code) for what the phone shows and is sent; null: not set. */
  language: string | null;
  created_at: Date;
}

const NEW_COLUMNS = [
  'org_id', 'account_id', 'retailer_id', 'first_name', 'last_name', 'mobile', 'alt_mobile', 'email', 'address', 'state_id',
  'city_id', 'pincode', 'date_of_birth', 'id_type', 'id_number', 'device_brand', 'device_model', 'imei1', 'imei2',
  'serial_number', 'provisioning_type', 'product_id', 'plan_id', 'financier_id', 'financier_reference', 'price_paise',
  'down_payment_paise', 'processing_fee_paise', 'annual_rate_bps', 'interest_method', 'tenure_months', 'advance_emis',
  'start_date', 'first_due_date', 'emi_paise', 'loan_product_id', 'loan_terms',
] as const satisfies readonly (keyof NewCustomer)[];

const PROFILE_COLUMNS = `c.id, c.org_id, c.account_id, c.retailer_id, c.first_name, c.last_name, c.mobile, c.alt_mobile, c.email, c.address,
  c.state_id, c.city_id, c.pincode, to_char(c.date_of_birth, 'YYYY-MM-DD') AS date_of_birth, c.id_type, c.id_number,
  c.photo_path, c.signature_path, c.witness_signature_path, c.invoice_path, c.device_brand, c.device_model, c.imei1, c.imei2,
  c.serial_number, c.provisioning_type, c.product_id, p.product_type, c.plan_id, c.financier_id, c.financier_reference,
  c.price_paise, c.down_payment_paise, c.processing_fee_paise, c.annual_rate_bps, c.interest_method, c.tenure_months,
  c.advance_emis, to_char(c.start_date, 'YYYY-MM-DD') AS start_date, to_char(c.first_due_date, 'YYYY-MM-DD') AS first_due_date,
  c.emi_paise, c.install_status, c.lock_status, c.allowed_actions, c.language, c.created_at, c.loan_product_id, c.loan_terms`;

const EDITABLE_COLUMNS = [
  'first_name', 'last_name', 'mobile', 'alt_mobile', 'email', 'address', 'state_id', 'city_id', 'pincode', 'date_of_birth',
  'id_type', 'id_number', 'imei1', 'imei2', 'serial_number', 'device_brand', 'device_model',
] as const;
type EditableColumn = (typeof EDITABLE_COLUMNS)[number];

/** Who is asking, as far as seeing customers goes. */
export interface Viewer {
  accountId: number;
  userId: number;
  userType: 'retailer' | 'miniretailer';
}

/**
 * The one rule for which customers a caller sees (profile reads, bulk commands): a customer of the caller's
 * account; a mini-retailer only the customers it enrolled, not its parent's or a sibling's. $1 and $2 are
 * viewerParams; another network's customers, and the parent's for a mini-retailer, do not exist.
 */
const VISIBLE_TO_VIEWER = 'c.account_id = $1 AND ($2::int IS NULL OR c.retailer_id = $2)';
/**
 * The one visibility rule: a retailer sees every customer of its account (its mini-retailers' too); a
 * mini-retailer only the customers it sold (retailer_id). The retailer whose customers a viewer is limited
 * to, or null for the whole account.
 */
export const ownRetailerOf = (viewer: Viewer): number | null => (viewer.userType === 'miniretailer' ? viewer.userId : null);
const viewerParams = (viewer: Viewer): [number, number | null] => [viewer.accountId, ownRetailerOf(viewer)];

/** A search of 15 digits is an IMEI, of 10 digits (or +91 and 10) a mobile number, anything else the start of a name. */
export function classifySearch(search: string): { kind: 'imei' | 'mobile' | 'name'; value: string } {
  const trimmed = search.trim();
  const digits = trimmed.replace(/[\s-]/g, '');
  if (/^\d{15}$/.test(digits)) return { kind: 'imei', value: digits };
  if (/^(\+91)?[6-9]\d{9}$/.test(digits)) return { kind: 'mobile', value: `+91${digits.slice(-10)}` };
  // LIKE wildcards in a name are taken literally.
  return { kind: 'name', value: trimmed.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`) };
}

/** With a search or dates, the list counts this many matches at most (then total_capped). */
export const LIST_COUNT_CAP = 1000;

/** The list's filters without its paging (a bulk lock by filter picks what the list would show). */
export type CustomerListFilter = Omit<CustomerListQuery, 'page' | 'limit'>;

/**
 * The list's WHERE clause for the customers table (alias c) and, where every filter has a column in the
 * summaries (alias s), for them too; `summarised` says whether the summaries can count the matches. The
 * list and the bulk lock's filter share it, so both select the same customers.
 */
function listFilter(accountId: number, query: CustomerListFilter): { whereSql: string; summaryWhereSql: string; params: unknown[]; summarised: boolean } {
  const where = ['c.account_id = $1'];
  const summaryWhere = ['s.account_id = $1'];
  const params: unknown[] = [accountId];
  let summarised = true;
  /** A filter of the page; `summaryColumn` names the summaries' column that answers it, if any. */
  const add = (sql: string, value: unknown, summaryColumn?: string) => {
    params.push(value);
    const n = `$${params.length}`;
    where.push(sql.replaceAll('?', n));
    if (summaryColumn) summaryWhere.push(`s.${summaryColumn} = ${n}`);
    else summarised = false;
  };
  if (query.status !== 'all') add('c.install_status = ?', installStatusOf(query.status), 'install_status');
  if (query.lock_status !== undefined) add('c.lock_status = ?', query.lock_status, 'lock_status');
  if (query.retailer_id !== undefined) add('c.retailer_id = ?', query.retailer_id, 'retailer_id');
  // Dates are India dates: a day runs from 00:00 to 24:00 at UTC+05:30.
  if (query.from) add(`c.created_at >= (?::date::timestamp AT TIME ZONE 'Asia/Kolkata')`, query.from);
  if (query.to) add(`c.created_at < ((?::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata')`, query.to);
  if (query.search) {
    const s = classifySearch(query.search);
    if (s.kind === 'imei') add('(c.imei1 = ? OR c.imei2 = ?)', s.value);
    else if (s.kind === 'mobile') add('(c.mobile = ? OR c.alt_mobile = ?)', s.value);
    else add(`(lower(c.first_name || ' ' || c.last_name) LIKE ? || '%' OR lower(c.last_name) LIKE ? || '%')`, s.value);
  }
  return { whereSql: where.join(' AND '), summaryWhereSql: summaryWhere.join(' AND '), params, summarised };
}

export function createCustomersRepository(db: Queryable) {
  /** The full rows of the viewer's customers among these ids (the rule of visibleTo). */
  async function manyVisibleTo(viewer: Viewer, ids: readonly number[], q: Queryable = db): Promise<CustomerRow[]> {
    const res = await q.query<CustomerRow>(
      `SELECT ${PROFILE_COLUMNS} FROM customers c JOIN products p ON p.id = c.product_id WHERE ${VISIBLE_TO_VIEWER} AND c.id = ANY($3::int[])`,
      [...viewerParams(viewer), ids],
    );
    return res.rows;
  }

  return {
    async insert(row: NewCustomer, q: Queryable): Promise<number> {
      const values = NEW_COLUMNS.map((c) => (c === 'financier_reference' || c === 'loan_terms' ? (row[c] === undefined || row[c] === null ? (c === 'loan_terms' ? null : '{}') : JSON.stringify(row[c])) : (row[c] ?? null)));
      const res = await q.query<{ id: number }>(
        `INSERT INTO customers (${NEW_COLUMNS.join(', ')}) VALUES (${NEW_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
        values,
      );
      return res.rows[0]!.id;
    },

    /** Claims the IMEIs for an active loan; a unique violation (23505) means one is already taken. */
    async claimImeis(customerId: number, imeis: string[], q: Queryable): Promise<void> {
      await q.query('INSERT INTO customer_imeis (imei, customer_id) SELECT unnest($1::text[]), $2', [imeis, customerId]);
    },

    async insertSchedule(customerId: number, accountId: number, instalments: Array<Instalment & { taxPaise?: number }>, q: Queryable): Promise<Array<{ id: number; number: number }>> {
      const res = await q.query<{ id: number; number: number }>(
        `INSERT INTO emi_instalments (customer_id, account_id, number, due_date, principal_paise, interest_paise, tax_paise, amount_paise, advance)
         SELECT $1, $2, n, d, pr, it, tx, am, adv
           FROM unnest($3::int[], $4::date[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::boolean[]) AS t(n, d, pr, it, tx, am, adv)
         RETURNING id, number`,
        [
          customerId, accountId,
          instalments.map((i) => i.number), instalments.map((i) => i.dueDate), instalments.map((i) => i.principalPaise),
          instalments.map((i) => i.interestPaise), instalments.map((i) => i.taxPaise ?? 0), instalments.map((i) => i.amountPaise), instalments.map((i) => i.advance),
        ],
      );
      return res.rows;
    },

    async findInAccount(accountId: number, id: number, q: Queryable = db): Promise<CustomerRow | undefined> {
      const res = await q.query<CustomerRow>(
        `SELECT ${PROFILE_COLUMNS} FROM customers c JOIN products p ON p.id = c.product_id WHERE c.account_id = $1 AND c.id = $2`,
        [accountId, id],
      );
      return res.rows[0];
    },

    /** Several customers of the account at once (bulk device commands). */
    async manyInAccount(accountId: number, ids: number[], q: Queryable = db): Promise<CustomerRow[]> {
      const res = await q.query<CustomerRow>(
        `SELECT ${PROFILE_COLUMNS} FROM customers c JOIN products p ON p.id = c.product_id WHERE c.account_id = $1 AND c.id = ANY($2::int[])`,
        [accountId, ids],
      );
      return res.rows;
    },

    /**
     * Which of these customers the viewer may see, with their names, in one query. Callers that act on a set
     * compare the count with the set's and refuse the whole request when one is missing.
     */
    async visibleTo(viewer: Viewer, ids: readonly number[], q: Queryable = db): Promise<Array<{ id: number; first_name: string; last_name: string }>> {
      const res = await q.query<{ id: number; first_name: string; last_name: string }>(
        `SELECT c.id, c.first_name, c.last_name FROM customers c WHERE ${VISIBLE_TO_VIEWER} AND c.id = ANY($3::int[])`,
        [...viewerParams(viewer), ids],
      );
      return res.rows;
    },

    manyVisibleTo,

    /** One customer the viewer may see, or undefined (the profile rule, for single-id reads). */
    async findVisibleTo(viewer: Viewer, id: number, q: Queryable = db): Promise<CustomerRow | undefined> {
      return (await manyVisibleTo(viewer, [id], q))[0];
    },

    /** Writes the given columns of a customer of the account; only the editable columns are accepted. */
    async update(accountId: number, id: number, changes: Partial<Record<EditableColumn, unknown>>, q: Queryable = db): Promise<void> {
      const columns = Object.keys(changes) as EditableColumn[];
      const unknown = columns.filter((c) => !(EDITABLE_COLUMNS as readonly string[]).includes(c));
      if (unknown.length > 0) throw new Error(`not editable: ${unknown.join(', ')}`);
      if (columns.length === 0) return;
      await q.query(
        `UPDATE customers SET ${columns.map((c, i) => `${c} = $${i + 3}`).join(', ')}, updated_at = now() WHERE account_id = $1 AND id = $2`,
        [accountId, id, ...columns.map((c) => changes[c])],
      );
    },

    /** Moves the active IMEI claims of a customer to a new set (unique violation: one is taken). */
    async reclaimImeis(customerId: number, imeis: string[], q: Queryable): Promise<void> {
      await q.query('DELETE FROM customer_imeis WHERE customer_id = $1 AND active', [customerId]);
      await q.query('INSERT INTO customer_imeis (imei, customer_id) SELECT unnest($1::text[]), $2', [imeis, customerId]);
    },

    /** Locks the customer's row for the rest of the transaction (money changes on one loan queue up). */
    async lock(id: number, q: Queryable): Promise<void> {
      await q.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [id]);
    },

    /**
     * A completed loan (5) that owes money again (a reversal, a penalty, a new instalment) goes back to the
     * status it had and claims its IMEIs again; a unique violation means another active loan took one.
     */
    async reopenIfCompleted(id: number, q: Queryable): Promise<boolean> {
      const res = await q.query<{ imei1: string; imei2: string | null }>(
        `UPDATE customers c SET install_status = coalesce(c.completed_from, 1), completed_from = NULL, updated_at = now()
          WHERE c.id = $1 AND c.install_status = 5
            AND EXISTS (SELECT 1 FROM emi_instalments e WHERE e.customer_id = c.id AND e.paid_paise < e.amount_paise + e.penalty_paise)
          RETURNING c.imei1, c.imei2`,
        [id],
      );
      const row = res.rows[0];
      if (!row) return false;
      await q.query('INSERT INTO customer_imeis (imei, customer_id) SELECT unnest($1::text[]), $2', [[row.imei1, ...(row.imei2 ? [row.imei2] : [])], id]);
      return true;
    },

    /** Points a document column at a new file and returns the file it pointed at before. */
    /**
     * Removes an enrolment that never started: no phone ever enrolled (no device, no Apple link), no payment,
     * no penalty. The row is locked first; false (nothing removed) when any of that is no longer true. Its
     * schedule, IMEI claims, tokens, alerts and events go with it; the ledgers stay append-only and untouched.
     */
    async removeUnstarted(accountId: number, id: number, q: Queryable): Promise<'gone' | 'started' | { files: string[] }> {
      // Locks in the order the other writers take them (a phone enrolling locks its token, then the customer; a
      // payment and the dues run the customer, then its instalments), so a cancel racing them waits instead of deadlocking.
      await q.query('SELECT token_hash FROM enrolment_tokens WHERE customer_id = $1 FOR UPDATE', [id]);
      const row = (await q.query<CustomerRow>('SELECT * FROM customers WHERE id = $1 AND account_id = $2 FOR UPDATE', [id, accountId])).rows[0];
      if (!row) return 'gone';
      await q.query('SELECT id FROM emi_instalments WHERE customer_id = $1 ORDER BY id FOR UPDATE', [id]);
      if (row.install_status !== 0) return 'started';
      const used = await q.query<{ used: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM devices WHERE customer_id = $1) OR EXISTS (SELECT 1 FROM apple_devices WHERE customer_id = $1)
             OR EXISTS (SELECT 1 FROM payments WHERE customer_id = $1) OR EXISTS (SELECT 1 FROM penalty_charges WHERE customer_id = $1) AS used`,
        [id],
      );
      if (used.rows[0]!.used) return 'started';
      for (const table of ['customer_events', 'emi_alerts', 'enrolment_tokens', 'device_commands', 'device_offline_log', 'sim_changes', 'antitheft_settings', 'family_rules', 'family_usage', 'notifications', 'device_schedules', 'ad_targets', 'instalment_changes', 'emi_instalments', 'customer_imeis']) {
        await q.query(`DELETE FROM ${table} WHERE customer_id = $1`, [id]);
      }
      await q.query('DELETE FROM customers WHERE id = $1', [id]);
      return { files: [row.photo_path, row.signature_path, row.witness_signature_path, row.invoice_path].filter((f): f is string => f !== null) };
    },

    async setDocument(accountId: number, id: number, column: 'photo_path' | 'signature_path' | 'witness_signature_path' | 'invoice_path', relative: string): Promise<string | null> {
      const res = await db.query<{ previous: string | null }>(
        `UPDATE customers c SET ${column} = $3, updated_at = now() FROM (SELECT ${column} AS previous FROM customers WHERE id = $2 AND account_id = $1 FOR UPDATE) old
          WHERE c.id = $2 AND c.account_id = $1 RETURNING old.previous`,
        [accountId, id, relative],
      );
      return res.rows[0]?.previous ?? null;
    },

    /**
     * A page of the list, newest first, with its total, in one statement. The total is exact and costs a few
     * rows when only status, lock and retailer filter: it is read from the summaries the customers' triggers
     * keep (migration 023). With a search or dates it is counted, up to LIST_COUNT_CAP matches and no further
     * (total_capped), since a short search like "a" may match most of a big network; a first page that is
     * not full is its own count.
     */
    async list(accountId: number, query: CustomerListQuery): Promise<{ items: CustomerListItem[]; total: number; total_capped: boolean }> {
      const { whereSql, summaryWhereSql, params, summarised } = listFilter(accountId, query);
      const offset = (query.page - 1) * query.limit;
      const limitParam = `$${params.length + 1}::int`;
      const pageSql = `SELECT c.id, c.first_name, c.last_name, c.mobile, c.imei1, c.device_brand, c.device_model, c.install_status, c.lock_status,
                  c.provisioning_type, c.emi_paise, c.retailer_id, c.created_at,
                  to_char(due.next_due, 'YYYY-MM-DD') AS next_due_date, coalesce(due.overdue, 0)::bigint::text AS overdue_paise
             FROM customers c
             LEFT JOIN LATERAL (
               SELECT min(e.due_date) AS next_due,
                      sum(e.amount_paise + e.penalty_paise - e.paid_paise) FILTER (WHERE e.due_date < (now() AT TIME ZONE 'Asia/Kolkata')::date) AS overdue
                 FROM emi_instalments e WHERE e.customer_id = c.id AND e.paid_paise < e.amount_paise + e.penalty_paise
             ) due ON true
            WHERE ${whereSql}
            ORDER BY c.created_at DESC, c.id DESC
            LIMIT ${limitParam} OFFSET $${params.length + 2}::bigint`;
      type PageRow = CustomerListItem & { created_at: Date };
      const itemOf = (r: PageRow): CustomerListItem => ({ ...r, overdue_paise: Number(r.overdue_paise), created_at: r.created_at.toISOString() });
      const cappedCountSql = `SELECT count(*)::int AS n FROM (SELECT 1 FROM customers c WHERE ${whereSql} LIMIT ${LIST_COUNT_CAP + 1}) AS matching`;
      const finish = (items: CustomerListItem[], counted: number) =>
        summarised || counted <= LIST_COUNT_CAP ? { items, total: counted, total_capped: false } : { items, total: Math.max(LIST_COUNT_CAP, offset + items.length), total_capped: true };

      // An IMEI or mobile search's first page runs alone: it is nearly never full, so it holds every match and
      // is its own count; the capped count runs after it only when it is full. (A name search's first page is
      // often full, so it keeps the one statement below.)
      const exactSearch = query.search !== undefined && query.search !== '' && classifySearch(query.search).kind !== 'name';
      if (exactSearch && offset === 0) {
        const page = await db.query<PageRow>(pageSql, [...params, query.limit, 0]);
        const items = page.rows.map(itemOf);
        if (items.length < query.limit) return finish(items, items.length);
        return finish(items, (await db.query<{ n: number }>(cappedCountSql, params)).rows[0]!.n);
      }
      // Otherwise the page and its total come in one statement: the total from the summaries the customers'
      // triggers keep, or counted. The total's row is joined to the page, so an empty page still brings it.
      // A first page that is not full is its own count: PostgreSQL evaluates a CASE branch's subquery only when
      // the branch is taken, so the capped count is not run then.
      const totalSql = summarised
        ? `SELECT coalesce(sum(s.customers), 0)::int AS n FROM customer_summaries s WHERE ${summaryWhereSql}`
        : `SELECT CASE WHEN ${offset === 0 ? 'true' : 'false'} AND (SELECT count(*) FROM page) < ${limitParam}
                       THEN (SELECT count(*)::int FROM page) ELSE (${cappedCountSql}) END AS n`;
      const res = await db.query<{ total: number } & (PageRow | { id: null })>(
        `WITH page AS (${pageSql})
         SELECT total.n AS total, page.* FROM (${totalSql}) AS total LEFT JOIN page ON true
          ORDER BY page.created_at DESC, page.id DESC`,
        [...params, query.limit, offset],
      );
      const items = res.rows.flatMap(({ total: _total, ...r }) => (r.id === null ? [] : [itemOf(r as PageRow)]));
      return finish(items, res.rows[0]!.total);
    },

    /**
     * The ids the list would show under this filter, newest first as the list orders them, at most `cap` of
     * them, in one statement (a bulk lock by filter takes every match, not a page).
     */
    async listIds(accountId: number, query: CustomerListFilter, cap: number, q: Queryable = db): Promise<number[]> {
      const { whereSql, params } = listFilter(accountId, query);
      const res = await q.query<{ id: number }>(
        `SELECT c.id FROM customers c WHERE ${whereSql} ORDER BY c.created_at DESC, c.id DESC LIMIT $${params.length + 1}::int`,
        [...params, cap],
      );
      return res.rows.map((r) => r.id);
    },
  };
}
export type CustomersRepository = ReturnType<typeof createCustomersRepository>;
