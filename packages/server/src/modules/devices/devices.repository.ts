/** Enrolment tokens and enrolled devices. */
import type { Queryable } from '../../db/database.ts';

export function createDevicesRepository(db: Queryable) {
  return {
    async createToken(row: { token_hash: string; customer_id: number; account_id: number; created_by: number; ttl_hours: number }): Promise<Date> {
      const res = await db.query<{ expires_at: Date }>(
        `INSERT INTO enrolment_tokens (token_hash, customer_id, account_id, created_by, expires_at)
         VALUES ($1, $2, $3, $4, now() + make_interval(hours => $5)) RETURNING expires_at`,
        [row.token_hash, row.customer_id, row.account_id, row.created_by, row.ttl_hours],
      );
      return res.rows[0]!.expires_at;
    },
    /** The token if it is unused and unexpired, locked for the enrolment transaction. */
    async takeToken(tokenHash: string, q: Queryable) {
      const res = await q.query<{ customer_id: number; account_id: number }>(
        `SELECT customer_id, account_id FROM enrolment_tokens WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() FOR UPDATE`,
        [tokenHash],
      );
      const row = res.rows[0];
      if (row) await q.query('UPDATE enrolment_tokens SET used_at = now() WHERE token_hash = $1', [tokenHash]);
      return row;
    },
    async create(device: { id: string; customer_id: number; org_id: number; account_id: number; mqtt_password_hash: string; offline_secret: string; imei1: string; imei2: string | null; serial_number: string | null; sims: unknown[] }, q: Queryable): Promise<void> {
      // A phone enrolled again replaces the earlier one: its credentials stop working.
      await q.query('UPDATE devices SET active = false WHERE customer_id = $1 AND active', [device.customer_id]);
      await q.query(
        `INSERT INTO devices (id, customer_id, org_id, account_id, mqtt_password_hash, offline_secret, imei1, imei2, serial_number, sims)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [device.id, device.customer_id, device.org_id, device.account_id, device.mqtt_password_hash, device.offline_secret, device.imei1, device.imei2, device.serial_number, JSON.stringify(device.sims)],
      );
    },
    async passwordHash(deviceId: string): Promise<string | null> {
      const res = await db.query<{ mqtt_password_hash: string }>('SELECT mqtt_password_hash FROM devices WHERE id = $1 AND active', [deviceId]);
      return res.rows[0]?.mqtt_password_hash ?? null;
    },
    async markInstalled(customerId: number, q: Queryable): Promise<void> {
      await q.query('UPDATE customers SET install_status = 1, updated_at = now() WHERE id = $1 AND install_status IN (0, 2)', [customerId]);
    },
  };
}
export type DevicesRepository = ReturnType<typeof createDevicesRepository>;
