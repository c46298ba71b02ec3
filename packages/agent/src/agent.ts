/**
 * The device agent: a phone that follows docs/device-protocol.md. It enrols from the retailer's QR, keeps an
 * MQTT session for commands, checks in over HTTPS, takes offline codes and locks itself when it has been
 * away from the server too long. Everything it must remember goes through a StateStore, so a reboot
 * (a new DeviceAgent on the same store) carries on where it stopped.
 */
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { seal, unseal } from '@kisht/protocol/signing';
import { SIM_TRACKING_COMMANDS } from '@kisht/domain/device-actions';
import { parseActivationCode } from '@kisht/domain/activation-code';
import { acceptOfflineCode, CODE_ATTEMPTS, lockoutSeconds, type CodePurpose } from '@kisht/protocol/offline-codes';
import {
  LOST_MODE_CHECK_IN_SECONDS, RECENT_OUTCOMES, RELEASE_ACTIONS, RING_SECONDS, TOGGLE_ACTIONS, type CheckInBody, type CheckInReply, type CommandMessage, type CommandResult,
  type CommandOutcomeRecord, type DeviceEvent, type OfflineLogEntry, type Sim, type ToggleAction,
} from '@kisht/protocol/messages';
import { validateFamilyRules, type AppVerdict } from '@kisht/protocol/family-rules';
import {
  activateProtection, checkIn, enrolDevice, fetchOfferImage, HttpError, NetworkDownError, requestPayOrder, sendPaymentClaim, type ClaimAnswer, type OfferImage,
  type PayOrder,
} from './device-api.ts';
import { parseEnrolmentPayload, type EnrolmentTarget } from './enrolment-payload.ts';
import { initialApps, initialState, type AppsState, type EmiAlert, type Identity, type OfferNotification, type PhoneState } from './state.ts';
import { findOffer, lockScreenUp, offerRefusal, readOffer, withOffer } from './offers.ts';
import { accrue, familyCareView, familyClock, takeDueReports, verdictNow, type FamilyCareView } from './family-care.ts';
import type { StateStore } from './store.ts';

/** How long a disconnect waits for the MQTT client to finish ending before it lets go of it. */
const END_WAIT_MS = 2000;

const DAY_MS = 86_400_000;
/** How soon a failed check-in is tried again. */
const CHECK_IN_RETRY_MS = 60_000;
/** How often a phone with an "I paid" claim waiting for the shop checks in to learn the decision. */
export const CLAIM_CHECK_IN_SECONDS = 60;

export interface AgentOptions {
  store: StateStore;
  /** The phone's clock in ms; tests move it forward to reach a self-lock. */
  now?: () => number;
  /** Overrides the broker URL the server gave at enrolment (the CLI's --mqtt). */
  mqttUrl?: string;
  /** Extra MQTT client options; fleet mode passes one shared object. */
  mqttOptions?: IClientOptions;
  /** Runs its own tick timer (default). Fleet mode passes false and ticks every phone from one timer. */
  timer?: boolean;
  tickMs?: number;
  /**
   * Spreads the check-in made on (re)connecting over a random delay of up to this many ms, so a server that
   * comes back is not met by every phone at once. Commands arriving meanwhile are carried out at once while
   * their seq follows on; one after a gap brings the check-in forward (it lists what is missing, in order).
   * Not applied when the phone is self-locked or has an offline log waiting. Default 0: at once.
   */
  connectCheckInSpreadMs?: number;
}

/** What snapshot() answers: the stored state, plus family care as the screen shows it (null without rules). */
export type PhoneSnapshot = PhoneState & { familyCare: FamilyCareView | null };

/**
 * `repeated`: a command already carried out came again; its recorded outcome was reported again. `delivered`: the
 * command is shown and waits for the customer (an offer), who finishes it later (`done`, source `customer`).
 */
export type CommandOutcome = 'done' | 'failed' | 'delivered' | 'repeated' | 'forged' | 'old' | 'expired' | 'unknown_version';

export interface CommandReport {
  outcome: CommandOutcome;
  source: 'mqtt' | 'check-in' | 'customer';
  seq?: number;
  type?: string;
  id?: string;
  error?: string;
}

export type CodeResult =
  | { ok: true; purpose: CodePurpose; counter: number }
  | { ok: false; reason: 'wrong'; attemptsLeft: number }
  | { ok: false; reason: 'locked_out'; until: number };

export interface AgentEvents {
  change: [];
  command: [CommandReport];
  connection: [boolean];
  /** deferred: the server was busy and said when to come back (503 with Retry-After); the next try is then. */
  'check-in': [{ ok: boolean; error?: string; deferred?: boolean }];
  code: [CodeResult];
  note: [string];
  released: [];
}

/** Why the security app could not activate its code, as the phone words it (phone.protection.problem.<reason>). */
export type ProtectionProblem = 'badCode' | 'badMobile' | 'unknown' | 'used' | 'expired' | 'revoked' | 'tooMany' | 'offline' | 'failed';

/** What the server's refusal of an activation means for the customer. */
function protectionProblem(error: unknown): ProtectionProblem {
  if (error instanceof NetworkDownError) return 'offline';
  if (!(error instanceof HttpError)) return 'offline';
  switch (error.code) {
    case 'ACTIVATION_CODE_INVALID': return 'badCode';
    case 'ACTIVATION_CODE_UNKNOWN': return 'unknown';
    case 'ACTIVATION_CODE_USED': return 'used';
    case 'ACTIVATION_CODE_EXPIRED': return 'expired';
    case 'ACTIVATION_CODE_REVOKED': return 'revoked';
    case 'RATE_LIMITED': return 'tooMany';
    default: return 'failed';
  }
}

class CommandFailure extends Error {}

/** What execute() answers for a command the customer finishes later: an offer shown, done once it is opened. */
/** A phone being released is open: no lock screen, no lock of its own, no warning that one is coming. */
function openForRelease(s: PhoneState): void {
  s.screen.locked = false;
  s.selfLocked = false;
  s.offlineWarning = false;
}

