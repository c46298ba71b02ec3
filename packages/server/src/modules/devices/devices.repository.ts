/** Enrolment tokens, enrolled devices, their commands and what they report. */
import type { Queryable } from '../../db/database.ts';
import type { CommandState, OfflineLogEntry, Sim } from '@kisht/protocol/messages';
import type { OfflinePurpose } from '@kisht/protocol/offline-codes';

export interface CommandRow {
  id: string;
  device_id: string;
  customer_id: number;
  account_id: number;
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  state: CommandState;
  result: Record<string, unknown> | null;
  origin: string;
  batch_id: string | null;
  created_at: Date;
  sent_at: Date | null;
  delivered_at: Date | null;
  finished_at: Date | null;
  expires_at: Date;
}

export interface DeviceRow {
  id: string;
  customer_id: number;
  org_id: number;
  account_id: number;
  offline_secret: string;
  imei1: string;
  imei2: string | null;
  serial_number: string | null;
  sims: Sim[];
  reported: Record<string, unknown>;
  last_event_n: string;
  last_log_n: string;
  code_counters: Record<OfflinePurpose, number>;
  want_location: boolean;
  channel: 'mqtt' | 'apple';
  last_check_in_at: Date | null;
  created_at: Date;
  /** Offers (migration 038): the customer switched the shop's offers off on the phone; the phone's push token. */
  offers_opt_out: boolean;
  push_token: string | null;
}

/** What a check-in reads before it decides whether anything needs writing (see checkInState). */
export interface CheckInState {
  offlineLockDays: number;
  orgName: string;
  lockStatus: number;
  lockDoneAbove: boolean;
  /** Ids of the phone's finished commands that are still open here. */
  unsettled: string[];
  open: CommandRow[];
  lockCommand: CommandRow | undefined;
}

const COMMAND_COLUMNS = `id, device_id, customer_id, account_id, seq, type, payload, state, result, origin, batch_id, created_at, sent_at,
  delivered_at, finished_at, expires_at`;
const DEVICE_COLUMNS = `id, customer_id, org_id, account_id, offline_secret, imei1, imei2, serial_number, sims, reported, last_event_n,
  last_log_n, code_counters, want_location, channel, last_check_in_at, created_at, offers_opt_out, push_token`;
