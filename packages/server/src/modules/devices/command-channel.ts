/**
 * The command channel (docs/device-protocol.md): commands are written first and published after commit,
 * sealed under the device's secret; phones answer with sealed events on their own topic and check in over
 * HTTPS. A sweeper publishes what a crash left unpublished and expires what is too old.
 */
import { randomUUID } from 'node:crypto';
import { INSTALL_STATUS } from '@kisht/domain/constants';
import { RELEASE_ACTIONS, type CheckInBody, type CheckInReply, type CommandMessage, type DeviceEvent, type LockScreen, type OfflineLogEntry, type Sim } from '@kisht/protocol/messages';
import { seal, unseal } from '@kisht/protocol/signing';
import { deviceIdOfEventTopic } from '@kisht/protocol/topics';
import type { Database, Queryable } from '../../db/database.ts';
import type { CommandRow, DeviceRow, DevicesRepository } from './devices.repository.ts';

/** Delivers a sealed command to a device over its channel; resolves when the broker (or vendor) has it. */
export type Transport = (device: Pick<DeviceRow, 'id' | 'channel'>, sealed: string, command: CommandRow) => Promise<void>;

export interface IssueRequest {
  device: DeviceRow;
  type: string;
  payload: object;
  createdBy: number;
  origin: 'retailer' | 'schedule' | 'bulk' | 'dues' | 'sim_change' | 'system';
  batchId?: string | null;
  ttlMinutes?: number;
  /** Return the same command when one of this type is still under way (a double tap). */
  dedupe?: boolean;
}

export const DEFAULT_TTL_MINUTES = 7 * 24 * 60;
/** Publishes a bulk batch keeps waiting for the broker's acknowledgement at once. */
export const PUBLISH_IN_FLIGHT = 64;
// A self-lock is the phone's own precaution, not the retailer's lock: reaching the server lifts it (unless the server wants the phone locked).
const LOCKING_LOG = new Set(['code_lock']);
const RELEASING = new Set<string>(RELEASE_ACTIONS);
const UNLOCKING_LOG = new Set(['code_unlock', 'code_ouc', 'code_bypass']);

export function toMessage(row: CommandRow): CommandMessage {
  return {
    v: 1, id: row.id, seq: row.seq, type: row.type as CommandMessage['type'], payload: row.payload as CommandMessage['payload'],
    issued_at: row.created_at.toISOString(), expires_at: row.expires_at.toISOString(),
  };
}

