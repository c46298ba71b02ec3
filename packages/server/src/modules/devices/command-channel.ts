/**
 * The command channel (docs/device-protocol.md): commands are written first and published after commit,
 * sealed under the device's secret; phones answer with sealed events on their own topic and check in over
 * HTTPS. A sweeper publishes what a crash left unpublished and expires what is too old.
 */
import { randomUUID } from 'node:crypto';
import { INSTALL_STATUS } from '@kisht/domain/constants';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { FAMILY_LIMITS, RELEASE_ACTIONS, type AppUsage, type CheckInBody, type CheckInReply, type CommandMessage, type DeviceEvent, type LockScreen, type OfflineLogEntry, type Sim } from '@kisht/protocol/messages';
import { seal, unseal } from '@kisht/protocol/signing';
import { deviceIdOfEventTopic } from '@kisht/protocol/topics';
import type { Database, Queryable } from '../../db/database.ts';
import type { CheckInState, CommandRow, DeviceRow, DevicesRepository } from './devices.repository.ts';
import type { Notify } from '../events/events.bus.ts';
import { createNotificationsRepository } from '../notifications/notifications.repository.ts';
import { groupRunner, type Settled } from '../../shared/groups.ts';

/** How far back a usage report may name its day: a phone offline for a week still reports its days. */
export const USAGE_DAYS_BACK = 8;

/**
 * A family-care usage report as the protocol bounds it (revision 5): an India day from USAGE_DAYS_BACK days ago to
 * tomorrow (a phone's clock a little ahead), at most 100 apps, each with 0-86,400 seconds and no more than a day in
 * all; anything else is ignored as a malformed event. An app named twice counts once (its last line).
 */
export function usageReport(event: { day?: unknown; apps?: unknown }, today: string): { day: string; apps: AppUsage[] } | null {
  if (typeof event.day !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(event.day) || Number.isNaN(Date.parse(`${event.day}T00:00:00Z`))) return null;
  if (new Date(`${event.day}T00:00:00Z`).toISOString().slice(0, 10) !== event.day) return null;
  if (event.day < addDays(today, -USAGE_DAYS_BACK) || event.day > addDays(today, 1)) return null;
  if (!Array.isArray(event.apps) || event.apps.length > FAMILY_LIMITS.usageApps) return null;
  const apps = new Map<string, number>();
  for (const line of event.apps as unknown[]) {
    const { app, seconds } = (line ?? {}) as { app?: unknown; seconds?: unknown };
    if (typeof app !== 'string' || app.length < 1 || app.length > FAMILY_LIMITS.appName || !Number.isInteger(seconds) || (seconds as number) < 0 || (seconds as number) > 86_400) return null;
    apps.set(app, seconds as number);
  }
  if ([...apps.values()].reduce((sum, seconds) => sum + seconds, 0) > 86_400) return null;
  return { day: event.day, apps: [...apps].map(([app, seconds]) => ({ app, seconds })) };
}

/** Commands whose failure or expiry the shop is told of: its own actions, and what a SIM change set off. */
const TOLD_ORIGINS = new Set(['retailer', 'sim_change']);

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
/** A command sent but not confirmed after this long is published again. */
export const UNCONFIRMED_REPUBLISH_SECONDS = 60;
/** Publishes a bulk batch keeps waiting for the broker's acknowledgement at once. */
export const PUBLISH_IN_FLIGHT = 64;
/** Reports taken in one transaction at most (more wait for the next group). */
export const REPORT_GROUP_MAX = 500;
/** How long a device row read for its reports is used before it is read again (a release on this node drops it at once). */
const DEVICE_CACHE_MS = 60_000;
const DEVICE_CACHE_ENTRIES = 50_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STEP_RANK = { delivered: 1, done: 2, failed: 2 } as const;
const ENDED = new Set(['done', 'failed']);

interface AckReport { device: DeviceRow; n: number; id: string; state: 'delivered' | 'done' | 'failed'; result: unknown }

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

