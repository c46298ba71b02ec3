/** Apple MDM enrolments, our own MDM commands, and the devices Apple Business Manager assigns to us. */
import type { Queryable } from '../../db/database.ts';
import type { CommandRow } from '../../modules/devices/devices.repository.ts';
import type { DepDevice } from './dep-client.ts';

export interface EnrolmentRow {
  device_id: string;
  key_hash: string;
  udid: string | null;
  serial_number: string | null;
  topic: string | null;
  push_token: string | null;
  push_magic: string | null;
  unlock_token: string | null;
  bypass_code: string | null;
  model: string | null;
  os_version: string | null;
  authenticated_at: Date | null;
  token_updated_at: Date | null;
  last_seen_at: Date | null;
  last_status: string | null;
  checked_out_at: Date | null;
  created_at: Date;
}

export interface AppleDeviceRow {
  serial_number: string;
  model: string | null;
  description: string | null;
  color: string | null;
  asset_tag: string | null;
  os: string | null;
  device_family: string | null;
  profile_status: string | null;
  profile_uuid: string | null;
  op_type: string | null;
  op_date: Date | null;
  device_assigned_date: Date | null;
  account_id: number | null;
  customer_id: number | null;
  linked_at: Date | null;
  synced_at: Date;
}

export interface InternalCommandRow { id: string; device_id: string; request_type: string; body: string; state: string; created_at: Date }

const APPLE_DEVICE_COLUMNS = `serial_number, model, description, color, asset_tag, os, device_family, profile_status, profile_uuid, op_type, op_date,
  device_assigned_date, account_id, customer_id, linked_at, synced_at`;
const COMMAND_COLUMNS = `id, device_id, customer_id, account_id, seq, type, payload, state, result, origin, batch_id, created_at, sent_at,
  delivered_at, finished_at, expires_at`;
const date = (s: string | undefined) => (s && !Number.isNaN(Date.parse(s)) ? s : null);