export function createCommandChannel(deps: {
  db: Database;
  devices: DevicesRepository;
  transport: Transport;
  lockScreen: (customerId: number, q?: Queryable) => Promise<LockScreen>;
  checkInSeconds: number;
  /** Called after a phone is released (uninstall, unclaim), to remove its broker account. */
  onRelease?: (deviceId: string) => Promise<void>;
  log: (message: string, error?: unknown) => void;
}) {
  const { db, devices } = deps;

  /**
   * Publishes `rows` of one device in seq order, each sealed, then marks them sent. The phone takes each seq
   * once and ignores older ones, so a device's commands must leave in order: whoever publishes a command
   * first publishes the same device's earlier commands still queued (a second copy is harmless).
   */
  async function publishInOrder(device: DeviceRow, rows: CommandRow[]): Promise<string[]> {
    const sent: string[] = [];
    for (const row of rows) {
      await deps.transport(device, seal(device.offline_secret, toMessage(row)), row);
      sent.push(row.id);
    }
    return sent;
  }

  /** The device's queued commands up to and including `row`, in seq order. */
  async function withEarlier(device: DeviceRow, row: CommandRow): Promise<CommandRow[]> {
    const queued = (await devices.queuedUpTo([device.id])).filter((c) => c.seq < row.seq);
    return [...queued, row];
  }

  async function publish(device: DeviceRow, row: CommandRow): Promise<CommandRow> {
    await devices.markSent(await publishInOrder(device, await withEarlier(device, row)));
    return (await devices.command(row.id)) ?? row;
  }

  /** What a finished command changes on our side. Runs in the transaction that records the result. */
  async function applyDone(row: CommandRow, q: Queryable): Promise<void> {
    const payload = row.payload as { on?: boolean };
    const result = row.result ?? {};
    switch (row.type) {
      case 'lock':
      case 'unlock':
        await devices.setLockStatus(row.customer_id, row.type === 'lock', q);
        await devices.report(row.device_id, { locked: row.type === 'lock' }, false, q);
        return;
      case 'uninstall':
      case 'uninstall_antitheft':
        await devices.release(row.device_id, q);
        await devices.setInstallStatus(row.customer_id, INSTALL_STATUS.uninstall, q);
        await devices.setLockStatus(row.customer_id, false, q);
        return;
      case 'unclaim':
        await devices.release(row.device_id, q);
        await devices.setLockStatus(row.customer_id, false, q);
        return;
      case 'fetch_location':
        if (result.location) await devices.report(row.device_id, { location: result.location }, false, q);
        return;
      case 'sim_info':
        if (Array.isArray(result.sims)) {
          await devices.report(row.device_id, { sims: result.sims }, false, q);
          await devices.setSims(row.device_id, result.sims as Sim[], q);
        }
        return;
      case 'sim_tracking_online':
      case 'sim_tracking_offline':
        await devices.report(row.device_id, { [row.type]: (row.payload as { command: string }).command.endsWith('ON') }, false, q);
        return;
      default:
        if (typeof payload.on === 'boolean') {
          await q.query(`UPDATE devices SET reported = jsonb_set(reported, '{toggles}', coalesce(reported -> 'toggles', '{}') || jsonb_build_object($2::text, $3::boolean)) WHERE id = $1`, [row.device_id, row.type, payload.on]);
        }
    }
  }

  /**
   * Records a phone's report on a command and what it changes, in one transaction; `guard` runs first in
   * that transaction (taking the event's number) and can refuse the report. Null when refused.
   */
  async function advance(deviceId: string, commandId: string, state: 'delivered' | 'done' | 'failed', result: unknown, guard?: (tx: Queryable) => Promise<boolean>): Promise<CommandRow | undefined | null> {
    const outcome = await db.transaction(async (tx) => {
      if (guard && !(await guard(tx))) return null;
      const row = await devices.advance(deviceId, commandId, state, result, tx);
      if (row?.state === 'done') await applyDone(row, tx);
      return { row };
    });
    if (outcome?.row?.state === 'done' && RELEASING.has(outcome.row.type) && deps.onRelease) {
      await deps.onRelease(deviceId).catch((error: unknown) => deps.log('removing the broker account failed', error));
    }
    return outcome ? outcome.row : null;
  }

  /** An offline log entry that changes the lock state counts as the phone's confirmation. */
  async function applyLog(device: DeviceRow, entries: OfflineLogEntry[], q: Queryable): Promise<number> {
    const fresh = await devices.addLog(device, entries, q);
    const last = [...fresh].reverse().find((e) => LOCKING_LOG.has(e.kind) || UNLOCKING_LOG.has(e.kind));
    // A code used before the latest confirmed lock or unlock does not undo it.
    const confirmed = last ? await devices.lastLockConfirmed(device.id, q) : null;
    if (last && (!confirmed || Date.parse(last.at) > confirmed.getTime())) {
      const locked = LOCKING_LOG.has(last.kind);
      await devices.setLockStatus(device.customer_id, locked, q);
      await devices.report(device.id, { locked }, false, q);
    }
    return fresh.length;
  }

  const eventChains = new Map<string, Promise<void>>();

  async function handleEvent(deviceId: string, text: string): Promise<'taken' | 'ignored'> {
    const device = await devices.device(deviceId);
    if (!device) return 'ignored';
    const event = unseal<DeviceEvent>(device.offline_secret, text);
    if (!event || event.v !== 1 || !Number.isSafeInteger(event.n) || event.n < 1) return 'ignored';
    if (event.kind === 'ack' && typeof event.id === 'string' && ['delivered', 'done', 'failed'].includes(event.state)) {
      // The event number is taken in the transaction that records the result: a failure leaves it to come again.
      const outcome = await advance(device.id, event.id, event.state, event.result, (tx) => devices.takeEventNumber(device.id, event.n, tx));
      return outcome === null ? 'ignored' : 'taken';
    }
    if (event.kind === 'sim_change' && Array.isArray(event.new)) {
      if (!(await devices.takeEventNumber(device.id, event.n))) return 'ignored';
      await channel.onSimChange(device, event.old ?? [], event.new, event.location ?? null, event.at);
      return 'taken';
    }
    return 'ignored';
  }

  const channel = {
    /** Writes a command (or finds the one under way) inside `q`'s transaction; publish it after commit. */
    async write(request: IssueRequest, q: Queryable): Promise<{ row: CommandRow; fresh: boolean }> {
      if (request.dedupe !== false) {
        const pending = await devices.pendingCommand(request.device.id, request.type, request.payload, q);
        if (pending) return { row: pending, fresh: false };
      }
      const row = await devices.createCommand({
        id: randomUUID(), device_id: request.device.id, customer_id: request.device.customer_id, account_id: request.device.account_id,
        type: request.type, payload: request.payload, created_by: request.createdBy, ttl_minutes: request.ttlMinutes ?? DEFAULT_TTL_MINUTES,
        origin: request.origin, batch_id: request.batchId ?? null,
      }, q);
      return { row, fresh: true };
    },

    /** Publishes a freshly written command; a broker that is down leaves it queued for the sweeper. */
    async publish(device: DeviceRow, row: CommandRow): Promise<CommandRow> {
      try {
        return await publish(device, row);
      } catch (error) {
        deps.log('command publish failed; the sweeper will retry', error);
        return row;
      }
    },

    /** Publishes many written commands (a bulk batch), a few devices at a time, each device's in seq order; marks them sent in one statement. */
    async publishMany(items: { device: DeviceRow; row: CommandRow }[], inFlight = PUBLISH_IN_FLIGHT): Promise<void> {
      const queued = await devices.queuedUpTo(items.map((i) => i.device.id));
      const earlier = new Map<string, CommandRow[]>();
      for (const c of queued) earlier.set(c.device_id, [...(earlier.get(c.device_id) ?? []), c]);
      const sent: string[] = [];
      let next = 0;
      const worker = async () => {
        while (next < items.length) {
          const { device, row } = items[next++]!;
          const rows = [...(earlier.get(device.id) ?? []).filter((c) => c.seq < row.seq), row];
          try {
            sent.push(...(await publishInOrder(device, rows)));
          } catch (error) {
            deps.log('command publish failed; the sweeper will retry', error);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(inFlight, items.length) }, worker));
      await devices.markSent(sent);
    },

    async issue(request: IssueRequest): Promise<CommandRow> {
      const { row, fresh } = await db.transaction((tx) => channel.write(request, tx));
      return fresh ? channel.publish(request.device, row) : row;
    },

    /** Publishes commands left queued (by a crash between commit and publish) and expires old ones. */
    async sweep(olderThanSeconds = 5): Promise<{ republished: number; expired: number }> {
      const expired = (await devices.expire()).length;
      let republished = 0;
      const byDevice = new Map<string, CommandRow[]>();
      for (const row of await devices.unpublished(olderThanSeconds, 500)) byDevice.set(row.device_id, [...(byDevice.get(row.device_id) ?? []), row]);
      for (const [deviceId, rows] of byDevice) {
        const device = await devices.device(deviceId);
        if (!device) continue;
        try {
          const sent = await publishInOrder(device, rows);
          await devices.markSent(sent);
          republished += sent.length;
        } catch (error) {
          deps.log('sweeper publish failed', error);
          break;
        }
      }
      return { republished, expired };
    },

    /** A phone's sealed event on its own topic. Forged, replayed and unknown messages are dropped. */
    async onEvent(topic: string, text: string): Promise<'taken' | 'ignored'> {
      const deviceId = deviceIdOfEventTopic(topic);
      if (!deviceId) return 'ignored';
      // One device's events are handled one after another, in the order the broker delivered them.
      const previous = eventChains.get(deviceId) ?? Promise.resolve();
      const handled = previous.then(() => handleEvent(deviceId, text), () => handleEvent(deviceId, text));
      const tail = handled.then(() => undefined, () => undefined);
      eventChains.set(deviceId, tail);
      void tail.then(() => {
        if (eventChains.get(deviceId) === tail) eventChains.delete(deviceId);
      });
      return handled;
    },

    /** A phone's report that came by another road than its event topic (Apple MDM's connect endpoint): the same forward-only advance. */
    report: async (deviceId: string, commandId: string, state: 'delivered' | 'done' | 'failed', result?: unknown): Promise<CommandRow | undefined> => (await advance(deviceId, commandId, state, result)) ?? undefined,

    /** Set by the devices service: what a SIM change means (record it, maybe lock). */
    onSimChange: async (_device: DeviceRow, _old: Sim[], _new: Sim[], _location: unknown, _at: string): Promise<void> => undefined,

    /** HTTPS check-in: record what the phone says, take its offline log, answer with what it should do. */
    async checkIn(device: DeviceRow, body: CheckInBody): Promise<CheckInReply> {
      const policy = await devices.orgPolicy(device.org_id);
      await db.transaction(async (tx) => {
        const reported: Record<string, unknown> = { locked: body.locked };
        for (const key of ['battery', 'app_version', 'sims', 'location'] as const) if (body[key] !== undefined && body[key] !== null) reported[key] = body[key];
        await devices.report(device.id, reported, true, tx);
        if (body.log?.length) await applyLog(device, body.log, tx);
      });
      const open = await devices.openAbove(device.id, body.last_seq);
      const customer = (await db.query<{ lock_status: number }>('SELECT lock_status FROM customers WHERE id = $1', [device.customer_id])).rows[0]!;
      // The latest lock or unlock not yet confirmed decides, even one the phone has already carried out (its
      // report may still be on the way): otherwise the answer could undo a lock the phone has just applied.
      const lastLockCommand = await devices.openLockCommand(device.id);
      const locked = lastLockCommand ? lastLockCommand.type === 'lock' : customer.lock_status === 1;
      // Commands the phone has not acknowledged yet count as sent once they go out with this answer.
      await devices.markSent(open.filter((row) => row.state === 'queued').map((row) => row.id));
      return {
        desired: { locked, lock_screen: locked ? await deps.lockScreen(device.customer_id) : null },
        commands: open.map((row) => seal(device.offline_secret, toMessage(row))),
        next_check_in_seconds: deps.checkInSeconds,
        offline_lock_days: policy.offline_lock_days,
        org_name: policy.name,
        server_time: new Date().toISOString(),
        want_location: device.want_location,
      };
    },

    async uploadLog(device: DeviceRow, entries: OfflineLogEntry[]): Promise<number> {
      return db.transaction((tx) => applyLog(device, entries, tx));
    },
  };
  return channel;
}
export type CommandChannel = ReturnType<typeof createCommandChannel>;