const AWAITS_CUSTOMER = Symbol('awaits the customer');

/** The MQTT URL to use: the server's, with a wildcard host replaced, or MQTT over WebSocket on the API host. */
export function resolveMqttUrl(given: string | undefined, server: string): string {
  const api = new URL(server);
  if (!given) return `${api.protocol === 'https:' ? 'wss' : 'ws'}://${api.host}/mqtt`;
  const url = new URL(given);
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]' || url.hostname === '::') url.hostname = api.hostname;
  return url.toString().replace(/\/$/, '');
}

export class DeviceAgent extends EventEmitter<AgentEvents> {
  private state: PhoneState | null;
  private client: MqttClient | null = null;
  private online = true;
  private connected = false;
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private nextCheckInAt = 0;
  private checkInRunning = false;
  /** The check-in on connecting is spread (connectCheckInSpreadMs) and has not run yet. */
  private connectCheckInDue = false;
  private queue: Promise<unknown> = Promise.resolve();
  private flushing = new WeakSet<MqttClient>();
  private outboxWaiters: Array<() => void> = [];
  /** The state changed since it was last written to the store. */
  private unsaved = false;
  private writeQueued = false;
  /** Counts start() calls, so a wait begun in one run ends with it. */
  private runs = 0;
  private releaseStarted = false;
  /** The last event number the store holds: an event leaves the phone only once it is stored. */
  private storedEventN = 0;
  /** What closed the phone to ordinary apps at the last tick, so the screen hears when that changes. */
  private familyBlockSeen = '';
  readonly now: () => number;
  /** Counters for fleet summaries. */
  readonly stats = { commandsDone: 0, commandsFailed: 0, checkIns: 0, connects: 0, offersShown: 0, offersOpened: 0 };

  constructor(private readonly options: AgentOptions) {
    super();
    this.now = options.now ?? Date.now;
    this.state = this.load();
    this.storedEventN = this.state?.lastEventN ?? 0;
  }

  /** The stored state; one saved by an older agent gets the fields it lacks. */
  private load(): PhoneState | null {
    const state = this.options.store.load();
    if (state && !Array.isArray(state.outcomes)) state.outcomes = [];
    // A phone starts on its home screen: whatever app was open before the power went is closed, its time counted up
    // to the last tick before.
    if (state?.apps) state.apps.foreground = null;
    return state;
  }

  // ---- reading ----

  get enrolled(): boolean {
    return this.state?.status === 'enrolled';
  }

  get isOnline(): boolean {
    return this.online;
  }

  get isConnected(): boolean {
    return this.connected;
  }

  /**
   * A copy of everything the phone knows, for screens and tests. Foreground time is counted up to now in the copy
   * (the agent's own count moves at its tick), so time left and today's usage are current.
   */
  snapshot(): PhoneSnapshot {
    if (!this.state) throw new Error('the phone has no state yet: enrol it first');
    const copy = structuredClone(this.state);
    let familyCare: FamilyCareView | null = null;
    if (copy.family) {
      const apps = copy.apps ?? initialApps(this.now());
      const now = familyClock(apps, this.now());
      accrue(apps, copy.family.rules, now);
      familyCare = familyCareView(apps, copy.family, now);
    }
    return { ...copy, familyCare };
  }

  private get s(): PhoneState {
    if (!this.state) throw new Error('the phone has no state yet: enrol it first');
    return this.state;
  }

  /**
   * Marks the state changed and tells the screen. The store is written once the current step is over (a
   * microtask), so the several changes of one command cost one write (a file replaced whole on a real phone);
   * an event is written before it is sent (see flushOutbox).
   */
  private save(): void {
    this.unsaved = true;
    if (!this.writeQueued) {
      this.writeQueued = true;
      queueMicrotask(() => {
        this.writeQueued = false;
        try {
          this.persist();
        } catch (error) {
          this.note(`state not stored yet: ${(error as Error).message}`);
        }
      });
    }
    this.emit('change');
  }

  /** Writes the state now if it changed since the last write; a failed write (a full disk) is tried again next time. */
  private persist(): void {
    if (!this.unsaved || !this.state) return;
    this.options.store.save(this.state);
    this.unsaved = false;
    this.storedEventN = this.state.lastEventN;
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }

  private note(text: string): void {
    this.emit('note', text);
  }

  // ---- enrolment ----

  /** Enrols from the QR text (DPC provisioning JSON or kisht:// link). */
  enrolFromQr(payload: string, identity: Identity, sims: Sim[] = []): Promise<void> {
    return this.enrol(parseEnrolmentPayload(payload), identity, sims);
  }

  async enrol(target: EnrolmentTarget, identity: Identity, sims: Sim[] = []): Promise<void> {
    if (!this.online) throw new NetworkDownError();
    const answer = await enrolDevice(target.server, {
      token: target.token, imei1: identity.imei1,
      ...(identity.imei2 ? { imei2: identity.imei2 } : {}),
      ...(identity.serial ? { serial_number: identity.serial } : {}),
      ...(sims.length ? { sims } : {}),
    });
    const state = initialState(identity, sims);
    state.status = 'enrolled';
    state.server = target.server;
    state.checkInSeconds = answer.check_in_seconds;
    state.credentials = {
      deviceId: answer.device_id,
      username: answer.mqtt.username,
      password: answer.mqtt.password,
      mqttUrl: this.options.mqttUrl ?? resolveMqttUrl(answer.mqtt.url, target.server),
      commandTopic: answer.mqtt.command_topic,
      eventTopic: answer.mqtt.event_topic,
      offlineSecret: answer.offline_secret,
    };
    this.state = state;
    this.save();
    this.persist();
  }

  // ---- running ----

  /** Connects to the broker (checking in on every connect) and starts the tick timer. */
  start(): void {
    if (!this.enrolled || this.running) return;
    this.running = true;
    this.runs++;
    this.nextCheckInAt = this.now();
    if (this.options.timer !== false) {
      this.timer = setInterval(() => this.tick(), this.options.tickMs ?? 1000);
      this.timer.unref();
    }
    this.connect();
    // A release the power cut short: the `done` it stored goes out first, then the credentials go.
    if (this.s.releasing) this.releaseOnceHeard();
  }

