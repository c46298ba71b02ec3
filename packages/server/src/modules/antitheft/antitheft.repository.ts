/** The antitheft_settings table, and what a SIM change on an anti-theft phone needs to know (decision 022). */
import type { Queryable } from '../../db/database.ts';
import { PRODUCT_TYPE } from '@kisht/domain/constants';
import { coveredUntil, TERM_DAYS } from '../../shared/plan-cover.ts';

const ANTI_THEFT_TYPES = [PRODUCT_TYPE.ANTI_THEFT, PRODUCT_TYPE.DPC_ANTITHEFT];

/** The last day a customer's anti-theft is in force (SQL over `c` and its settings `s`): as renewed, or one term from the enrolment day in India. */
const COVERED_UNTIL = coveredUntil('s.covered_until');

/** The settings screen's row: the owner's choice (null where never saved), the cover, and the alert recipients. */
export interface AntitheftOverview {
  lost_mode_on_sim_change: boolean | null;
  message: string | null;
  contact_mobile: string | null;
  updated_at: Date | null;
  alt_mobile: string | null;
  retailer_mobile: string;
  /** YYYY-MM-DD, the last day in force. */
  covered_until: string;
  renewal_days: number;
}

/** A customer as a SIM change alert needs it. */
export interface SimAlertTarget {
  product_type: number;
  alt_mobile: string | null;
  language: string | null;
  device_brand: string | null;
  device_model: string | null;
  imei1: string;
  retailer_mobile: string;
  /** YYYY-MM-DD, the last day anti-theft is in force. */
  covered_until: string;
  lost_mode_on_sim_change: boolean | null;
  message: string | null;
  contact_mobile: string | null;
}