const ORDER = "ARRAY['queued','sent','delivered','done','failed']";
/** Republishes of an unconfirmed command made whether or not the phone was seen since (see unconfirmed()). */
export const MAX_BLIND_REPUBLISHES = 8;

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
    async create(device: { id: string; customer_id: number; org_id: number; account_id: number; mqtt_password_hash: string; offline_secret: string; imei1: string; imei2: string | null; serial_number: string | null; sims: unknown[]; channel?: 'mqtt' | 'apple'; apple_udid?: string | null }, q: Queryable): Promise<string | null> {
      // A phone enrolled again replaces the earlier one: it is released (credentials and open commands end).
      const replaced = (await q.query<{ id: string }>('SELECT id FROM devices WHERE customer_id = $1 AND active', [device.customer_id])).rows[0]?.id ?? null;
      if (replaced) await this.release(replaced, q);
      await q.query(
        `INSERT INTO devices (id, customer_id, org_id, account_id, mqtt_password_hash, offline_secret, imei1, imei2, serial_number, sims, channel, apple_udid)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [device.id, device.customer_id, device.org_id, device.account_id, device.mqtt_password_hash, device.offline_secret, device.imei1, device.imei2,
          device.serial_number, JSON.stringify(device.sims), device.channel ?? 'mqtt', device.apple_udid ?? null],
      );
      return replaced;
    },
    async passwordHash(deviceId: string): Promise<string | null> {
      const res = await db.query<{ mqtt_password_hash: string }>('SELECT mqtt_password_hash FROM devices WHERE id = $1 AND active', [deviceId]);
      return res.rows[0]?.mqtt_password_hash ?? null;
    },
    /** An active device with its stored password hash, for device endpoints (one read). */
    async withPasswordHash(deviceId: string): Promise<{ device: DeviceRow; mqtt_password_hash: string } | undefined> {
      const row = (await db.query<DeviceRow & { mqtt_password_hash: string }>(`SELECT ${DEVICE_COLUMNS}, mqtt_password_hash FROM devices WHERE id = $1 AND active`, [deviceId])).rows[0];
      if (!row) return undefined;
      const { mqtt_password_hash, ...device } = row;
      return { device, mqtt_password_hash };
    },
    async activeDevice(customerId: number, q: Queryable = db): Promise<DeviceRow | undefined> {
      return (await q.query<DeviceRow>(`SELECT ${DEVICE_COLUMNS} FROM devices WHERE customer_id = $1 AND active`, [customerId])).rows[0];
    },
    /** Offers (migration 038): the customer's opt-out and the phone's push token (null: it has none any more). */
    async setOffers(deviceId: string, change: { optedOut?: boolean; pushToken?: string | null }, q: Queryable = db): Promise<void> {
      await q.query(
        'UPDATE devices SET offers_opt_out = coalesce($2, offers_opt_out), push_token = CASE WHEN $3 THEN $4 ELSE push_token END WHERE id = $1',
        [deviceId, change.optedOut ?? null, change.pushToken !== undefined, change.pushToken ?? null],
      );
    },
    async activeDevices(customerIds: number[], q: Queryable = db): Promise<DeviceRow[]> {
      return (await q.query<DeviceRow>(`SELECT ${DEVICE_COLUMNS} FROM devices WHERE customer_id = ANY($1::int[]) AND active`, [customerIds])).rows;
    },
    async device(deviceId: string, q: Queryable = db, lock = false): Promise<DeviceRow | undefined> {
      return (await q.query<DeviceRow>(`SELECT ${DEVICE_COLUMNS} FROM devices WHERE id = $1 AND active${lock ? ' FOR UPDATE' : ''}`, [deviceId])).rows[0];
    },
    /** Several active devices at once, by id. */
    async devicesByIds(deviceIds: readonly string[]): Promise<DeviceRow[]> {
      if (deviceIds.length === 0) return [];
      return (await db.query<DeviceRow>(`SELECT ${DEVICE_COLUMNS} FROM devices WHERE id = ANY($1::uuid[]) AND active`, [deviceIds])).rows;
    },
    /** The phone is no longer managed: its credentials stop working and its open commands end. */
    async release(deviceId: string, q: Queryable = db): Promise<void> {
      await q.query('UPDATE devices SET active = false, released_at = now() WHERE id = $1', [deviceId]);
      await q.query(`UPDATE device_commands SET state = 'expired', finished_at = now() WHERE device_id = $1 AND state IN ('queued', 'sent', 'delivered')`, [deviceId]);
    },

    /**
     * A double tap: the device's newest command of this type, if it is still under way with the same payload
     * (a second tap with another payload, e.g. on then off, is a new command).
     */
    async pendingCommand(deviceId: string, type: string, payload: object, q: Queryable) {
      const newest = (await q.query<CommandRow & { same: boolean }>(
        `SELECT ${COMMAND_COLUMNS}, payload = $3::jsonb AS same FROM device_commands WHERE device_id = $1 AND type = $2 ORDER BY seq DESC LIMIT 1`,
        [deviceId, type, JSON.stringify(payload)],
      )).rows[0];
      if (!newest || !newest.same || !['queued', 'sent', 'delivered'].includes(newest.state) || newest.expires_at <= new Date()) return undefined;
      const { same: _same, ...row } = newest;
      return row as CommandRow;
    },

    /** The device's commands not yet published up to `seq`, in order (published before it, so the phone sees them in order). */
    async queuedUpTo(deviceIds: string[], q: Queryable = db): Promise<CommandRow[]> {
      return (await q.query<CommandRow>(
        `SELECT ${COMMAND_COLUMNS} FROM device_commands WHERE device_id = ANY($1::uuid[]) AND state = 'queued' AND expires_at > now() ORDER BY device_id, seq`,
        [deviceIds],
      )).rows;
    },

    /**
     * What a check-in reads, in one statement: the organisation's offline lock days and name; the customer's lock
     * status; the device's open commands above the phone's `lastSeq` (in seq order, 100 at most); the newest lock
     * or unlock the phone has not confirmed, of any seq (it decides the desired lock state); whether a lock or
     * unlock above `lastSeq` is already done (the check-in is older than that result); and which of `recentIds`,
     * the commands the phone says it finished, are still open here (only those have an outcome to take).
     */
    async checkInState(device: Pick<DeviceRow, 'id' | 'customer_id' | 'org_id'>, lastSeq: number, recentIds: readonly string[], q: Queryable = db): Promise<CheckInState> {
      const res = await q.query<CommandRow & { offline_lock_days: number; org_name: string; lock_status: number; lock_done_above: boolean; unsettled: string[]; part: 'open' | 'lock' | null }>(
        `SELECT g.offline_lock_days, g.name AS org_name, c.lock_status,
                EXISTS (SELECT 1 FROM device_commands WHERE device_id = $1 AND type IN ('lock', 'unlock') AND state = 'done' AND seq > $3) AS lock_done_above,
                ARRAY(SELECT id::text FROM device_commands WHERE device_id = $1 AND id = ANY($4::uuid[]) AND state IN ('queued', 'sent', 'delivered')) AS unsettled,
                o.*
           FROM customers c JOIN organizations g ON g.id = $5
           LEFT JOIN ((SELECT 'open' AS part, ${COMMAND_COLUMNS} FROM device_commands WHERE device_id = $1 AND seq > $3 AND state IN ('queued', 'sent', 'delivered')
                         AND expires_at > now() ORDER BY seq LIMIT 100)
                      UNION ALL
                      (SELECT 'lock' AS part, ${COMMAND_COLUMNS} FROM device_commands WHERE device_id = $1 AND type IN ('lock', 'unlock') AND state IN ('queued', 'sent', 'delivered')
                         AND expires_at > now() ORDER BY seq DESC LIMIT 1)) o ON true
          WHERE c.id = $2`,
        [device.id, device.customer_id, lastSeq, recentIds, device.org_id],
      );
      const first = res.rows[0]!;
      const command = ({ offline_lock_days: _days, org_name: _name, lock_status: _status, lock_done_above: _done, unsettled: _unsettled, part: _part, ...row }: (typeof res.rows)[number]) => row as CommandRow;
      return {
        offlineLockDays: first.offline_lock_days,
        orgName: first.org_name,
        lockStatus: first.lock_status,
        lockDoneAbove: first.lock_done_above,
        unsettled: first.unsettled,
        open: res.rows.filter((r) => r.part === 'open').map(command).sort((a, b) => a.seq - b.seq),
        lockCommand: res.rows.filter((r) => r.part === 'lock').map(command)[0],
      };
    },

    /** When the latest lock or unlock was confirmed, if ever. */
    async lastLockConfirmed(deviceId: string, q: Queryable = db): Promise<Date | null> {
      return (await q.query<{ at: Date | null }>(
        `SELECT max(finished_at) AS at FROM device_commands WHERE device_id = $1 AND type IN ('lock', 'unlock') AND state = 'done'`, [deviceId],
      )).rows[0]?.at ?? null;
    },

    async createCommand(row: { id: string; device_id: string; customer_id: number; account_id: number; type: string; payload: object; created_by: number; ttl_minutes: number; origin: string; batch_id?: string | null }, q: Queryable): Promise<CommandRow> {
      const seq = (await q.query<{ last_seq: number }>('UPDATE devices SET last_seq = last_seq + 1 WHERE id = $1 RETURNING last_seq', [row.device_id])).rows[0]!.last_seq;
      const res = await q.query<CommandRow>(
        `INSERT INTO device_commands (id, device_id, customer_id, account_id, seq, type, payload, created_by, expires_at, origin, batch_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(mins => $9), $10, $11) RETURNING ${COMMAND_COLUMNS}`,
        [row.id, row.device_id, row.customer_id, row.account_id, seq, row.type, JSON.stringify(row.payload), row.created_by, row.ttl_minutes, row.origin, row.batch_id ?? null],
      );
      return res.rows[0]!;
    },

    /** Writes many commands in four statements (bulk lock/unlock): next sequence numbers, then one insert. */
    async createCommands(rows: { id: string; device_id: string; customer_id: number; account_id: number; type: string; payload: object; created_by: number; ttl_minutes: number; origin: string; batch_id: string | null }[], q: Queryable): Promise<CommandRow[]> {
      if (rows.length === 0) return [];
      const seqs = new Map((await q.query<{ id: string; last_seq: number }>(
        // Rows locked in id order, as the report groups lock them: two transactions over the same devices cannot deadlock.
        `UPDATE devices SET last_seq = last_seq + 1
          WHERE id IN (SELECT id FROM devices WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE) RETURNING id, last_seq`, [rows.map((r) => r.device_id)],
      )).rows.map((r) => [r.id, r.last_seq]));
      const res = await q.query<CommandRow>(
        `INSERT INTO device_commands (id, device_id, customer_id, account_id, seq, type, payload, created_by, expires_at, origin, batch_id)
         SELECT id, device_id, customer_id, account_id, seq, type, payload, created_by, now() + make_interval(mins => ttl), origin, batch_id
           FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::int[], $5::int[], $6::text[], $7::jsonb[], $8::int[], $9::int[], $10::text[], $11::uuid[])
                AS t(id, device_id, customer_id, account_id, seq, type, payload, created_by, ttl, origin, batch_id)
         RETURNING ${COMMAND_COLUMNS}`,
        [rows.map((r) => r.id), rows.map((r) => r.device_id), rows.map((r) => r.customer_id), rows.map((r) => r.account_id), rows.map((r) => seqs.get(r.device_id)!),
          rows.map((r) => r.type), rows.map((r) => JSON.stringify(r.payload)), rows.map((r) => r.created_by), rows.map((r) => r.ttl_minutes), rows.map((r) => r.origin), rows.map((r) => r.batch_id)],
      );
      return res.rows;
    },

    /** Moves a command forward only (queued -> sent -> delivered -> done | failed); a late or repeated report changes nothing. */
    async advance(deviceId: string, commandId: string, state: 'sent' | 'delivered' | 'done' | 'failed', result: unknown, q: Queryable = db): Promise<CommandRow | undefined> {
      const res = await q.query<CommandRow>(
        `UPDATE device_commands SET state = $3,
           sent_at = coalesce(sent_at, now()),
           delivered_at = CASE WHEN $3 IN ('delivered', 'done', 'failed') THEN coalesce(delivered_at, now()) ELSE delivered_at END,
           finished_at = CASE WHEN $3 IN ('done', 'failed') THEN now() ELSE finished_at END,
           result = coalesce($4::jsonb, result)
         WHERE id = $2 AND device_id = $1 AND array_position(${ORDER}, state) < array_position(${ORDER}, $3::text)
           AND state NOT IN ('done', 'failed', 'expired')
         RETURNING ${COMMAND_COLUMNS}`,
        [deviceId, commandId, state, result === undefined ? null : JSON.stringify(result)],
      );
      return res.rows[0];
    },

    async command(id: string): Promise<CommandRow | undefined> {
      return (await db.query<CommandRow>(`SELECT ${COMMAND_COLUMNS} FROM device_commands WHERE id = $1`, [id])).rows[0];
    },

    /** Marks published commands sent (those a phone has not already answered). */
    async markSent(ids: string[]): Promise<void> {
      if (ids.length) await db.query(`UPDATE device_commands SET state = 'sent', sent_at = coalesce(sent_at, now()) WHERE id = ANY($1::uuid[]) AND state = 'queued'`, [ids]);
    },

    /** Commands written but never published (the server stopped in between), oldest first. */
    async unpublished(olderThanSeconds: number, limit: number): Promise<CommandRow[]> {
      return (await db.query<CommandRow>(
        `SELECT ${COMMAND_COLUMNS.split(/,\s*/).map((c) => `c.${c}`).join(', ')} FROM device_commands c JOIN devices d ON d.id = c.device_id AND d.active
          WHERE c.state = 'queued' AND c.expires_at > now() AND c.created_at < now() - make_interval(secs => $1) ORDER BY c.device_id, c.seq LIMIT $2`,
        [olderThanSeconds, limit],
      )).rows;
    },

    /**
     * Commands sent but not confirmed for a while (a report may have been lost), in seq order, waiting twice as
     * long after each republish (up to 64 times the first wait). After MAX_BLIND_REPUBLISHES a command goes again
     * only once the phone has checked in since it last went: a phone that is away gets no pile of copies queued
     * in its broker session.
     */
    async unconfirmed(olderThanSeconds: number, limit: number): Promise<CommandRow[]> {
      return (await db.query<CommandRow>(
        `SELECT ${COMMAND_COLUMNS.split(/,\s*/).map((c) => `c.${c}`).join(', ')} FROM device_commands c JOIN devices d ON d.id = c.device_id AND d.active AND d.channel <> 'apple'
          WHERE c.state IN ('sent', 'delivered') AND c.expires_at > now() AND coalesce(c.last_sent_at, c.sent_at) < now() - make_interval(secs => $1 * power(2, least(c.republish_count, 6)))
            -- A shown offer waits for the customer to open it, maybe never: the phone has it, nothing to send again.
            AND NOT (c.type = 'offer' AND c.state = 'delivered')
            AND (c.republish_count < $3 OR d.last_check_in_at > c.last_sent_at)
          ORDER BY c.device_id, c.seq LIMIT $2`,
        [olderThanSeconds, limit, MAX_BLIND_REPUBLISHES],
      )).rows;
    },

    async markRepublished(ids: string[]): Promise<void> {
      if (ids.length) await db.query('UPDATE device_commands SET last_sent_at = now(), republish_count = republish_count + 1 WHERE id = ANY($1::uuid[])', [ids]);
    },

    async expire(q: Queryable = db): Promise<CommandRow[]> {
      return (await q.query<CommandRow>(
        // A shown offer is not expired: it stays shown, and may still be opened (decision 029).
        `UPDATE device_commands SET state = 'expired', finished_at = now()
          WHERE state IN ('queued', 'sent', 'delivered') AND expires_at <= now() AND NOT (type = 'offer' AND state = 'delivered')
          RETURNING ${COMMAND_COLUMNS}`,
      )).rows;
    },

    async commands(customerId: number, limit = 50) {
      return (await db.query<CommandRow>(`SELECT ${COMMAND_COLUMNS} FROM device_commands WHERE customer_id = $1 ORDER BY created_at DESC, seq DESC LIMIT $2`, [customerId, limit])).rows;
    },

    async setLockStatus(customerId: number, locked: boolean, q: Queryable = db): Promise<void> {
      await q.query('UPDATE customers SET lock_status = $2, updated_at = now() WHERE id = $1 AND lock_status <> $2', [customerId, locked ? 1 : 0]);
    },

    async setInstallStatus(customerId: number, status: number, q: Queryable = db): Promise<void> {
      await q.query('UPDATE customers SET install_status = $2, updated_at = now() WHERE id = $1', [customerId, status]);
    },

    async markInstalled(customerId: number, q: Queryable): Promise<void> {
      await q.query('UPDATE customers SET install_status = 1, updated_at = now() WHERE id = $1 AND install_status IN (0, 2)', [customerId]);
    },

    /** Takes an event number once: false when it is at or below the highest already taken (a replay). */
    async takeEventNumber(deviceId: string, n: number, q: Queryable = db): Promise<boolean> {
      const res = await q.query('UPDATE devices SET last_event_n = $2 WHERE id = $1 AND active AND last_event_n < $2', [deviceId, n]);
      return res.rowCount > 0;
    },

    /** The highest event number taken of each active device, its row locked for the caller's transaction (in id order, so two nodes cannot deadlock). */
    async lockEventNumbers(deviceIds: readonly string[], q: Queryable): Promise<Map<string, number>> {
      const res = await q.query<{ id: string; n: string }>(
        'SELECT id, last_event_n::text AS n FROM devices WHERE id = ANY($1::uuid[]) AND active ORDER BY id FOR UPDATE', [deviceIds],
      );
      return new Map(res.rows.map((r) => [r.id, Number(r.n)]));
    },
    /** Raises each device's highest event number taken (rows locked by lockEventNumbers). */
    async raiseEventNumbers(highest: ReadonlyMap<string, number>, q: Queryable): Promise<void> {
      if (highest.size === 0) return;
      await q.query(
        `UPDATE devices d SET last_event_n = v.n FROM unnest($1::uuid[], $2::bigint[]) AS v(id, n) WHERE d.id = v.id AND d.last_event_n < v.n`,
        [[...highest.keys()], [...highest.values()]],
      );
    },
    /**
     * advance() for many commands in one statement: each command (of its own device) moves forward to the state
     * given, never back and never out of an end state. Returns the rows that moved. At most one entry per command.
     */
    async advanceMany(steps: ReadonlyArray<{ id: string; deviceId: string; state: 'delivered' | 'done' | 'failed'; result: unknown }>, q: Queryable): Promise<CommandRow[]> {
      if (steps.length === 0) return [];
      const res = await q.query<CommandRow>(
        `UPDATE device_commands c SET state = v.state,
           sent_at = coalesce(c.sent_at, now()),
           delivered_at = coalesce(c.delivered_at, now()),
           finished_at = CASE WHEN v.state IN ('done', 'failed') THEN now() ELSE c.finished_at END,
           result = coalesce(v.result, c.result)
          FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::jsonb[]) AS v(id, device_id, state, result)
         WHERE c.id = v.id AND c.device_id = v.device_id AND array_position(${ORDER}, c.state) < array_position(${ORDER}, v.state)
           AND c.state NOT IN ('done', 'failed', 'expired')
         RETURNING ${COMMAND_COLUMNS.split(/,\s*/).map((c) => `c.${c}`).join(', ')}`,
        [steps.map((s) => s.id), steps.map((s) => s.deviceId), steps.map((s) => s.state), steps.map((s) => (s.result === undefined || s.result === null ? null : JSON.stringify(s.result)))],
      );
      return res.rows;
    },
    /** setLockStatus() for many customers, and the phones' reported lock state with it; one entry per customer. */
    async setLockStatuses(changes: ReadonlyArray<{ customerId: number; deviceId: string; locked: boolean }>, q: Queryable): Promise<void> {
      if (changes.length === 0) return;
      await q.query(
        `UPDATE customers c SET lock_status = v.l, updated_at = now() FROM unnest($1::int[], $2::int[]) AS v(id, l) WHERE c.id = v.id AND c.lock_status <> v.l`,
        [changes.map((c) => c.customerId), changes.map((c) => (c.locked ? 1 : 0))],
      );
      await q.query(
        `UPDATE devices d SET reported = d.reported || jsonb_build_object('locked', v.l) FROM unnest($1::uuid[], $2::boolean[]) AS v(id, l) WHERE d.id = v.id`,
        [changes.map((c) => c.deviceId), changes.map((c) => c.locked)],
      );
    },

    async report(deviceId: string, reported: Record<string, unknown>, checkIn: boolean, q: Queryable = db): Promise<void> {
      await q.query(
        `UPDATE devices SET reported = reported || $2::jsonb${checkIn ? ', last_check_in_at = now(), want_location = false' : ''} WHERE id = $1`,
        [deviceId, JSON.stringify(reported)],
      );
    },

    /** A check-in that brought nothing new: only its time is written. */
    async checkedIn(deviceId: string): Promise<void> {
      await db.query('UPDATE devices SET last_check_in_at = now() WHERE id = $1', [deviceId]);
    },

    async setSims(deviceId: string, sims: Sim[], q: Queryable = db): Promise<void> {
      await q.query('UPDATE devices SET sims = $2 WHERE id = $1', [deviceId, JSON.stringify(sims)]);
    },

    async wantLocation(deviceId: string): Promise<void> {
      await db.query('UPDATE devices SET want_location = true WHERE id = $1', [deviceId]);
    },

    /**
     * Counts one more offline code for the purpose and returns its counter, never more than `lookAhead` above
     * the last one the phone reported taking (beyond that the phone could not recognise it): at the cap the
     * newest code is issued again.
     */
    async nextCodeCounter(deviceId: string, purpose: OfflinePurpose, lookAhead: number): Promise<number> {
      const res = await db.query<{ counter: number }>(
        `UPDATE devices SET code_counters = jsonb_set(code_counters, ARRAY[$2::text],
           to_jsonb(least(coalesce((code_counters ->> $2)::int, 0) + 1, coalesce((code_used ->> $2)::int, 0) + $3)))
          WHERE id = $1 RETURNING (code_counters ->> $2)::int AS counter`,
        [deviceId, purpose, lookAhead],
      );
      return res.rows[0]!.counter;
    },

    /** Stores the log entries not taken before; returns the ones that are new. */
    async addLog(device: { id: string; customer_id: number }, entries: OfflineLogEntry[], q: Queryable): Promise<OfflineLogEntry[]> {
      if (entries.length === 0) return [];
      const res = await q.query<{ n: string }>(
        `INSERT INTO device_offline_log (device_id, n, customer_id, kind, ref, happened_at)
         SELECT $1, n, $2, kind, ref, at FROM unnest($3::bigint[], $4::text[], $5::text[], $6::timestamptz[]) AS t(n, kind, ref, at)
         ON CONFLICT DO NOTHING RETURNING n`,
        [device.id, device.customer_id, entries.map((e) => e.n), entries.map((e) => e.kind), entries.map((e) => (e.ref === undefined ? null : String(e.ref))), entries.map((e) => e.at)],
      );
      const taken = new Set(res.rows.map((r) => Number(r.n)));
      const fresh = entries.filter((e) => taken.has(e.n)).sort((a, b) => a.n - b.n);
      if (fresh.length) await q.query('UPDATE devices SET last_log_n = greatest(last_log_n, $2) WHERE id = $1', [device.id, Math.max(...fresh.map((e) => e.n))]);
      // Codes the phone took move its window: remember the highest counter per purpose.
      for (const purpose of ['unlock', 'lock', 'bypass'] as const) {
        const used = fresh.filter((e) => e.kind === `code_${purpose}` && Number.isSafeInteger(Number(e.ref))).map((e) => Number(e.ref));
        if (used.length) {
          await q.query(`UPDATE devices SET code_used = jsonb_set(code_used, ARRAY[$2::text], to_jsonb(greatest(coalesce((code_used ->> $2)::int, 0), $3::int))) WHERE id = $1`, [device.id, purpose, Math.max(...used)]);
        }
      }
      return fresh;
    },

    async offlineLog(customerId: number) {
      return (await db.query<{ n: string; kind: string; ref: string | null; happened_at: Date; received_at: Date }>(
        'SELECT n, kind, ref, happened_at, received_at FROM device_offline_log WHERE customer_id = $1 ORDER BY happened_at DESC, n DESC LIMIT 100',
        [customerId],
      )).rows;
    },

    async addSimChange(row: { device_id: string; customer_id: number; account_id: number; old_sims: Sim[]; new_sims: Sim[]; location: unknown; changed_at: string; alerted_to?: string[]; lost_mode_on?: boolean }, q: Queryable = db): Promise<void> {
      await q.query(
        `INSERT INTO sim_changes (device_id, customer_id, account_id, old_sims, new_sims, location, changed_at, alerted_to, lost_mode_on) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [row.device_id, row.customer_id, row.account_id, JSON.stringify(row.old_sims), JSON.stringify(row.new_sims), row.location ? JSON.stringify(row.location) : null, row.changed_at, row.alerted_to ?? [], row.lost_mode_on ?? false],
      );
    },

    async simChanges(accountId: number, filter: { customerId?: number; retailerId?: number | null; limit: number; offset: number }) {
      const params: unknown[] = [accountId, filter.limit, filter.offset];
      const where = ['s.account_id = $1'];
      if (filter.customerId) where.push(`s.customer_id = $${params.push(filter.customerId)}`);
      if (filter.retailerId) where.push(`c.retailer_id = $${params.push(filter.retailerId)}`);
      const res = await db.query<{ id: number; customer_id: number; first_name: string; last_name: string; mobile: string; imei1: string; old_sims: Sim[]; new_sims: Sim[]; location: unknown; changed_at: Date; alerted_to: string[]; lost_mode_on: boolean; total: string }>(
        `SELECT s.id, s.customer_id, c.first_name, c.last_name, c.mobile, c.imei1, s.old_sims, s.new_sims, s.location, s.changed_at, s.alerted_to, s.lost_mode_on, count(*) OVER () AS total
           FROM sim_changes s JOIN customers c ON c.id = s.customer_id WHERE ${where.join(' AND ')}
          ORDER BY s.changed_at DESC, s.id DESC LIMIT $2 OFFSET $3`,
        params,
      );
      return res.rows;
    },

    // Bulk batches (decision 017) ----------------------------------------------------------------------------

    /** Stores a batch with its targets, all unwritten, and the writer's lease. */
    async createBatch(batch: { id: string; account_id: number; action: 'lock' | 'unlock'; created_by: number; customer_ids: readonly number[]; lease_seconds: number }, q: Queryable): Promise<void> {
      await q.query(
        `INSERT INTO command_batches (id, account_id, action, created_by, lease_until) VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
        [batch.id, batch.account_id, batch.action, batch.created_by, batch.lease_seconds],
      );
      await q.query('INSERT INTO command_batch_pending (batch_id, customer_id) SELECT $1, unnest($2::int[])', [batch.id, batch.customer_ids]);
    },

    /**
     * Takes up to `limit` of the batch's unwritten targets for the caller's transaction: they leave the pending
     * rows now and come back if it does not commit. Rows another writer holds are passed over.
     */
    async takePending(batchId: string, limit: number, q: Queryable): Promise<number[]> {
      return (await q.query<{ customer_id: number }>(
        `DELETE FROM command_batch_pending WHERE batch_id = $1 AND customer_id IN (
           SELECT customer_id FROM command_batch_pending WHERE batch_id = $1 ORDER BY customer_id LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING customer_id`,
        [batchId, limit],
      )).rows.map((r) => r.customer_id).sort((a, b) => a - b);
    },

    /** After a chunk: its skipped customers join the batch's and the writer's lease runs on. */
    async chunkWritten(batchId: string, skipped: ReadonlyArray<{ customer_id: number; reason: string }>, leaseSeconds: number, q: Queryable): Promise<void> {
      await q.query(
        `UPDATE command_batches SET skipped = skipped || $2::jsonb, lease_until = now() + make_interval(secs => $3) WHERE id = $1`,
        [batchId, JSON.stringify(skipped), leaseSeconds],
      );
    },

    /** Ends the lease once nothing is left to write (a chunk still in flight elsewhere keeps its rows, so it keeps the lease). */
    async finishBatch(batchId: string, q: Queryable = db): Promise<boolean> {
      const res = await q.query(
        'UPDATE command_batches b SET lease_until = NULL WHERE b.id = $1 AND NOT EXISTS (SELECT 1 FROM command_batch_pending p WHERE p.batch_id = b.id)',
        [batchId],
      );
      return res.rowCount > 0;
    },

    /**
     * Takes over one batch whose writer's lease ran out (it stopped or died), with who started it, or nothing.
     * Two sweepers never take the same one; a writer still alive after all writes no target twice either.
     */
    async takeAbandonedBatch(leaseSeconds: number): Promise<{ id: string; action: 'lock' | 'unlock'; account_id: number; created_by: number; user_type: 'retailer' | 'miniretailer' } | undefined> {
      return (await db.query<{ id: string; action: 'lock' | 'unlock'; account_id: number; created_by: number; user_type: 'retailer' | 'miniretailer' }>(
        `UPDATE command_batches b SET lease_until = now() + make_interval(secs => $1) FROM users u
          WHERE b.id = (SELECT id FROM command_batches WHERE lease_until < now() ORDER BY lease_until LIMIT 1 FOR UPDATE SKIP LOCKED) AND u.id = b.created_by
          RETURNING b.id::text AS id, b.action, b.account_id, b.created_by, u.user_type`,
        [leaseSeconds],
      )).rows[0];
    },

    /** Hands batches a stopping node was writing to the next sweep of any node. */
    async releaseBatches(batchIds: readonly string[]): Promise<void> {
      if (batchIds.length) await db.query('UPDATE command_batches SET lease_until = now() WHERE id = ANY($1::uuid[]) AND lease_until IS NOT NULL', [batchIds]);
    },

    /**
     * Takes the batch's failed and expired commands out of it (they stay in the log) and makes their customers
     * unwritten targets again; returns them. A second retry at the same time finds them gone.
     */
    async retargetFailed(batchId: string, leaseSeconds: number, q: Queryable): Promise<number[]> {
      const ids = (await q.query<{ customer_id: number }>(
        `UPDATE device_commands SET batch_id = NULL WHERE batch_id = $1 AND state IN ('failed', 'expired') RETURNING customer_id`, [batchId],
      )).rows.map((r) => r.customer_id);
      if (ids.length === 0) return [];
      await q.query('INSERT INTO command_batch_pending (batch_id, customer_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING', [batchId, ids]);
      await q.query('UPDATE command_batches SET lease_until = now() + make_interval(secs => $2) WHERE id = $1', [batchId, leaseSeconds]);
      return ids;
    },

    /**
     * A batch of the account and what became of each target, read in one statement so a chunk committing
     * meanwhile is seen either before or after: its commands, its unwritten targets (queued, no command yet)
     * and its skipped customers. Undefined when the account has no such batch.
     */
    async batchState(batchId: string, accountId: number) {
      const res = await db.query<{ id: string; action: string; created_at: Date; skipped: Array<{ customer_id: number; reason: string }>; created_by: number }
        & ({ customer_id: number; first_name: string | null; last_name: string | null; command_id: string | null; state: string; result: { error?: string } | null } | { customer_id: null })>(
        `WITH b AS (SELECT id, action, created_at, skipped, created_by FROM command_batches WHERE id = $1 AND account_id = $2),
              t AS (SELECT d.customer_id, d.id AS command_id, d.state, d.result FROM device_commands d WHERE d.batch_id = $1
                    UNION ALL
                    SELECT p.customer_id, NULL, 'queued', NULL FROM command_batch_pending p WHERE p.batch_id = $1)
         SELECT b.id::text AS id, b.action, b.created_at, b.skipped, b.created_by, t.customer_id, c.first_name, c.last_name, t.command_id::text AS command_id, t.state, t.result
           FROM b LEFT JOIN t ON true LEFT JOIN customers c ON c.id = t.customer_id
          ORDER BY t.customer_id, t.command_id NULLS LAST`,
        [batchId, accountId],
      );
      const first = res.rows[0];
      if (!first) return undefined;
      const { id, action, created_at, skipped, created_by } = first;
      const targets = res.rows.flatMap((r) => (r.customer_id === null ? [] : [{
        customer_id: r.customer_id, name: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim(), command_id: r.command_id, state: r.state, result: r.result,
      }]));
      return { id, action, created_at, skipped, created_by, targets };
    },

    async orgPolicy(orgId: number, q: Queryable = db) {
      return (await q.query<{ offline_lock_days: number; lock_on_sim_change: boolean; auto_lock_days_overdue: number; auto_unlock_when_paid: boolean; name: string }>(
        'SELECT offline_lock_days, lock_on_sim_change, auto_lock_days_overdue, auto_unlock_when_paid, name FROM organizations WHERE id = $1',
        [orgId],
      )).rows[0]!;
    },
  };
}
export type DevicesRepository = ReturnType<typeof createDevicesRepository>;