export function createAppleRepository(db: Queryable) {
  return {
    async createEnrolment(deviceId: string, keyHash: string, q: Queryable): Promise<void> {
      await q.query('INSERT INTO apple_mdm_enrolments (device_id, key_hash) VALUES ($1, $2)', [deviceId, keyHash]);
    },

    /** The enrolment of an active Apple device. */
    async enrolment(deviceId: string, q: Queryable = db): Promise<EnrolmentRow | undefined> {
      return (await q.query<EnrolmentRow>(
        `SELECT e.* FROM apple_mdm_enrolments e JOIN devices d ON d.id = e.device_id WHERE e.device_id = $1 AND d.active AND d.channel = 'apple'`,
        [deviceId],
      )).rows[0];
    },

    async authenticated(deviceId: string, fields: { udid: string; serial_number: string | null; topic: string | null; model: string | null; os_version: string | null }): Promise<void> {
      await db.query(
        `UPDATE apple_mdm_enrolments SET udid = $2, serial_number = coalesce($3, serial_number), topic = coalesce($4, topic), model = coalesce($5, model),
           os_version = coalesce($6, os_version), authenticated_at = now(), last_seen_at = now() WHERE device_id = $1`,
        [deviceId, fields.udid, fields.serial_number, fields.topic, fields.model, fields.os_version],
      );
      await db.query('UPDATE devices SET apple_udid = $2, serial_number = coalesce($3, serial_number) WHERE id = $1', [deviceId, fields.udid, fields.serial_number]);
    },

    /** Stores the push details; true when this is the phone's first TokenUpdate (enrolment is complete). */
    async tokenUpdate(deviceId: string, fields: { push_token: string; push_magic: string; unlock_token: string | null; topic: string | null }, q: Queryable): Promise<boolean> {
      const res = await q.query<{ first: boolean }>(
        `UPDATE apple_mdm_enrolments e SET push_token = $2, push_magic = $3, unlock_token = coalesce($4, e.unlock_token), topic = coalesce($5, e.topic),
           token_updated_at = now(), last_seen_at = now()
         FROM apple_mdm_enrolments old WHERE e.device_id = $1 AND old.device_id = e.device_id RETURNING old.token_updated_at IS NULL AS first`,
        [deviceId, fields.push_token, fields.push_magic, fields.unlock_token, fields.topic],
      );
      return res.rows[0]?.first ?? false;
    },

    async checkedOut(deviceId: string, q: Queryable): Promise<void> {
      await q.query('UPDATE apple_mdm_enrolments SET checked_out_at = now(), last_seen_at = now() WHERE device_id = $1', [deviceId]);
    },

    async seen(deviceId: string, status: string): Promise<void> {
      await db.query('UPDATE apple_mdm_enrolments SET last_seen_at = now(), last_status = $2 WHERE device_id = $1', [deviceId, status]);
      await db.query('UPDATE devices SET last_check_in_at = now() WHERE id = $1', [deviceId]);
    },

    async setBypassCode(deviceId: string, code: string): Promise<void> {
      await db.query('UPDATE apple_mdm_enrolments SET bypass_code = $2 WHERE device_id = $1', [deviceId, code]);
    },

    /** The device's next retailer command still to do, in seq order. */
    async nextCommand(deviceId: string): Promise<CommandRow | undefined> {
      return (await db.query<CommandRow>(
        `SELECT ${COMMAND_COLUMNS} FROM device_commands WHERE device_id = $1 AND state IN ('queued', 'sent', 'delivered') AND expires_at > now() ORDER BY seq LIMIT 1`,
        [deviceId],
      )).rows[0];
    },

    async command(deviceId: string, commandId: string): Promise<CommandRow | undefined> {
      return (await db.query<CommandRow>(`SELECT ${COMMAND_COLUMNS} FROM device_commands WHERE device_id = $1 AND id = $2`, [deviceId, commandId])).rows[0];
    },

    async openCommands(deviceId: string): Promise<CommandRow[]> {
      return (await db.query<CommandRow>(
        `SELECT ${COMMAND_COLUMNS} FROM device_commands WHERE device_id = $1 AND state IN ('queued', 'sent', 'delivered') AND expires_at > now() ORDER BY seq LIMIT 50`,
        [deviceId],
      )).rows;
    },

    async addInternal(row: { id: string; device_id: string; request_type: string; body: string }, q: Queryable = db): Promise<void> {
      await q.query('INSERT INTO apple_mdm_commands (id, device_id, request_type, body) VALUES ($1, $2, $3, $4)', [row.id, row.device_id, row.request_type, row.body]);
    },
    async nextInternal(deviceId: string): Promise<InternalCommandRow | undefined> {
      return (await db.query<InternalCommandRow>(
        `SELECT id, device_id, request_type, body, state, created_at FROM apple_mdm_commands WHERE device_id = $1 AND state IN ('queued', 'sent') ORDER BY created_at LIMIT 1`,
        [deviceId],
      )).rows[0];
    },
    async openInternal(deviceId: string): Promise<InternalCommandRow[]> {
      return (await db.query<InternalCommandRow>(
        `SELECT id, device_id, request_type, body, state, created_at FROM apple_mdm_commands WHERE device_id = $1 AND state IN ('queued', 'sent') ORDER BY created_at`,
        [deviceId],
      )).rows;
    },
    async markInternal(deviceId: string, id: string, state: 'sent' | 'acknowledged' | 'error', result: unknown = null): Promise<InternalCommandRow | undefined> {
      // Forward only, like our device commands: an answer for a finished command changes nothing.
      return (await db.query<InternalCommandRow>(
        `UPDATE apple_mdm_commands SET state = $3, result = coalesce($4::jsonb, result), answered_at = CASE WHEN $3 IN ('acknowledged', 'error') THEN now() ELSE answered_at END
          WHERE device_id = $1 AND id = $2 AND state IN ('queued', 'sent') AND NOT (state = 'sent' AND $3 = 'sent')
          RETURNING id, device_id, request_type, body, state, created_at`,
        [deviceId, id, state, result === null ? null : JSON.stringify(result)],
      )).rows[0];
    },

    // DEP ------------------------------------------------------------------------------------------------------

    async depCursor(): Promise<string | null> {
      return (await db.query<{ cursor: string | null }>('SELECT cursor FROM apple_dep_state WHERE id = 1')).rows[0]?.cursor ?? null;
    },
    async saveDepCursor(cursor: string, fetchedUntil: string | null, q: Queryable = db): Promise<void> {
      await q.query(
        `INSERT INTO apple_dep_state (id, cursor, fetched_until, synced_at) VALUES (1, $1, $2, now())
         ON CONFLICT (id) DO UPDATE SET cursor = $1, fetched_until = coalesce($2, apple_dep_state.fetched_until), synced_at = now()`,
        [cursor, date(fetchedUntil ?? undefined)],
      );
    },
    /** Stores what DEP says about a device; a device DEP deleted keeps its row with op_type 'deleted'. */
    async upsertDepDevice(d: DepDevice, q: Queryable = db): Promise<void> {
      await q.query(
        `INSERT INTO apple_devices (serial_number, model, description, color, asset_tag, os, device_family, profile_status, profile_uuid, profile_assign_time,
            device_assigned_date, device_assigned_by, op_type, op_date, synced_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, now())
         ON CONFLICT (serial_number) DO UPDATE SET model = coalesce(EXCLUDED.model, apple_devices.model), description = coalesce(EXCLUDED.description, apple_devices.description),
           color = coalesce(EXCLUDED.color, apple_devices.color), asset_tag = coalesce(EXCLUDED.asset_tag, apple_devices.asset_tag), os = coalesce(EXCLUDED.os, apple_devices.os),
           device_family = coalesce(EXCLUDED.device_family, apple_devices.device_family), profile_status = coalesce(EXCLUDED.profile_status, apple_devices.profile_status),
           profile_uuid = coalesce(EXCLUDED.profile_uuid, apple_devices.profile_uuid), profile_assign_time = coalesce(EXCLUDED.profile_assign_time, apple_devices.profile_assign_time),
           device_assigned_date = coalesce(EXCLUDED.device_assigned_date, apple_devices.device_assigned_date),
           device_assigned_by = coalesce(EXCLUDED.device_assigned_by, apple_devices.device_assigned_by), op_type = EXCLUDED.op_type, op_date = EXCLUDED.op_date, synced_at = now()`,
        [d.serial_number, d.model ?? null, d.description ?? null, d.color ?? null, d.asset_tag ?? null, d.os ?? null, d.device_family ?? null, d.profile_status ?? null,
          d.profile_uuid ?? null, date(d.profile_assign_time), date(d.device_assigned_date), d.device_assigned_by ?? null, d.op_type ?? 'added', date(d.op_date)],
      );
    },
    /**
     * The DEP devices a network may see: those linked to its customers, and unlinked ones whose serial number
     * is one of its customers' (so a network never sees another's stock).
     */
    async depDevicesOf(accountId: number, retailerId: number | null): Promise<(AppleDeviceRow & { suggested_customer_id: number | null })[]> {
      return (await db.query<AppleDeviceRow & { suggested_customer_id: number | null }>(
        `SELECT ${APPLE_DEVICE_COLUMNS.split(',').map((c) => `a.${c.trim()}`).join(', ')}, m.id AS suggested_customer_id
           FROM apple_devices a
           LEFT JOIN LATERAL (SELECT c.id FROM customers c WHERE c.account_id = $1 AND upper(c.serial_number) = upper(a.serial_number)
                                AND ($2::int IS NULL OR c.retailer_id = $2) ORDER BY c.id DESC LIMIT 1) m ON a.customer_id IS NULL
          WHERE (a.account_id = $1 AND ($2::int IS NULL OR a.customer_id IN (SELECT id FROM customers WHERE retailer_id = $2)))
             OR (a.customer_id IS NULL AND m.id IS NOT NULL)
          ORDER BY a.synced_at DESC, a.serial_number LIMIT 500`,
        [accountId, retailerId],
      )).rows;
    },
    async depDevice(serial: string, q: Queryable = db, lock = false): Promise<AppleDeviceRow | undefined> {
      return (await q.query<AppleDeviceRow>(`SELECT ${APPLE_DEVICE_COLUMNS} FROM apple_devices WHERE upper(serial_number) = upper($1)${lock ? ' FOR UPDATE' : ''}`, [serial])).rows[0];
    },
    async depDeviceOfCustomer(customerId: number): Promise<AppleDeviceRow | undefined> {
      return (await db.query<AppleDeviceRow>(`SELECT ${APPLE_DEVICE_COLUMNS} FROM apple_devices WHERE customer_id = $1`, [customerId])).rows[0];
    },
    async link(serial: string, link: { account_id: number; customer_id: number; linked_by: number } | null, q: Queryable): Promise<void> {
      if (link) {
        // A customer has one Apple device: linking another releases the earlier link.
        await q.query('UPDATE apple_devices SET customer_id = NULL WHERE customer_id = $1 AND upper(serial_number) <> upper($2)', [link.customer_id, serial]);
      }
      await q.query(
        `UPDATE apple_devices SET account_id = $2, customer_id = $3, linked_by = $4, linked_at = CASE WHEN $3::int IS NULL THEN NULL ELSE now() END WHERE upper(serial_number) = upper($1)`,
        [serial, link?.account_id ?? null, link?.customer_id ?? null, link?.linked_by ?? null],
      );
    },
  };
}
export type AppleRepository = ReturnType<typeof createAppleRepository>;