export function createAntitheftRepository(db: Queryable) {
  return {
    async save(row: { customer_id: number; account_id: number; lost_mode_on_sim_change: boolean; message: string | null; contact_mobile: string | null; updated_by: number }, q: Queryable = db): Promise<void> {
      await q.query(
        `INSERT INTO antitheft_settings (customer_id, account_id, lost_mode_on_sim_change, message, contact_mobile, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (customer_id) DO UPDATE SET lost_mode_on_sim_change = EXCLUDED.lost_mode_on_sim_change, message = EXCLUDED.message,
           contact_mobile = EXCLUDED.contact_mobile, updated_by = EXCLUDED.updated_by, updated_at = now()`,
        [row.customer_id, row.account_id, row.lost_mode_on_sim_change, row.message, row.contact_mobile, row.updated_by],
      );
    },

    /** The customer, its product, its retailer's mobile and the owner's choice, in the SIM change's transaction. */
    async simAlertTarget(customerId: number, q: Queryable): Promise<SimAlertTarget> {
      return (await q.query<SimAlertTarget>(
        `SELECT p.product_type, c.alt_mobile, c.language, c.device_brand, c.device_model, c.imei1, r.mobile AS retailer_mobile,
                to_char(${COVERED_UNTIL}, 'YYYY-MM-DD') AS covered_until, s.lost_mode_on_sim_change, s.message, s.contact_mobile
           FROM customers c JOIN products p ON p.id = c.product_id JOIN users r ON r.id = c.retailer_id
           LEFT JOIN antitheft_settings s ON s.customer_id = c.id
          WHERE c.id = $1`,
        [customerId],
      )).rows[0]!;
    },

    /** The viewer's phones sold with anti-theft, newest first (a mini-retailer: its own sales). */
    async list(accountId: number, retailerId: number | null, filter: { search?: { kind: 'imei' | 'mobile' | 'name'; value: string }; state: 'all' | 'lost' | 'ended'; today: string; limit: number; offset: number }) {
      const params: unknown[] = [accountId, retailerId, filter.today, filter.limit, filter.offset];
      const where = ['c.account_id = $1', '($2::int IS NULL OR c.retailer_id = $2)', `p.product_type IN (${ANTI_THEFT_TYPES.join(', ')})`];
      const lost = `(coalesce((d.reported -> 'toggles' ->> 'antitheft_lost_mode')::boolean, false) OR coalesce((d.reported -> 'toggles' ->> 'lost_mode')::boolean, false))`;
      if (filter.state === 'lost') where.push(lost);
      if (filter.state === 'ended') where.push(`${COVERED_UNTIL} < $3::date`);
      if (filter.search?.kind === 'imei') where.push(`(c.imei1 = $${params.push(filter.search.value)} OR c.imei2 = $${params.length})`);
      else if (filter.search?.kind === 'mobile') where.push(`(c.mobile = $${params.push(filter.search.value)} OR c.alt_mobile = $${params.length})`);
      else if (filter.search) where.push(`(lower(c.first_name || ' ' || c.last_name) LIKE $${params.push(filter.search.value)} || '%' OR lower(c.last_name) LIKE $${params.length} || '%')`);
      return (await db.query<{
        customer_id: number; first_name: string; last_name: string; mobile: string; imei1: string; device_brand: string | null; device_model: string | null;
        covered_until: string; in_cover: boolean; lost_mode: boolean; enrolled: boolean; last_check_in_at: Date | null; last_sim_change_at: Date | null; total: string;
      }>(
        `SELECT c.id AS customer_id, c.first_name, c.last_name, c.mobile, c.imei1, c.device_brand, c.device_model,
                to_char(${COVERED_UNTIL}, 'YYYY-MM-DD') AS covered_until, ${COVERED_UNTIL} >= $3::date AS in_cover,
                d.id IS NOT NULL AND ${lost} AS lost_mode, d.id IS NOT NULL AS enrolled, d.last_check_in_at,
                (SELECT max(changed_at) FROM sim_changes sc WHERE sc.customer_id = c.id) AS last_sim_change_at, count(*) OVER () AS total
           FROM customers c JOIN products p ON p.id = c.product_id
           LEFT JOIN antitheft_settings s ON s.customer_id = c.id
           LEFT JOIN devices d ON d.customer_id = c.id AND d.active
          WHERE ${where.join(' AND ')}
          ORDER BY c.created_at DESC, c.id DESC LIMIT $4 OFFSET $5`,
        params,
      )).rows;
    },

    /** What the settings screen shows: the owner's choice, the cover, and who alerts go to, in one read. */
    async overview(customerId: number, q: Queryable = db): Promise<AntitheftOverview> {
      return (await q.query<AntitheftOverview>(
        `SELECT s.lost_mode_on_sim_change, s.message, s.contact_mobile, s.updated_at, c.alt_mobile, r.mobile AS retailer_mobile,
                to_char(${COVERED_UNTIL}, 'YYYY-MM-DD') AS covered_until, ${TERM_DAYS} AS renewal_days
           FROM customers c JOIN users r ON r.id = c.retailer_id LEFT JOIN antitheft_settings s ON s.customer_id = c.id
          WHERE c.id = $1`,
        [customerId],
      )).rows[0]!;
    },

    /**
     * Renews in the caller's transaction: the cover runs on from its last day, or from today when it has ended.
     * The settings row is locked first, so two renewals at once add up instead of one overwriting the other.
     */
    async renew(customer: { id: number; account_id: number }, today: string, renewedBy: number, q: Queryable): Promise<string> {
      await q.query(
        `INSERT INTO antitheft_settings (customer_id, account_id, updated_by) VALUES ($1, $2, $3) ON CONFLICT (customer_id) DO NOTHING`,
        [customer.id, customer.account_id, renewedBy],
      );
      await q.query('SELECT 1 FROM antitheft_settings WHERE customer_id = $1 FOR UPDATE', [customer.id]);
      return (await q.query<{ covered_until: string }>(
        `UPDATE antitheft_settings s SET covered_until = GREATEST(${COVERED_UNTIL}, $2::date - 1) + ${TERM_DAYS}, updated_by = $3, updated_at = now()
           FROM customers c WHERE c.id = s.customer_id AND s.customer_id = $1
         RETURNING to_char(s.covered_until, 'YYYY-MM-DD') AS covered_until`,
        [customer.id, today, renewedBy],
      )).rows[0]!.covered_until;
    },
  };
}
export type AntitheftRepository = ReturnType<typeof createAntitheftRepository>;