/** Whether two JSON values are the same, object keys in any order (jsonb keeps its own order). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
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
  /** Server events (modules/events): open screens hear that commands moved. */
  notify?: Notify;
}) {
  const { db, devices } = deps;
  const notices = createNotificationsRepository(db);

  // events: the customers whose commands moved, their batches, and the profile when a lock or removal settled.
  function changed(rows: readonly CommandRow[]): void {
    if (!deps.notify || rows.length === 0) return;
    deps.notify({ type: 'device_command', customer_ids: [...new Set(rows.map((r) => r.customer_id))] });
    const settled = rows.filter((r) => r.state === 'done' && (r.type === 'lock' || r.type === 'unlock' || RELEASING.has(r.type)));
    if (settled.length > 0) deps.notify({ type: 'customer', customer_ids: [...new Set(settled.map((r) => r.customer_id))] });
    for (const batch of new Set(rows.flatMap((r) => (r.batch_id ? [r.batch_id] : [])))) deps.notify({ type: 'batch', id: batch });
    const offers = rows.filter((r) => r.type === 'offer').map((r) => r.id);
    if (offers.length > 0) channel.onOffersMoved(offers);
  }

  /**
   * Publishes `rows` of one device in seq order, each sealed, then marks them sent. The phone takes each seq
   * once and ignores older ones, so a device's commands must leave in order: whoever publishes a command
   * first publishes the same device's earlier commands still queued (a second copy is harmless).
   */
  /** Commands by device, each device's in the order given. */
  function groupByDevice(rows: CommandRow[]): Map<string, CommandRow[]> {
    const byDevice = new Map<string, CommandRow[]>();
    for (const row of rows) byDevice.set(row.device_id, [...(byDevice.get(row.device_id) ?? []), row]);
    return byDevice;
  }

  async function publishInOrder(device: DeviceRow, rows: CommandRow[]): Promise<string[]> {
    // Its reports follow: they find the row in the cache instead of each reading it again.
    remember(device);
    const sent: string[] = [];
    for (const row of rows) {
      await deps.transport(device, seal(device.offline_secret, toMessage(row)), row);
      sent.push(row.id);
    }
    return sent;
  }

  /**
   * Publishes each device's commands in seq order, `inFlight` devices at a time; the ids it sent. A device
   * whose publish fails keeps the rest for the sweeper; with `stopOnFailure` (the broker is likely away) no
   * further device is tried.
   */
  async function publishGroups(groups: Array<{ device: DeviceRow; rows: CommandRow[] }>, inFlight: number, stopOnFailure: boolean): Promise<string[]> {
    const sent: string[] = [];
    let next = 0;
    let stopped = false;
    const worker = async () => {
      while (next < groups.length && !stopped) {
        const { device, rows } = groups[next++]!;
        try {
          sent.push(...(await publishInOrder(device, rows)));
        } catch (error) {
          deps.log('command publish failed; the sweeper will retry', error);
          stopped = stopOnFailure;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(inFlight, groups.length) }, worker));
    return sent;
  }

  /** The device's queued commands up to and including `row`, in seq order. */
  async function withEarlier(device: DeviceRow, row: CommandRow): Promise<CommandRow[]> {
    const queued = (await devices.queuedUpTo([device.id])).filter((c) => c.seq < row.seq);
    return [...queued, row];
  }

  async function publish(device: DeviceRow, row: CommandRow): Promise<CommandRow> {
    await devices.markSent(await publishInOrder(device, await withEarlier(device, row)));
    changed([row]); // events
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
      const row = await advanceIn(deviceId, commandId, state, result, tx);
      return { row, told: row ? await tellEnds([row], tx) : [] };
    });
    if (outcome?.row) afterCommit([outcome.row]);
    if (outcome) told(outcome.told);
    return outcome ? outcome.row : null;
  }

  /**
   * A command the shop asked for (or a SIM change set off) that failed on the phone or expired before reaching it:
   * its seller and those above are told, in the transaction that records it (issue 14). A schedule's, the dues
   * policy's or a bulk batch's have their own screens. Answers the members told.
   */
  async function tellEnds(rows: readonly CommandRow[], tx: Queryable): Promise<number[]> {
    const users = new Set<number>();
    for (const row of rows) {
      if ((row.state !== 'failed' && row.state !== 'expired') || !TOLD_ORIGINS.has(row.origin)) continue;
      const error = typeof row.result?.error === 'string' ? row.result.error.slice(0, 200) : null;
      for (const id of await notices.aboutCustomer(row.customer_id, row.state === 'failed' ? 'command_failed' : 'command_expired', { command: row.type, error }, tx)) users.add(id);
    }
    return [...users];
  }

  function told(userIds: readonly number[]): void {
    if (userIds.length > 0) deps.notify?.({ type: 'notification', user_ids: [...userIds] }); // events
  }

  /** The forward-only step and what a finished command changes, inside the caller's transaction. */
  async function advanceIn(deviceId: string, commandId: string, state: 'delivered' | 'done' | 'failed', result: unknown, tx: Queryable): Promise<CommandRow | undefined> {
    const row = await devices.advance(deviceId, commandId, state, result, tx);
    if (row?.state === 'done') await applyDone(row, tx);
    return row;
  }

  /**
   * Work that may only follow a committed result: a released phone's broker account goes. Not awaited: a report
   * is acknowledged once recorded, and the broker's answer about the account may be queued behind it.
   */
  function afterCommit(rows: readonly CommandRow[]): void {
    changed(rows); // events
    for (const row of rows) {
      if (row.state === 'done' && RELEASING.has(row.type)) {
        deviceCache.delete(row.device_id);
        deps.onRelease?.(row.device_id).catch((error: unknown) => deps.log('removing the broker account failed', error));
      }
    }
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

  // The phones' reports on their event topics ------------------------------------------------------------------

  /**
   * Active devices by id for reading reports, kept DEVICE_CACHE_MS: a report needs the device's secret before
   * anything else. A stale entry is harmless: the transaction that takes a report checks the device is still
   * active, and a report that does not open under the cached secret is tried once against a fresh read.
   */
  const deviceCache = new Map<string, { device: DeviceRow; until: number }>();
  function cacheDevice(device: DeviceRow): void {
    deviceCache.delete(device.id);
    if (deviceCache.size >= DEVICE_CACHE_ENTRIES) deviceCache.delete(deviceCache.keys().next().value!);
    deviceCache.set(device.id, { device, until: Date.now() + DEVICE_CACHE_MS });
  }
  /** A row just read to publish to the device, kept unless a live one is there. */
  function remember(device: DeviceRow): void {
    const cached = deviceCache.get(device.id);
    if (!cached || cached.until <= Date.now()) cacheDevice(device);
  }

  /**
   * Reads of devices missing from the cache, gathered until the event loop turns and made in one statement:
   * after a restart, or when a bulk command goes out, thousands of phones report within the same second.
   */
  type WaitingReads = Map<string, Array<{ resolve: (device: DeviceRow | undefined) => void; reject: (error: unknown) => void }>>;
  let waitingReads: WaitingReads | null = null;
  function readDevice(deviceId: string): Promise<DeviceRow | undefined> {
    if (!waitingReads) {
      const reads: WaitingReads = new Map();
      waitingReads = reads;
      setImmediate(() => {
        waitingReads = null;
        devices.devicesByIds([...reads.keys()]).then((rows) => {
          const byId = new Map(rows.map((row) => [row.id, row]));
          for (const [id, waiting] of reads) for (const one of waiting) one.resolve(byId.get(id));
        }, (error: unknown) => {
          for (const waiting of reads.values()) for (const one of waiting) one.reject(error);
        });
      });
    }
    const reads = waitingReads;
    return new Promise((resolve, reject) => {
      const waiting = reads.get(deviceId);
      if (waiting) waiting.push({ resolve, reject });
      else reads.set(deviceId, [{ resolve, reject }]);
    });
  }

  async function deviceFor(deviceId: string, fresh = false): Promise<DeviceRow | undefined> {
    const cached = deviceCache.get(deviceId);
    if (!fresh && cached && cached.until > Date.now()) return cached.device;
    const device = await readDevice(deviceId);
    if (device) cacheDevice(device);
    else deviceCache.delete(deviceId);
    return device;
  }

  async function openEvent(deviceId: string, text: string): Promise<{ device: DeviceRow; event: DeviceEvent } | null> {
    for (const fresh of [false, true]) {
      const device = await deviceFor(deviceId, fresh);
      if (!device) return null;
      const event = unseal<DeviceEvent>(device.offline_secret, text);
      if (event) return { device, event };
    }
    return null;
  }

  /**
   * Command reports (acks) taken in groups: one transaction takes each report's event number (in the order they
   * came, so a replayed or older number is refused as before), moves each command to the furthest state reported
   * (delivered and done arriving together write done once), and applies what finished commands change, with
   * set-based statements for locks and unlocks. A group that fails for any reason is taken again one report at a
   * time, so one bad report cannot hold back the others and an outage fails each report on its own.
   */
  async function takeAcks(reports: AckReport[]): Promise<Array<Settled<'taken' | 'ignored'>>> {
    if (reports.length > 1) {
      try {
        return (await takeAckGroup(reports)).map((value) => ({ ok: true, value }));
      } catch (error) {
        deps.log('a group of device reports failed; taking them one by one', error);
      }
    }
    const settled: Array<Settled<'taken' | 'ignored'>> = [];
    for (const report of reports) {
      try {
        const outcome = await advance(report.device.id, report.id, report.state, report.result, (tx) => devices.takeEventNumber(report.device.id, report.n, tx));
        settled.push({ ok: true, value: outcome === null ? 'ignored' : 'taken' });
      } catch (error) {
        settled.push({ ok: false, error });
      }
    }
    return settled;
  }

  async function takeAckGroup(reports: AckReport[]): Promise<Array<'taken' | 'ignored'>> {
    const { taken, rows, tellUsers } = await db.transaction(async (tx) => {
      const highest = await devices.lockEventNumbers([...new Set(reports.map((r) => r.device.id))].sort(), tx);
      const raised = new Map<string, number>();
      const taken = reports.map((r) => {
        const last = highest.get(r.device.id);
        if (last === undefined || r.n <= last) return false;
        highest.set(r.device.id, r.n);
        raised.set(r.device.id, r.n);
        return true;
      });
      await devices.raiseEventNumbers(raised, tx);
      // Per command, the furthest state its phone reported, in the order reports came; an end state is final. (A
      // command named by another phone is its own entry, which the statement below matches to nothing.)
      const steps = new Map<string, { id: string; deviceId: string; state: AckReport['state']; result: unknown; at: number }>();
      const key = (deviceId: string, id: string) => `${deviceId} ${id}`;
      reports.forEach((r, at) => {
        if (!taken[at]) return;
        const before = steps.get(key(r.device.id, r.id));
        if (before && (ENDED.has(before.state) || STEP_RANK[r.state] <= STEP_RANK[before.state])) return;
        steps.set(key(r.device.id, r.id), { id: r.id, deviceId: r.device.id, state: r.state, result: r.result ?? before?.result ?? null, at });
      });
      const moved = (await devices.advanceMany([...steps.values()], tx))
        .sort((a, b) => steps.get(key(a.device_id, a.id))!.at - steps.get(key(b.device_id, b.id))!.at);
      // Locks and unlocks done: the last one per customer decides, in one statement for all.
      const lockDone = new Map<number, { customerId: number; deviceId: string; locked: boolean }>();
      for (const row of moved) {
        if (row.state === 'done' && (row.type === 'lock' || row.type === 'unlock')) {
          lockDone.delete(row.customer_id);
          lockDone.set(row.customer_id, { customerId: row.customer_id, deviceId: row.device_id, locked: row.type === 'lock' });
        }
      }
      await devices.setLockStatuses([...lockDone.values()], tx);
      // Anything else that finished (a release, a location, a SIM list, a toggle) as for a single report.
      for (const row of moved) if (row.state === 'done' && row.type !== 'lock' && row.type !== 'unlock') await applyDone(row, tx);
      return { taken, rows: moved, tellUsers: await tellEnds(moved, tx) };
    });
    afterCommit(rows);
    told(tellUsers);
    groupStats.groups++;
    groupStats.reports += reports.length;
    return taken.map((t) => (t ? 'taken' : 'ignored'));
  }

  const ackGroups = groupRunner(takeAcks, REPORT_GROUP_MAX);
  /** Groups of more than one report taken in one transaction, and the reports in them. */
  const groupStats = { groups: 0, reports: 0 };
  /** Per device, its last report handed on (to the ack groups or taken on its own), so the next waits its turn. */
  const eventChains = new Map<string, Promise<void>>();
  /** Per device, the outcome of its last report waiting in the ack groups. */
  const queuedAck = new Map<string, Promise<'taken' | 'ignored'>>();

  /**
   * Reads one report and hands it on. Resolves with a promise of its outcome once the report is in line: a
   * device's next report may then be read while this one waits in its group.
   */
  async function readEvent(deviceId: string, text: string): Promise<{ outcome: Promise<'taken' | 'ignored'> }> {
    const opened = await openEvent(deviceId, text);
    if (!opened) return { outcome: Promise.resolve('ignored') };
    const { device, event } = opened;
    if (event.v !== 1 || !Number.isSafeInteger(event.n) || event.n < 1) return { outcome: Promise.resolve('ignored') };
    if (event.kind === 'ack' && typeof event.id === 'string' && UUID.test(event.id) && ['delivered', 'done', 'failed'].includes(event.state)) {
      const outcome = ackGroups.push({ device, n: event.n, id: event.id, state: event.state, result: event.result });
      queuedAck.set(device.id, outcome);
      const forget = () => {
        if (queuedAck.get(device.id) === outcome) queuedAck.delete(device.id);
      };
      outcome.then(forget, forget);
      return { outcome };
    }
    if (event.kind === 'sim_change' && Array.isArray(event.new)) {
      // The number is taken in the transaction that records the change; the device's earlier reports go first.
      await queuedAck.get(device.id)?.catch(() => undefined);
      const taken = await channel.onSimChange(device, event.old ?? [], event.new, event.location ?? null, event.at, (tx) => devices.takeEventNumber(device.id, event.n, tx));
      return { outcome: Promise.resolve(taken ? 'taken' : 'ignored') };
    }
    if (event.kind === 'offers_opt_out' && typeof event.opted_out === 'boolean') {
      await queuedAck.get(device.id)?.catch(() => undefined);
      const taken = await db.transaction(async (tx) => {
        if (!(await devices.takeEventNumber(device.id, event.n, tx))) return false;
        await devices.setOffers(device.id, { optedOut: event.opted_out }, tx);
        return true;
      });
      return { outcome: Promise.resolve(taken ? 'taken' : 'ignored') };
    }
    if (event.kind === 'usage') {
      const usage = usageReport(event, todayInIndia());
      if (!usage) return { outcome: Promise.resolve('ignored') };
      await queuedAck.get(device.id)?.catch(() => undefined);
      const taken = await db.transaction(async (tx) => {
        if (!(await devices.takeEventNumber(device.id, event.n, tx))) return false;
        await channel.onUsage(device, usage.day, usage.apps, tx);
        return true;
      });
      if (taken) deps.notify?.({ type: 'family_usage', customer_ids: [device.customer_id] }); // events
      return { outcome: Promise.resolve(taken ? 'taken' : 'ignored') };
    }
    return { outcome: Promise.resolve('ignored') };
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
      const earlier = groupByDevice(await devices.queuedUpTo(items.map((i) => i.device.id)));
      const groups = items.map(({ device, row }) => ({ device, rows: [...(earlier.get(device.id) ?? []).filter((c) => c.seq < row.seq), row] }));
      await devices.markSent(await publishGroups(groups, inFlight, false));
      changed(items.map((i) => i.row)); // events
    },

    async issue(request: IssueRequest): Promise<CommandRow> {
      const { row, fresh } = await db.transaction((tx) => channel.write(request, tx));
      return fresh ? channel.publish(request.device, row) : row;
    },

    /**
     * Publishes commands left queued (by a crash between commit and publish), publishes again those sent but
     * not confirmed for `unconfirmedSeconds` (the phone answers one it already carried out with its outcome),
     * and expires old ones.
     */
    async sweep(olderThanSeconds = 5, unconfirmedSeconds = UNCONFIRMED_REPUBLISH_SECONDS): Promise<{ republished: number; expired: number; repeated: number }> {
      const { expiredRows, tellUsers } = await db.transaction(async (tx) => {
        const expiredRows = await devices.expire(tx);
        return { expiredRows, tellUsers: await tellEnds(expiredRows, tx) };
      });
      changed(expiredRows); // events
      told(tellUsers);
      const expired = expiredRows.length;
      const publishAll = async (rows: CommandRow[], mark: (ids: string[]) => Promise<void>): Promise<number> => {
        const byDevice = groupByDevice(rows);
        const found = await devices.devicesByIds([...byDevice.keys()]);
        const sent = await publishGroups(found.map((device) => ({ device, rows: byDevice.get(device.id)! })), PUBLISH_IN_FLIGHT, true);
        await mark(sent);
        return sent.length;
      };
      const republished = await publishAll(await devices.unpublished(olderThanSeconds, 500), (ids) => devices.markSent(ids));
      const repeated = await publishAll(await devices.unconfirmed(unconfirmedSeconds, 500), (ids) => devices.markRepublished(ids));
      return { republished, expired, repeated };
    },

    /** How many reports went in shared transactions, and in how many (for tests and benchmarks). */
    groupStats: () => ({ ...groupStats }),

    /** A phone's sealed event on its own topic. Forged, replayed and unknown messages are dropped. */
    async onEvent(topic: string, text: string): Promise<'taken' | 'ignored'> {
      const deviceId = deviceIdOfEventTopic(topic);
      if (!deviceId) return 'ignored';
      // One device's events are handed on one after another, in the order the broker delivered them: a report
      // once it is in its group's queue (groups are applied in order), a SIM change once it is taken.
      const previous = eventChains.get(deviceId) ?? Promise.resolve();
      const read = previous.then(() => readEvent(deviceId, text));
      const tail = read.then(() => undefined, () => undefined);
      eventChains.set(deviceId, tail);
      void tail.then(() => {
        if (eventChains.get(deviceId) === tail) eventChains.delete(deviceId);
      });
      return (await read).outcome;
    },

    /** A phone's report that came by another road than its event topic (Apple MDM's connect endpoint): the same forward-only advance. */
    report: async (deviceId: string, commandId: string, state: 'delivered' | 'done' | 'failed', result?: unknown): Promise<CommandRow | undefined> => (await advance(deviceId, commandId, state, result)) ?? undefined,

    /** Set by the devices service: what a SIM change means (record it, maybe lock). */
    onSimChange: async (_device: DeviceRow, _old: Sim[], _new: Sim[], _location: unknown, _at: string, _take: (tx: Queryable) => Promise<boolean>): Promise<boolean> => false,
    /** Set by the offers service: offer commands moved (shown, opened, refused, expired), so their campaigns' screens refresh. */
    onOffersMoved: (_commandIds: string[]): void => undefined,
    /** Set by family care: records a day's usage report in the transaction that took its number. */
    onUsage: async (_device: DeviceRow, _day: string, _apps: AppUsage[], _tx: Queryable): Promise<void> => undefined,

    /**
     * HTTPS check-in: record what the phone says, take its offline log, answer with what it should do. `device` is
     * the row as just read (the device's credentials are checked against it): what the phone reports is compared
     * with it. A check-in that brings nothing new (the usual one: nothing the phone finished is still open here,
     * and its screen agrees with the customer's lock status) writes only its time, in one statement and no
     * transaction, and one that brings a new battery level or location writes it in one statement too.
     */
    async checkIn(device: DeviceRow, body: CheckInBody): Promise<CheckInReply> {
      // Offers: the customer's choice and the push token, written only when they differ from what is stored.
      const optedOut = body.offers_opt_out !== undefined && body.offers_opt_out !== device.offers_opt_out ? body.offers_opt_out : undefined;
      const pushToken = body.push_token !== undefined && body.push_token !== device.push_token ? body.push_token : undefined;
      if (optedOut !== undefined || pushToken !== undefined) await devices.setOffers(device.id, { ...(optedOut !== undefined ? { optedOut } : {}), ...(pushToken !== undefined ? { pushToken } : {}) });
      const reported: Record<string, unknown> = { locked: body.locked };
      for (const key of ['battery', 'app_version', 'sims', 'location'] as const) if (body[key] !== undefined && body[key] !== null) reported[key] = body[key];
      // Outcomes the phone recorded: a report lost on its way (a server or broker that went down) is taken here.
      const recent = (body.recent ?? []).filter((outcome) => outcome.seq <= body.last_seq);
      let state = await devices.checkInState(device, body.last_seq, [...new Set(recent.map((o) => o.id))]);
      // With no lock or unlock still on its way, the phone's own screen is the truth (a self-lock is not the retailer's
      // lock), unless this check-in is older than a lock or unlock the phone has since confirmed (it came late).
      const screenDecides = (s: CheckInState) => !body.self_locked && !s.lockCommand && !s.lockDoneAbove;
      // An outcome of a command already finished here changes nothing (a finished command never moves again).
      const unsettled = new Set(state.unsettled);
      if (body.log?.length || unsettled.size > 0 || (screenDecides(state) && state.lockStatus !== (body.locked ? 1 : 0))) {
        const taken = await db.transaction(async (tx) => {
          await devices.report(device.id, reported, true, tx);
          if (body.log?.length) await applyLog(device, body.log, tx);
          const rows: CommandRow[] = [];
          for (const outcome of recent) {
            if (!unsettled.has(outcome.id)) continue;
            const row = await advanceIn(device.id, outcome.id, outcome.state, outcome.result, tx);
            if (row) rows.push(row);
          }
          // Read again after what this check-in finished; the answer is made from it too.
          const after = await devices.checkInState(device, body.last_seq, [], tx);
          if (screenDecides(after)) {
            await devices.setLockStatus(device.customer_id, body.locked, tx);
            after.lockStatus = body.locked ? 1 : 0;
          }
          return { rows, after };
        });
        afterCommit(taken.rows);
        state = taken.after;
      } else if (device.want_location || Object.entries(reported).some(([key, value]) => !sameJson(device.reported[key], value))) {
        await devices.report(device.id, reported, true);
      } else {
        await devices.checkedIn(device.id);
      }
      // events: the phone's own lock state (or a code in its log) may have moved the customer's
      if (device.reported.locked !== body.locked || body.log?.length) deps.notify?.({ type: 'customer', customer_ids: [device.customer_id] });
      const open = state.open;
      // The latest lock or unlock not yet confirmed decides, even one the phone has already carried out (its
      // report may still be on the way): otherwise the answer could undo a lock the phone has just applied.
      const locked = state.lockCommand ? state.lockCommand.type === 'lock' : state.lockStatus === 1;
      // Commands the phone has not acknowledged yet count as sent once they go out with this answer.
      await devices.markSent(open.filter((row) => row.state === 'queued').map((row) => row.id));
      return {
        desired: { locked, lock_screen: locked ? await deps.lockScreen(device.customer_id) : null },
        commands: open.map((row) => seal(device.offline_secret, toMessage(row))),
        next_check_in_seconds: deps.checkInSeconds,
        offline_lock_days: state.offlineLockDays,
        org_name: state.orgName,
        server_time: new Date().toISOString(),
        want_location: device.want_location,
      };
    },

    async uploadLog(device: DeviceRow, entries: OfflineLogEntry[]): Promise<number> {
      const fresh = await db.transaction((tx) => applyLog(device, entries, tx));
      if (fresh > 0) deps.notify?.({ type: 'customer', customer_ids: [device.customer_id] }); // events
      return fresh;
    },
  };
  return channel;
}
export type CommandChannel = ReturnType<typeof createCommandChannel>;
