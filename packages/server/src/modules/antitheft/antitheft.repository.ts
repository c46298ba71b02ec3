/** The antitheft_settings table, and what a SIM change on an anti-theft phone needs to know (decision 022). */
import type { Queryable } from '../../db/database.ts';

export interface AntitheftSettingsRow {
  customer_id: number;
  lost_mode_on_sim_change: boolean;
  message: string | null;
  contact_mobile: string | null;
  updated_at: Date;
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
  lost_mode_on_sim_change: boolean | null;
  message: string | null;
  contact_mobile: string | null;
}

export function createAntitheftRepository(db: Queryable) {
  return {
    async settings(customerId: number, q: Queryable = db): Promise<AntitheftSettingsRow | null> {
      return (await q.query<AntitheftSettingsRow>(
        'SELECT customer_id, lost_mode_on_sim_change, message, contact_mobile, updated_at FROM antitheft_settings WHERE customer_id = $1',
        [customerId],
      )).rows[0] ?? null;
    },

    async save(row: { customer_id: number; account_id: number; lost_mode_on_sim_change: boolean; message: string | null; contact_mobile: string | null; updated_by: number }, q: Queryable = db): Promise<AntitheftSettingsRow> {
      return (await q.query<AntitheftSettingsRow>(
        `INSERT INTO antitheft_settings (customer_id, account_id, lost_mode_on_sim_change, message, contact_mobile, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (customer_id) DO UPDATE SET lost_mode_on_sim_change = EXCLUDED.lost_mode_on_sim_change, message = EXCLUDED.message,
           contact_mobile = EXCLUDED.contact_mobile, updated_by = EXCLUDED.updated_by, updated_at = now()
         RETURNING customer_id, lost_mode_on_sim_change, message, contact_mobile, updated_at`,
        [row.customer_id, row.account_id, row.lost_mode_on_sim_change, row.message, row.contact_mobile, row.updated_by],
      )).rows[0]!;
    },

    /** The customer, its product, its retailer's mobile and the owner's choice, in the SIM change's transaction. */
    async simAlertTarget(customerId: number, q: Queryable): Promise<SimAlertTarget> {
      return (await q.query<SimAlertTarget>(
        `SELECT p.product_type, c.alt_mobile, c.language, c.device_brand, c.device_model, c.imei1, r.mobile AS retailer_mobile,
                s.lost_mode_on_sim_change, s.message, s.contact_mobile
           FROM customers c JOIN products p ON p.id = c.product_id JOIN users r ON r.id = c.retailer_id
           LEFT JOIN antitheft_settings s ON s.customer_id = c.id
          WHERE c.id = $1`,
        [customerId],
      )).rows[0]!;
    },
  };
}
export type AntitheftRepository = ReturnType<typeof createAntitheftRepository>;