  /** Disconnects and stops the timer; the state stays in the store. Like a phone switched off, it closes the open app. */
  async stop(): Promise<void> {
    this.persist();
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.state?.apps?.foreground) this.closeApp();
    await this.disconnect();
  }

  /** Power cycle: stop, read the state back from the store, start again. */
  async reboot(): Promise<void> {
    await this.stop();
    this.state = this.load();
    this.emit('change');
    this.start();
  }

  /** Cuts all network: MQTT and HTTPS. */
  async goOffline(): Promise<void> {
    this.online = false;
    await this.disconnect();
    this.emit('change');
  }

  goOnline(): void {
    this.online = true;
    this.emit('change');
    if (this.running) this.connect();
  }

  private connect(): void {
    const creds = this.state?.credentials;
    if (!this.online || !creds || this.client || !this.running) return;
    const client = mqtt.connect(creds.mqttUrl, {
      reconnectPeriod: 2000,
      connectTimeout: 10_000,
      // A refusal (a server still starting, a broker that lost its accounts) is no reason to stop trying.
      reconnectOnConnackError: true,
      ...this.options.mqttOptions,
      clientId: creds.username,
      username: creds.username,
      password: creds.password,
      clean: false,
    });
    this.client = client;
    client.on('connect', () => {
      if (this.client !== client) return;
      this.connected = true;
      this.stats.connects++;
      this.emit('connection', true);
      this.emit('change');
      client.subscribe(creds.commandTopic, { qos: 1 }, (error) => {
        if (error) this.note(`subscribe failed: ${error.message}`);
      });
      void this.flushOutbox(client);
      const spread = this.options.connectCheckInSpreadMs ?? 0;
      if (spread > 0 && !this.s.selfLocked && this.s.log.length === 0) {
        this.connectCheckInDue = true;
        this.nextCheckInAt = this.now() + Math.floor(Math.random() * spread);
      } else {
        // Queued first, so commands the broker kept for us wait behind the check-in's ordered list.
        void this.checkIn();
      }
    });
    client.on('message', (_topic, payload) => {
      const text = payload.toString();
      void this.enqueue(() => this.takeCommand(text, 'mqtt'));
    });
    client.on('close', () => {
      if (this.client !== client || !this.connected) return;
      this.connected = false;
      this.emit('connection', false);
      this.emit('change');
    });
    client.on('error', (error) => this.note(`mqtt: ${error.message}`));
  }

  private async disconnect(): Promise<void> {
    const client = this.client;
    this.client = null;
    const was = this.connected;
    this.connected = false;
    // A forced end whose socket had already closed never calls back (MQTT.js issue 710): wait a moment, not for ever.
    if (client) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        client.endAsync(true).catch(() => undefined),
        new Promise<void>((resolve) => { timer = setTimeout(resolve, END_WAIT_MS); }),
      ]);
      clearTimeout(timer);
    }
    if (was) {
      this.emit('connection', false);
      this.emit('change');
    }
  }

  /** One step of the phone's own clock work: self-lock, warning and the periodic check-in. */
  tick(): void {
    if (!this.enrolled) return;
    this.evaluateSelfLock();
    // The alarm stops by itself; the screen hears of it.
    const alarm = this.s.screen.alarmUntil;
    if (alarm && this.now() >= alarm) {
      this.s.screen.alarmUntil = null;
      this.save();
    }
    this.keepFamilyRules();
    if (this.running && this.online && !this.checkInRunning && this.now() >= this.nextCheckInAt) void this.checkIn();
  }

  /** Resolves when every command taken so far has been carried out. */
  async idle(): Promise<void> {
    let last: Promise<unknown>;
    do {
      last = this.queue;
      await last;
    } while (last !== this.queue);
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task);
    this.queue = result.catch((error: unknown) => this.note(`task failed: ${(error as Error).message}`));
    return result;
  }

  // ---- events (phone -> server) ----

  private sendEvent(event: DistributiveOmit<DeviceEvent, 'v' | 'n' | 'at'>): void {
    const s = this.s;
    if (!s.credentials) return;
    s.lastEventN += 1;
    const message = { v: 1, n: s.lastEventN, at: this.iso(), ...event };
    s.outbox.push(seal(s.credentials.offlineSecret, message));
    this.save();
    // Sent once the current step is over, after save()'s write (queued first): a command's delivered, its effect and
    // its done are stored in one write, and leave together.
    queueMicrotask(() => {
      if (this.client && this.connected) void this.flushOutbox(this.client);
    });
  }

  /** Publishes the outbox one event at a time, in order: the server drops any n below one it has taken. */
  private async flushOutbox(client: MqttClient): Promise<void> {
    if (this.flushing.has(client)) return;
    this.flushing.add(client);
    try {
      while (this.client === client && this.state && this.state.outbox.length > 0 && this.state.credentials) {
        const text = this.state.outbox[0]!;
        // Stored before it leaves: after a power cut the phone must not give another event the number the server has.
        if (this.storedEventN < this.state.lastEventN) this.persist();
        await client.publishAsync(this.state.credentials.eventTopic, text, { qos: 1 });
        if (this.state.outbox[0] === text) {
          this.state.outbox.shift();
          // Written with the next change, not for itself: an event sent again after a power cut is one the server
          // has taken already, and it drops it.
          this.unsaved = true;
        }
      }
    } catch (error) {
      this.note(`event not sent yet: ${(error as Error).message}`);
    } finally {
      this.flushing.delete(client);
    }
    if (this.state && this.state.outbox.length === 0) {
      const waiters = this.outboxWaiters;
      this.outboxWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  /** Resolves when the broker has taken every event, or after `timeoutMs`; true when the outbox is empty. */
  async outboxEmpty(timeoutMs = 10_000): Promise<boolean> {
    if (!this.state || this.state.outbox.length === 0) return true;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.outboxWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    return this.state.outbox.length === 0;
  }

  // ---- check-in (HTTPS) ----

  /** Checks in now (through the command queue); true when the server answered. */
  checkIn(): Promise<boolean> {
    return this.enqueue(() => this.runCheckIn());
  }

  private async runCheckIn(): Promise<boolean> {
    if (!this.enrolled || !this.online || !this.s.credentials || !this.s.server) return false;
    this.checkInRunning = true;
    this.connectCheckInDue = false;
    this.nextCheckInAt = this.now() + CHECK_IN_RETRY_MS;
    try {
      // Our acks first: the server's desired state should already count them.
      if (this.connected) await this.outboxEmpty(3000);
      const s = this.s;
      const creds = s.credentials!;
      // The server takes at most 500 entries a time; the rest go with the next check-in.
      const sent = s.log.slice(0, 500);
      const body: CheckInBody = {
        v: 1, locked: s.screen.locked, battery: s.screen.battery, sims: s.screen.sims, app_version: s.screen.appVersion,
        location: s.screen.location, last_seq: s.lastSeq, log: sent, recent: s.outcomes, self_locked: s.selfLocked,
        offers_opt_out: s.offersOptOut === true, push_token: s.pushToken ?? null,
      };
      let reply: CheckInReply;
      try {
        if (!this.online) throw new NetworkDownError();
        reply = await checkIn(s.server!, creds.username, creds.password, body);
      } catch (error) {
        const text = error instanceof HttpError ? error.message : `unreachable: ${(error as Error).message}`;
        // A busy server answers at once with when to come back: then, not after the usual retry wait.
        const comeBackIn = error instanceof HttpError && error.status === 503 ? error.retryAfterSeconds : null;
        const deferred = comeBackIn !== null;
        // Refused while releasing: the server took the `done` before the power went, and let the credentials go.
        if (error instanceof HttpError && error.status === 401 && s.releasing) {
          void this.release().catch((failure: unknown) => this.note(`release: ${(failure as Error).message}`));
        }
        if (deferred) this.nextCheckInAt = this.now() + comeBackIn * 1000;
        this.emit('check-in', { ok: false, error: text, deferred });
        return false;
      }
      this.applyCheckIn(reply, sent);
      for (const text of reply.commands ?? []) await this.takeCommand(text, 'check-in');
      this.stats.checkIns++;
      // Once a day the security app asks whether its activation still stands (a revoked plan stops protecting).
      const protection = s.protection;
      if (protection?.state === 'active' && this.now() - protection.checkedAt > DAY_MS) void this.checkProtection().catch(() => undefined);
      this.emit('check-in', { ok: true });
      return true;
    } finally {
      this.checkInRunning = false;
    }
  }

  private applyCheckIn(reply: CheckInReply, sent: OfflineLogEntry[]): void {
    const s = this.s;
    const now = this.now();
    const taken = sent.reduce((max, e) => Math.max(max, e.n), 0);
    s.log = s.log.filter((e) => e.n > taken);
    s.lastCheckIn = now;
    s.offlineLockDays = reply.offline_lock_days ?? s.offlineLockDays;
    if (reply.org_name) s.orgName = reply.org_name;
    s.checkInSeconds = reply.next_check_in_seconds || s.checkInSeconds;
    // While the shop has an "I paid" claim to decide, the customer is waiting on the locked screen: ask again
    // every minute for the decision instead of at the usual interval.
    const waiting = reply.desired?.lock_screen?.claim?.status === 'open';
    // A lost phone reports where it is every few minutes (its location goes with each check-in).
    const lost = s.screen.lostMode.on ? LOST_MODE_CHECK_IN_SECONDS : Infinity;
    this.nextCheckInAt = now + Math.min(s.checkInSeconds, waiting ? CLAIM_CHECK_IN_SECONDS : Infinity, lost) * 1000;
    s.bypass = false;
    s.offlineWarning = false;
    s.selfLockAnchor = null;
    const desired = reply.desired;
    if (desired?.lock_screen) s.screen.lockScreen = desired.lock_screen;
    const pendingLockCommand = (reply.commands ?? []).length > 0;
    if (s.selfLocked) {
      s.selfLocked = false;
      if (!desired?.locked) s.screen.locked = false;
    }
    // The server's word wins only when nothing of ours or theirs is still on its way.
    if (desired && !pendingLockCommand && s.outbox.length === 0 && desired.locked !== s.screen.locked) {
      s.screen.locked = desired.locked;
      this.note(`check-in: the server wants the phone ${desired.locked ? 'locked' : 'unlocked'}`);
    }
    this.save();
  }

  // ---- commands (server -> phone) ----

  private report(report: CommandReport): void {
    if (report.outcome === 'done') this.stats.commandsDone++;
    if (report.outcome === 'failed') this.stats.commandsFailed++;
    this.emit('command', report);
  }

  private async takeCommand(text: string, source: 'mqtt' | 'check-in'): Promise<void> {
    if (!this.enrolled || !this.s.credentials) return;
    const s = this.s;
    const message = unseal<CommandMessage>(s.credentials!.offlineSecret, text);
    if (!message) return this.report({ outcome: 'forged', source });
    const base = { source, seq: message.seq, type: message.type, id: message.id };
    if (message.v !== 1) {
      this.note(`ignored a command of unknown version ${String(message.v)}`);
      return this.report({ ...base, outcome: 'unknown_version' });
    }
    if (typeof message.seq !== 'number' || message.seq <= s.lastSeq) {
      // A command carried out before comes again (the server did not get our report): say again what happened.
      const known = s.outcomes.find((o) => o.id === message.id && o.seq === message.seq);
      if (!known) {
        // An offer shown and not opened yet has no outcome: it is not shown again, and `delivered` is all there is to say.
        const shown = s.offers?.find((o) => o.commandId === message.id && o.seq === message.seq);
        if (!shown) return this.report({ ...base, outcome: 'old' });
        this.sendEvent({ kind: 'ack', id: message.id, state: 'delivered' });
        return this.report({ ...base, outcome: 'repeated' });
      }
      this.sendEvent({ kind: 'ack', id: known.id, state: known.state, ...(known.result ? { result: known.result } : {}) });
      return this.report({ ...base, outcome: 'repeated' });
    }
    if (source === 'mqtt' && this.connectCheckInDue && message.seq > s.lastSeq + 1) {
      // A gap while the spread check-in is still ahead: it goes now and brings the missing commands in order.
      await this.runCheckIn();
      if (message.seq <= s.lastSeq) return this.report({ ...base, outcome: 'repeated' });
    }
    const expires = Date.parse(message.expires_at);
    if (!Number.isFinite(expires) || expires <= this.now()) return this.report({ ...base, outcome: 'expired' });
    s.lastSeq = message.seq;
    this.sendEvent({ kind: 'ack', id: message.id, state: 'delivered' });
    let result: CommandResult | typeof AWAITS_CUSTOMER;
    try {
      result = this.execute(message);
    } catch (error) {
      const reason = error instanceof CommandFailure ? error.message : 'internal_error';
      this.remember({ id: message.id, seq: message.seq, state: 'failed', result: { error: reason } });
      this.sendEvent({ kind: 'ack', id: message.id, state: 'failed', result: { error: reason } });
      return this.report({ ...base, outcome: 'failed', error: reason });
    }
    // Shown and waiting for the customer: the `delivered` above stands until openOffer() reports `done`.
    if (result === AWAITS_CUSTOMER) return this.report({ ...base, outcome: 'delivered' });
    const releasing = (RELEASE_ACTIONS as readonly string[]).includes(message.type);
    // Stored with the `done` below (an event is written before it leaves): a power cut from here on ends the release at
    // the next start.
    if (releasing) this.beginRelease();
    this.remember({ id: message.id, seq: message.seq, state: 'done', result });
    this.sendEvent({ kind: 'ack', id: message.id, state: 'done', result });
    this.report({ ...base, outcome: 'done' });
    if (message.type === 'reboot') this.afterAcks(() => this.reboot());
    if (releasing) this.releaseOnceHeard();
  }

  /**
   * Ends the release once the broker has the `done` (the server then knows the phone is free), or once the server
   * refuses the phone's credentials (it heard before a power cut: see runCheckIn). Until then the phone waits open,
   * however long it is offline; a stop ends the wait and the next start takes it up again.
   */
  private releaseOnceHeard(): void {
    const run = this.runs;
    const wait = async (): Promise<void> => {
      while (this.running && this.runs === run && this.state?.releasing) {
        if (await this.outboxEmpty(10_000)) return this.release();
      }
    };
    void wait().catch((error: unknown) => this.note(`release: ${(error as Error).message}`));
  }

  /** The first half of a release: the phone opens and stops watching its own clock; release() ends it. */
  private beginRelease(): void {
    const s = this.s;
    s.releasing = true;
    openForRelease(s);
    this.save();
  }

  /** Keeps a command's outcome (saved with the next event) for a report that has to be made again. */
  private remember(outcome: CommandOutcomeRecord): void {
    const s = this.s;
    s.outcomes = [...s.outcomes, outcome].slice(-RECENT_OUTCOMES);
  }

  /** Runs `then` once the broker has our acks (or a while has passed), outside the command queue. */
  private afterAcks(then: () => Promise<void>): void {
    void this.outboxEmpty(10_000).then(then).catch((error: unknown) => this.note(`after command: ${(error as Error).message}`));
  }

  private execute(message: CommandMessage): CommandResult | typeof AWAITS_CUSTOMER {
    const screen = this.s.screen;
    const payload = (message.payload ?? {}) as Record<string, unknown>;
    const type = message.type;
    if ((TOGGLE_ACTIONS as readonly string[]).includes(type)) {
      if (typeof payload.on !== 'boolean') throw new CommandFailure('bad_payload');
      screen.toggles[type as ToggleAction] = payload.on;
      if (type === 'lost_mode' || type === 'antitheft_lost_mode') {
        const on = screen.toggles.lost_mode || screen.toggles.antitheft_lost_mode;
        screen.lostMode = payload.on
          ? { on: true, message: (payload.message as string | null | undefined) ?? null, phone: (payload.phone as string | null | undefined) ?? null }
          : { ...screen.lostMode, on };
        // A phone just reported lost tells where it is at once, then every few minutes while lost.
        if (on) this.nextCheckInAt = this.now();
        else {
          // Found: back to the usual interval from the last check-in, and the alarm stops.
          screen.alarmUntil = null;
          this.nextCheckInAt = Math.max(this.nextCheckInAt, (this.s.lastCheckIn ?? this.now()) + this.s.checkInSeconds * 1000);
        }
      }
      this.save();
      return {};
    }
    switch (type) {
      case 'lock':
        if (payload.lock_screen) screen.lockScreen = payload.lock_screen as PhoneState['screen']['lockScreen'];
        screen.locked = true;
        break;
      case 'unlock':
        screen.locked = false;
        this.s.selfLocked = false;
        break;
      case 'sim_tracking_online':
      case 'sim_tracking_offline': {
        const command = String(payload.command ?? '');
        const { on, off } = SIM_TRACKING_COMMANDS[type];
        if (command !== on && command !== off) throw new CommandFailure('bad_payload');
        screen.simTracking[type === 'sim_tracking_online' ? 'online' : 'offline'] = command === on;
        break;
      }
      case 'wallpaper':
        if (typeof payload.text !== 'string' || (payload.policy !== 'alert' && payload.policy !== 'wallpaper')) throw new CommandFailure('bad_payload');
        screen.wallpaper = { text: payload.text, policy: payload.policy };
        break;
      case 'emi_alert':
        screen.emiAlert = payload as unknown as EmiAlert;
        break;
      case 'pin_change':
        if (typeof payload.pin !== 'string' || !/^\d{4,8}$/.test(payload.pin)) throw new CommandFailure('bad_pin');
        screen.pin = payload.pin;
        break;
      case 'ring': {
        // At full volume, silent mode or not, for the time asked (5 s to 5 min).
        const seconds = payload.seconds === undefined ? RING_SECONDS : Number(payload.seconds);
        if (!Number.isInteger(seconds) || seconds < 5 || seconds > 300) throw new CommandFailure('bad_payload');
        screen.alarmUntil = this.now() + seconds * 1000;
        break;
      }
      case 'family_rules':
        return this.takeFamilyRules(payload);
      case 'offer':
        return this.showOffer(message, payload);
      case 'fetch_location':
        if (!screen.location) throw new CommandFailure('location_unavailable');
        return { location: { ...screen.location, at: this.iso() } };
      case 'sim_info':
        return { sims: screen.sims.map((sim) => ({ slot: sim.slot, operator: sim.operator ?? '', iccid: sim.iccid ?? '', number: sim.number ?? '' })) };
      case 'reboot':
      case 'miui_permission':
      case 'install_apple_onemodapp':
      case 'uninstall':
      case 'uninstall_antitheft':
      case 'unclaim':
        return {};
      default:
        throw new CommandFailure('unsupported_command');
    }
    this.save();
    return {};
  }

  // ---- family care (revision 5) ----

  /**
   * Keeps the rule set with the highest version. A lower or equal version is a replay or was overtaken by a newer
   * set: it changes nothing, and the answer names the version kept, so the server learns what the phone enforces.
   */
  private takeFamilyRules(payload: Record<string, unknown>): CommandResult {
    const version = payload.version;
    if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) throw new CommandFailure('bad_payload');
    const check = validateFamilyRules(payload.rules);
    if (!check.ok) {
      this.note(`family rules refused: ${check.field} ${check.problem}`);
      throw new CommandFailure('bad_payload');
    }
    const s = this.s;
    const kept = s.family;
    if (kept && version <= kept.version) return { version: kept.version };
    // The open app's time so far is counted (and cut) under the rules it was used under; from now the new rules
    // decide, and they also decide which of today's apps count as screen time (an app newly allowed stops counting).
    const apps = this.apps();
    const now = familyClock(apps, this.now());
    accrue(apps, kept?.rules ?? null, now);
    s.family = { version, rules: check.rules };
    accrue(apps, check.rules, now);
    this.save();
    return { version };
  }

  private apps(): AppsState {
    return (this.s.apps ??= initialApps(this.now()));
  }

  /**
   * The child opens an app. It comes to the foreground only if the rules let it through now; otherwise the phone
   * shows why (the verdict, kept in `apps.refused` for the screen). Works offline: the rules are on the phone.
   */
  openApp(app: string): AppVerdict {
    const apps = this.apps();
    const rules = this.s.family?.rules ?? null;
    const now = familyClock(apps, this.now());
    accrue(apps, rules, now);
    const verdict = verdictNow(apps, rules, app, now);
    if (verdict.allowed) {
      apps.foreground = app;
      apps.refused = null;
    } else {
      apps.foreground = null;
      apps.refused = { app, verdict };
    }
    this.save();
    return verdict;
  }

  /** Back to the home screen: the open app (or the screen saying why one did not open) goes. */
  closeApp(): void {
    const apps = this.apps();
    accrue(apps, this.s.family?.rules ?? null, familyClock(apps, this.now()));
    apps.foreground = null;
    apps.refused = null;
    this.save();
  }

  /**
   * Sends today's usage now, whatever the schedule (and any finished day not yet reported for the last time).
   * Returns how many reports went into the outbox; none without family rules or without usage.
   */
  reportUsage(): number {
    return this.sendUsageReports(true);
  }

  /** The tick's share: count the open app's time, close it when the rules turn, report usage when due. */
  private keepFamilyRules(): void {
    const s = this.s;
    const rules = s.family?.rules ?? null;
    if (s.apps?.foreground) {
      accrue(s.apps, rules, familyClock(s.apps, this.now()));
      this.save();
    }
    if (!s.family) return;
    this.sendUsageReports(false);
    // Downtime starting or ending, or the limit running out, changes the screen with nothing stored changing.
    const block = familyCareView(this.apps(), s.family, familyClock(this.apps(), this.now())).block;
    const seen = block ? `${block.reason}:${block.until}` : '';
    if (seen !== this.familyBlockSeen) {
      this.familyBlockSeen = seen;
      this.emit('change');
    }
  }

  private sendUsageReports(force: boolean): number {
    const s = this.s;
    if (!s.family || !s.apps || !s.credentials) return 0;
    const now = familyClock(s.apps, this.now());
    accrue(s.apps, s.family.rules, now);
    const due = takeDueReports(s.apps, now, force);
    for (const report of due) {
      this.dropUnsentUsage(report.day);
      this.sendEvent({ kind: 'usage', day: report.day, apps: report.apps });
    }
    return due.length;
  }

  /**
   * A later report of a day replaces the earlier one at the server, so an earlier one still waiting in the outbox
   * (the phone is offline) is worth nothing: it goes, and a phone away for days does not pile up a report every
   * quarter of an hour. The order of what remains is kept, so the event numbers still rise along the outbox.
   */
  private dropUnsentUsage(day: string): void {
    const s = this.s;
    s.outbox = s.outbox.filter((text) => {
      try {
        const body = JSON.parse((JSON.parse(text) as { body: string }).body) as { kind?: string; day?: string };
        return !(body.kind === 'usage' && body.day === day);
      } catch {
        return true;
      }
    });
  }

  // ---- offers (revision 6) ----

  /**
   * Puts the shop's offer in the "Offers" channel, unless the lock screen is up (offers are never shown on or over
   * it) or the customer switched offers off: then it fails with the reason and nothing is shown.
   */
  private showOffer(message: CommandMessage, payload: Record<string, unknown>): typeof AWAITS_CUSTOMER {
    const s = this.s;
    const offer = readOffer(payload, s.server);
    if (!offer) throw new CommandFailure('bad_payload');
    const refusal = offerRefusal(s);
    if (refusal) throw new CommandFailure(refusal);
    s.offers = withOffer(s.offers, { ...offer, commandId: message.id, seq: message.seq, shownAt: this.now(), openedAt: null });
    this.stats.offersShown++;
    this.save();
    return AWAITS_CUSTOMER;
  }

  /**
   * The customer opens an offer (by campaign id, or by the id of the command that brought it). The first opening
   * finishes its command: `done` with `{ opened: true }`, recorded like any outcome so a lost report is made again.
   * Answers the offer, or null when there is no such offer or the lock screen is up.
   */
  openOffer(ref: number | string): OfferNotification | null {
    const s = this.s;
    if (lockScreenUp(s)) return null;
    const offer = findOffer(s.offers, ref);
    if (!offer) return null;
    if (offer.openedAt === null) {
      offer.openedAt = this.now();
      const result = { opened: true };
      this.remember({ id: offer.commandId, seq: offer.seq, state: 'done', result });
      this.stats.offersOpened++;
      this.save();
      this.sendEvent({ kind: 'ack', id: offer.commandId, state: 'done', result });
      this.report({ outcome: 'done', source: 'customer', seq: offer.seq, type: 'offer', id: offer.commandId });
    }
    return { ...offer };
  }

  /**
   * The "Shop offers" switch: off (`optedOut`) stops offers and clears those shown, as switching a notification
   * channel off does; the server hears of it by an `offers_opt_out` event and every check-in. EMI alerts are
   * another channel: they always show.
   */
  setOffersOptOut(optedOut: boolean): void {
    const s = this.s;
    if ((s.offersOptOut === true) === optedOut) return;
    s.offersOptOut = optedOut;
    if (optedOut) s.offers = [];
    this.save();
    this.sendEvent({ kind: 'offers_opt_out', opted_out: optedOut });
  }

  /** The phone's push token (Firebase Cloud Messaging), or null for none: the server learns it with the next check-in. */
  setPushToken(token: string | null): void {
    this.s.pushToken = token;
    this.save();
  }

  /** An offer's picture, fetched from the phone's server with its own credentials; null when there is none to show. */
  async offerImage(ref: number | string): Promise<OfferImage | null> {
    if (lockScreenUp(this.s)) return null;
    const offer = findOffer(this.s.offers, ref);
    if (!offer?.image) return null;
    const { server, username, password } = this.customerCall();
    return fetchOfferImage(server, username, password, offer.image);
  }

  /** The agent removes itself: no more credentials, no more management. */
  private async release(): Promise<void> {
    if (!this.enrolled || this.releaseStarted) return;
    this.releaseStarted = true;
    await this.stop();
    const s = this.s;
    s.status = 'released';
    delete s.releasing;
    s.credentials = null;
    s.outbox = [];
    // Open since beginRelease(), and open again here: a check-in that ran between the `done` leaving and this step
    // could have taken the server's old lock, and a released phone has no credentials left to be unlocked with.
    openForRelease(s);
    // Family care goes with the rest of management: no rules left to enforce, no usage left to report.
    s.family = null;
    delete s.apps;
    // So do the shop's offers.
    delete s.offers;
    this.save();
    this.persist();
    this.emit('released');
  }

  // ---- the phone's own inputs ----

  setLocation(latitude: number, longitude: number, accuracy = 20): void {
    this.s.screen.location = { latitude, longitude, accuracy, at: this.iso() };
    this.save();
  }

  setBattery(percent: number): void {
    this.s.screen.battery = Math.max(0, Math.min(100, Math.round(percent)));
    this.save();
  }

  /** Replaces the SIM cards; a different set is reported to the server as a sim_change event. */
  setSims(sims: Sim[]): void {
    const s = this.s;
    const old = s.screen.sims;
    const key = (list: Sim[]) => JSON.stringify([...list].sort((a, b) => a.slot - b.slot).map((x) => [x.slot, x.operator ?? '', x.iccid ?? '']));
    s.screen.sims = sims;
    this.save();
    if (key(old) !== key(sims) && this.enrolled) {
      this.sendEvent({ kind: 'sim_change', old, new: sims, location: s.screen.location });
    }
  }

  /** Puts a card in `slot` (replacing what was there). */
  swapSim(slot: number, operator: string, iccid: string): void {
    const others = this.s.screen.sims.filter((sim) => sim.slot !== slot);
    this.setSims([...others, { slot, operator, iccid }].sort((a, b) => a.slot - b.slot));
  }

  dismissAlert(): void {
    this.s.screen.emiAlert = null;
    this.save();
  }

  // ---- the anti-hacking security app ----

  /**
   * Activates the anti-hacking plan bought with this phone: the code the shop gave (checked here first, so a typo
   * never reaches the server) and the buyer's mobile (10 digits, or with +91).
   */
  async activateProtection(code: string, mobile: string): Promise<{ ok: true } | { ok: false; problem: ProtectionProblem }> {
    const digits = parseActivationCode(code.trim());
    if (!digits) return { ok: false, problem: 'badCode' };
    const number = mobile.replace(/[\s-]/g, '');
    const full = /^[6-9][0-9]{9}$/.test(number) ? `+91${number}` : number;
    if (!/^\+91[6-9][0-9]{9}$/.test(full)) return { ok: false, problem: 'badMobile' };
    const s = this.s;
    if (!s.server) throw new Error('the phone does not know its server');
    if (!this.online) return { ok: false, problem: 'offline' };
    if (!s.installId) {
      // Stored before it is sent: the server binds the code to this id, and a power cut before the answer is kept must
      // not leave the phone asking again as another installation (the code would then be "used").
      s.installId = randomBytes(16).toString('base64url');
      this.save();
      try {
        this.persist();
      } catch {
        delete s.installId;
        return { ok: false, problem: 'failed' };
      }
    }
    try {
      const answer = await activateProtection(s.server, { code: digits, mobile: full, install_id: s.installId });
      s.protection = {
        planName: answer.plan_name, appType: answer.app_type, activatedAt: answer.activated_at, expiresAt: answer.expires_at, state: 'active',
        code: digits, mobile: full, checkedAt: this.now(),
      };
      this.note(`anti-hacking protection active until ${answer.expires_at}`);
      this.save();
      return { ok: true };
    } catch (error) {
      return { ok: false, problem: protectionProblem(error) };
    }
  }

  /** Asks the server whether the activation still stands; a revoked or expired plan switches protection off. */
  async checkProtection(): Promise<void> {
    const s = this.s;
    const protection = s.protection;
    if (!protection || !s.server || !s.installId || !this.online) return;
    try {
      const answer = await activateProtection(s.server, { code: protection.code, mobile: protection.mobile, install_id: s.installId });
      s.protection = { ...protection, expiresAt: answer.expires_at, state: 'active', checkedAt: this.now() };
    } catch (error) {
      const problem = protectionProblem(error);
      if (problem !== 'revoked' && problem !== 'expired') return;
      s.protection = { ...protection, state: problem, checkedAt: this.now() };
    }
    this.save();
  }

  // ---- the lock screen's payment buttons ----

  /** The HTTPS pair for a call the customer makes; without a network the button says so instead of waiting. */
  private customerCall(): { server: string; username: string; password: string } {
    const s = this.s;
    if (!s.credentials || !s.server) throw new Error('the phone is not enrolled');
    if (!this.online) throw new NetworkDownError();
    return { server: s.server, username: s.credentials.username, password: s.credentials.password };
  }

  /** "Pay now": the gateway's order for what is owed now. Paying it unlocks nothing here: the server sends the unlock. */
  payNow(): Promise<PayOrder> {
    const { server, username, password } = this.customerCall();
    return requestPayOrder(server, username, password);
  }

  /**
   * "I paid" for a payment to the retailer's own UPI ID: the amount the lock screen shows, and the reference if
   * the customer typed one. The shop confirms or rejects it; the phone stays locked until the server unlocks it.
   * The lock screen notes the claim at once; what the shop decides comes with a later check-in's lock screen.
   */
  async claimPaid(reference?: string): Promise<ClaimAnswer> {
    const { server, username, password } = this.customerCall();
    const due = this.s.screen.lockScreen?.amount_due ?? 0;
    const answer = await sendPaymentClaim(server, username, password, { ...(due > 0 ? { amount_paise: due } : {}), ...(reference ? { reference } : {}) });
    const screen = this.s.screen.lockScreen;
    if (screen) {
      screen.claim = { status: answer.status, amount_paise: answer.amount_paise, reason: null, at: this.iso() };
      if (answer.status === 'open') this.nextCheckInAt = Math.min(this.nextCheckInAt, this.now() + CLAIM_CHECK_IN_SECONDS * 1000);
      this.save();
    }
    return answer;
  }

  // ---- offline codes and self-lock ----

  private appendLog(kind: OfflineLogEntry['kind'], ref?: string | number): void {
    const s = this.s;
    s.lastLogN += 1;
    s.log.push({ n: s.lastLogN, at: this.iso(), kind, ...(ref !== undefined ? { ref } : {}) });
  }

  /** The customer types a code; the phone checks it alone, without the network. */
  enterCode(code: string): CodeResult {
    const s = this.s;
    if (!s.credentials) throw new Error('the phone is not enrolled');
    const now = this.now();
    let result: CodeResult;
    if (s.codeLockedUntil !== null && now < s.codeLockedUntil) {
      result = { ok: false, reason: 'locked_out', until: s.codeLockedUntil };
    } else {
      const accepted = acceptOfflineCode(s.credentials.offlineSecret, code.replace(/\s+/g, ''), s.codes, now);
      if (!accepted) {
        s.codeFailures += 1;
        this.appendLog('code_rejected');
        if (s.codeFailures >= CODE_ATTEMPTS) {
          s.codeLockedUntil = now + lockoutSeconds(s.codeLockouts) * 1000;
          s.codeLockouts += 1;
          s.codeFailures = 0;
          result = { ok: false, reason: 'locked_out', until: s.codeLockedUntil };
        } else {
          result = { ok: false, reason: 'wrong', attemptsLeft: CODE_ATTEMPTS - s.codeFailures };
        }
      } else {
        s.codes = accepted.state;
        s.codeFailures = 0;
        s.codeLockouts = 0;
        s.codeLockedUntil = null;
        this.appendLog(`code_${accepted.purpose}`, accepted.counter);
        if (accepted.purpose === 'lock') {
          s.screen.locked = true;
        } else {
          s.screen.locked = false;
          // An unlocked phone counts its offline days afresh (else the self-lock would come straight back).
          if (s.selfLocked) s.selfLockAnchor = now;
          s.selfLocked = false;
          s.offlineWarning = false;
          if (accepted.purpose === 'bypass') s.bypass = true;
        }
        result = { ok: true, purpose: accepted.purpose, counter: accepted.counter };
      }
    }
    // Written at once: a wrong try counts, and a used code stays used, even if the power goes straight after
    // (else switching the phone off would buy more guesses).
    this.save();
    this.persist();
    this.emit('code', result);
    // Tell the server soon if it can be reached.
    if (result.ok && this.connected) void this.checkIn();
    return result;
  }

  private evaluateSelfLock(): void {
    const s = this.s;
    const days = s.offlineLockDays;
    if (!days || days <= 0 || s.lastCheckIn === null || s.bypass || s.selfLocked || s.releasing) return;
    const elapsed = this.now() - Math.max(s.lastCheckIn, s.selfLockAnchor ?? 0);
    if (elapsed >= days * DAY_MS) {
      s.selfLocked = true;
      s.offlineWarning = false;
      s.screen.locked = true;
      this.appendLog('self_lock');
      this.save();
    } else if (days > 1 && elapsed >= (days - 1) * DAY_MS && !s.offlineWarning) {
      s.offlineWarning = true;
      this.appendLog('offline_warning');
      this.save();
    }
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
