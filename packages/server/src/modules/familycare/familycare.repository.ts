/** The family_rules and family_usage tables (decision 024). Only SQL here. */
import type { Queryable } from '../../db/database.ts';
import { PRODUCT_TYPE } from '@kisht/domain/constants';
import type { AppUsage, FamilyRules } from '@kisht/protocol/messages';
import { coveredUntil, TERM_DAYS } from '../../shared/plan-cover.ts';

/** The last day family care is in force (SQL over `c` and its rules row `f`): as renewed, or one term from enrolment. */
const COVERED_UNTIL = coveredUntil('f.covered_until');
/** The rules version the customer's phone (the one enrolled now, not a replaced one) says it keeps (SQL over `c`). */
const APPLIED_VERSION = `(SELECT max((dc.result ->> 'version')::int) FROM device_commands dc JOIN devices d ON d.id = dc.device_id AND d.active
                           WHERE dc.customer_id = c.id AND dc.type = 'family_rules' AND dc.state = 'done')`;

export interface FamilyOverview {
  version: number;
  rules: FamilyRules | null;
  updated_at: Date | null;
  applied_version: number | null;
  covered_until: string;
  renewal_days: number;
}

export function createFamilyCareRepository(db: Queryable) {
  return {
    async overview(customerId: number, q: Queryable = db): Promise<FamilyOverview> {
      return (await q.query<FamilyOverview>(
        `SELECT coalesce(f.version, 0) AS version, f.rules, CASE WHEN f.version > 0 THEN f.updated_at END AS updated_at, ${APPLIED_VERSION} AS applied_version,
                to_char(${COVERED_UNTIL}, 'YYYY-MM-DD') AS covered_until, ${TERM_DAYS} AS renewal_days
           FROM customers c LEFT JOIN family_rules f ON f.customer_id = c.id WHERE c.id = $1`,
        [customerId],
      )).rows[0]!;
    },

    /** Stores a new rule set under the next version, in the caller's transaction (the row is locked, so two saves make two versions). */
    async saveRules(customer: { id: number; account_id: number }, rules: FamilyRules, by: number, q: Queryable): Promise<number> {
      await q.query(
        'INSERT INTO family_rules (customer_id, account_id, updated_by) VALUES ($1, $2, $3) ON CONFLICT (customer_id) DO NOTHING',
        [customer.id, customer.account_id, by],
      );
      return (await q.query<{ version: number }>(
        `UPDATE family_rules SET version = version + 1, rules = $2, updated_by = $3, updated_at = now() WHERE customer_id = $1 RETURNING version`,
        [customer.id, JSON.stringify(rules), by],
      )).rows[0]!.version;
    },

    /** The rules to send a phone that has just enrolled, if any were set. */
    async currentRules(customerId: number, q: Queryable = db): Promise<{ version: number; rules: FamilyRules } | undefined> {
      return (await q.query<{ version: number; rules: FamilyRules }>('SELECT version, rules FROM family_rules WHERE customer_id = $1 AND version > 0', [customerId])).rows[0];
    },

    async renew(customer: { id: number; account_id: number }, today: string, by: number, q: Queryable): Promise<void> {
      await q.query('INSERT INTO family_rules (customer_id, account_id, updated_by) VALUES ($1, $2, $3) ON CONFLICT (customer_id) DO NOTHING', [customer.id, customer.account_id, by]);
      await q.query('SELECT 1 FROM family_rules WHERE customer_id = $1 FOR UPDATE', [customer.id]);
      await q.query(
        `UPDATE family_rules f SET covered_until = GREATEST(${COVERED_UNTIL}, $2::date - 1) + ${TERM_DAYS}
           FROM customers c WHERE c.id = f.customer_id AND f.customer_id = $1`,
        [customer.id, today],
      );
    },

    /**
     * Replaces a day's usage with the phone's latest report of it, in the transaction that took the report's number;
     * only a family-care customer's phone has usage to keep.
     */
    async replaceDay(customerId: number, day: string, apps: AppUsage[], q: Queryable): Promise<void> {
      const family = await q.query(`SELECT 1 FROM customers c JOIN products p ON p.id = c.product_id WHERE c.id = $1 AND p.product_type = ${PRODUCT_TYPE.FAMILYCARE}`, [customerId]);
      if (family.rows.length === 0) return;
      await q.query('DELETE FROM family_usage WHERE customer_id = $1 AND day = $2', [customerId, day]);
      if (apps.length === 0) return;
      await q.query(
        'INSERT INTO family_usage (customer_id, day, app, seconds) SELECT $1, $2, a, s FROM unnest($3::text[], $4::int[]) AS t(a, s)',
        [customerId, day, apps.map((a) => a.app), apps.map((a) => a.seconds)],
      );
    },

    async usage(customerId: number, from: string, to: string): Promise<Array<{ day: string; app: string; seconds: number }>> {
      return (await db.query<{ day: string; app: string; seconds: number }>(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, app, seconds FROM family_usage WHERE customer_id = $1 AND day BETWEEN $2 AND $3 ORDER BY day, seconds DESC, app`,
        [customerId, from, to],
      )).rows;
    },

    async lastUsageReport(customerId: number): Promise<Date | null> {
      return (await db.query<{ at: Date | null }>(
        'SELECT max(reported_at) AS at FROM family_usage WHERE customer_id = $1', [customerId],
      )).rows[0]?.at ?? null;
    },

    /** The family-care screen: the viewer's phones on family care, newest first (a mini-retailer: its own). */
    async list(accountId: number, retailerId: number | null, filter: { search?: { kind: 'imei' | 'mobile' | 'name'; value: string }; today: string; limit: number; offset: number }) {
      const params: unknown[] = [accountId, retailerId, filter.today, filter.limit, filter.offset];
      const where = ['c.account_id = $1', '($2::int IS NULL OR c.retailer_id = $2)', `p.product_type = ${PRODUCT_TYPE.FAMILYCARE}`];
      if (filter.search?.kind === 'imei') where.push(`(c.imei1 = $${params.push(filter.search.value)} OR c.imei2 = $${params.length})`);
      else if (filter.search?.kind === 'mobile') where.push(`(c.mobile = $${params.push(filter.search.value)} OR c.alt_mobile = $${params.length})`);
      else if (filter.search) where.push(`(lower(c.first_name || ' ' || c.last_name) LIKE $${params.push(filter.search.value)} || '%' OR lower(c.last_name) LIKE $${params.length} || '%')`);
      return (await db.query<{
        customer_id: number; first_name: string; last_name: string; mobile: string; imei1: string; device_brand: string | null; device_model: string | null;
        covered_until: string; in_cover: boolean; enrolled: boolean; version: number; applied_version: number | null; today_seconds: number; last_check_in_at: Date | null; total: string;
      }>(
        `SELECT c.id AS customer_id, c.first_name, c.last_name, c.mobile, c.imei1, c.device_brand, c.device_model,
                to_char(${COVERED_UNTIL}, 'YYYY-MM-DD') AS covered_until, ${COVERED_UNTIL} >= $3::date AS in_cover, d.id IS NOT NULL AS enrolled,
                coalesce(f.version, 0) AS version, ${APPLIED_VERSION} AS applied_version,
                coalesce((SELECT sum(u.seconds) FROM family_usage u WHERE u.customer_id = c.id AND u.day = $3::date), 0)::int AS today_seconds,
                d.last_check_in_at, count(*) OVER () AS total
           FROM customers c JOIN products p ON p.id = c.product_id
           LEFT JOIN family_rules f ON f.customer_id = c.id
           LEFT JOIN devices d ON d.customer_id = c.id AND d.active
          WHERE ${where.join(' AND ')}
          ORDER BY c.created_at DESC, c.id DESC LIMIT $4 OFFSET $5`,
        params,
      )).rows;
    },
  };
}
export type FamilyCareRepository = ReturnType<typeof createFamilyCareRepository>;
