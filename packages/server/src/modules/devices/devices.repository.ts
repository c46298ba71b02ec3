/** Enrolment tokens and enrolled devices. */
import type { Queryable } from '../../db/database.ts';

export interface CommandRow {
  id: string;
  device_id: string;
  customer_id: number;
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  state: string;
  result: Record<string, unknown> | null;
  created_at: Date;
  sent_at: Date | null;
  delivered_at: Date | null;
  finished_at: Date | null;
  expires_at: Date;
}

const COMMAND_COLUMNS = 'id, device_id, customer_id, seq, type, payload, state, result, created_at, sent_at, delivered_at, finished_at, expires_at';

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
    async activeDevice(customerId: number, q: Queryable = db) {
      return (await q.query<{ id: string; offline_secret: string }>('SELECT id, offline_secret FROM devices WHERE customer_id = $1 AND active', [customerId])).rows[0];
    },

    /** The command of this type still under way for the device (a double tap finds it), if any. */
    async pendingCommand(deviceId: string, type: string, q: Queryable) {
      return (await q.query<CommandRow>(
        `SELECT ${COMMAND_COLUMNS} FROM device_commands WHERE device_id = $1 AND type = $2 AND state IN ('queued', 'sent', 'delivered') AND expires_at > now()
          ORDER BY seq DESC LIMIT 1`,
        [deviceId, type],
      )).rows[0];
    },

    async createCommand(row: { id: string; device_id: string; customer_id: number; account_id: number; type: string; payload: object; created_by: number; ttl_minutes: number }, q: Queryable): Promise<CommandRow> {
      const seq = (await q.query<{ last_seq: number }>('UPDATE devices SET last_seq = last_seq + 1 WHERE id = $1 RETURNING last_seq', [row.device_id])).rows[0]!.last_seq;
      const res = await q.query<CommandRow>(
        `INSERT INTO device_commands (id, device_id, customer_id, account_id, seq, type, payload, created_by, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(mins => $9)) RETURNING ${COMMAND_COLUMNS}`,
        [row.id, row.device_id, row.customer_id, row.account_id, seq, row.type, JSON.stringify(row.payload), row.created_by, row.ttl_minutes],
      );
      return res.rows[0]!;
    },

    /** Moves a command forward only (queued -> sent -> delivered -> done | failed); a late or repeated report changes nothing. */
    async advance(deviceId: string, commandId: string, state: 'sent' | 'delivered' | 'done' | 'failed', result: unknown): Promise<CommandRow | undefined> {
      const order = "array_position(ARRAY['queued','sent','delivered','done','failed'], state)";
      const res = await db.query<CommandRow>(
        `UPDATE device_commands SET state = $3,
           sent_at = coalesce(sent_at, now()),
           delivered_at = CASE WHEN $3 IN ('delivered', 'done', 'failed') THEN coalesce(delivered_at, now()) ELSE delivered_at END,
           finished_at = CASE WHEN $3 IN ('done', 'failed') THEN now() ELSE finished_at END,
           result = coalesce($4::jsonb, result)
         WHERE id = $2 AND device_id = $1 AND ${order} < array_position(ARRAY['queued','sent','delivered','done','failed'], $3::text)
           AND state NOT IN ('done', 'failed', 'expired')
         RETURNING ${COMMAND_COLUMNS}`,
        [deviceId, commandId, state, result === undefined ? null : JSON.stringify(result)],
      );
      return res.rows[0];
    },

    async commands(customerId: number) {
      return (await db.query<CommandRow>(`SELECT ${COMMAND_COLUMNS} FROM device_commands WHERE customer_id = $1 ORDER BY created_at DESC, seq DESC LIMIT 50`, [customerId])).rows;
    },

    async setLockStatus(customerId: number, locked: boolean): Promise<void> {
      await db.query('UPDATE customers SET lock_status = $2, updated_at = now() WHERE id = $1', [customerId, locked ? 1 : 0]);
    },

    async markInstalled(customerId: number, q: Queryable): Promise<void> {
      await q.query('UPDATE customers SET install_status = 1, updated_at = now() WHERE id = $1 AND install_status IN (0, 2)', [customerId]);
    },
  };
}
export type DevicesRepository = ReturnType<typeof createDevicesRepository>;
