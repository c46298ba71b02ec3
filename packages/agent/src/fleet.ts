/**
 * Fleet mode: many phones in one process for load tests. Each phone has its own MQTT connection and an
 * in-memory store; they share one options object and one timer, so a phone costs little beyond its socket.
 */
import type { IClientOptions } from 'mqtt';
import { DeviceAgent } from './agent.ts';
import { MemoryStore } from './store.ts';
import { parseEnrolmentPayload } from './enrolment-payload.ts';
import { randomImei, RetailerApi } from './retailer-api.ts';

export interface FleetToken {
  token: string;
  imei1: string;
  /** Defaults to the fleet's server. */
  server?: string;
}

export interface FleetOptions {
  server: string;
  /** Phones to create through the retailer API (ignored when tokens are given). */
  count?: number;
  /** Enrolment tokens made beforehand; no retailer sign-in then. */
  tokens?: FleetToken[];
  /** The retailer to sign in as (the demo retailer by default). */
  mobile?: string;
  mqttUrl?: string;
  /** Enrolments under way at once. */
  concurrency?: number;
  tickMs?: number;
  /** Each phone's connectCheckInSpreadMs (FLEET_CHECK_IN_SPREAD_MS): a fleet connects at once, as phones do after an outage. */
  connectCheckInSpreadMs?: number;
  /**
   * Every phone opens each shop offer as soon as it shows it (a customer who taps every notification), so a
   * campaign's opened count can be tested at scale. Without it offers stay unopened unless a test opens them.
   */
  openOffers?: boolean;
  onProgress?: (line: string) => void;
}

export interface FleetSummary {
  phones: number;
  enrolled: number;
  connected: number;
  locked: number;
  commandsDone: number;
  commandsFailed: number;
  checkIns: number;
  /** Offers shown in the phones' "Offers" channels, and opened, since the fleet started. */
  offersShown: number;
  offersOpened: number;
  errors: number;
  rssMb: number;
  heapUsedMb: number;
  heapPerPhoneKb: number;
}

export interface Fleet {
  /**
   * The phones, in the order they were enrolled. Tests act as a phone's customer through them, for instance
   * `agents[i].openOffer(campaignId)` or `agents[i].setOffersOptOut(true)`.
   */
  agents: DeviceAgent[];
  errors: string[];
  summary(): FleetSummary;
  /** Resolves when every enrolled phone is connected, or after `timeoutMs`. */
  waitConnected(timeoutMs?: number): Promise<boolean>;
  stop(): Promise<void>;
}

/** How the fleet's sign-in is named in the retailer's Sessions screen while it lasts. */
export const FLEET_SESSION_LABEL = 'Kisht fleet simulator';

/** One options object for every phone's client: fewer keepalive pings, a calm reconnect. */
const SHARED_MQTT: IClientOptions = { keepalive: 120, reconnectPeriod: 5000, connectTimeout: 30_000 };

async function pool<T>(items: T[], size: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(size, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  });
  await Promise.all(runners);
}

/** How far a fleet spreads the check-ins of phones that connect together. */
export const FLEET_CHECK_IN_SPREAD_MS = 60_000;

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const log = options.onProgress ?? (() => undefined);
  const agents: DeviceAgent[] = [];
  const errors: string[] = [];
  const heapBefore = process.memoryUsage().heapUsed;
  const makeAgent = () => new DeviceAgent({
    store: new MemoryStore(), timer: false, mqttOptions: SHARED_MQTT, ...(options.mqttUrl ? { mqttUrl: options.mqttUrl } : {}),
    connectCheckInSpreadMs: options.connectCheckInSpreadMs ?? FLEET_CHECK_IN_SPREAD_MS,
  });

  let jobs: Array<() => Promise<DeviceAgent>>;
  /** The retailer session that makes the customers: one per fleet run, signed out once the phones are enrolled. */
  let retailer: RetailerApi | null = null;
  if (options.tokens) {
    jobs = options.tokens.map((t) => async () => {
      const agent = makeAgent();
      await agent.enrol({ server: t.server ?? options.server, token: t.token }, { imei1: t.imei1 });
      return agent;
    });
  } else {
    const api = new RetailerApi(options.server, FLEET_SESSION_LABEL);
    retailer = api;
    await api.signIn(options.mobile);
    log('signed in as the retailer');
    jobs = Array.from({ length: options.count ?? 1 }, (_, i) => async () => {
      const imei1 = randomImei();
      const customerId = await api.addCustomer(imei1, `Phone${i + 1}`);
      const agent = makeAgent();
      await agent.enrol(parseEnrolmentPayload(await api.qrPayload(customerId)), { imei1 });
      return agent;
    });
  }

  // Each phone's clock runs from its own start, as on a real phone: a phone enrolled early checks in while the others
  // still enrol, instead of every phone's first check-in falling due at the first tick after the last enrolment.
  const timer = setInterval(() => {
    for (const agent of agents) agent.tick();
  }, options.tickMs ?? 1000);
  timer.unref();

  let done = 0;
  try {
    await pool(jobs, options.concurrency ?? 10, async (job) => {
      try {
        const agent = await job();
        agent.on('note', () => undefined);
        if (options.openOffers) {
          agent.on('command', (report) => {
            if (report.type === 'offer' && report.outcome === 'delivered' && report.id) agent.openOffer(report.id);
          });
        }
        agents.push(agent);
        agent.start();
      } catch (error) {
        errors.push((error as Error).message);
      }
      done++;
      if (done % 50 === 0 || done === jobs.length) log(`enrolled ${agents.length}/${jobs.length}${errors.length ? ` (${errors.length} failed)` : ''}`);
    });
  } finally {
    // The phones have their own credentials now; the retailer session is not needed any more.
    if (retailer) await retailer.signOut().then(() => log('signed the retailer out'), (error: unknown) => log(`signing out failed: ${(error as Error).message}`));
  }

  const summary = (): FleetSummary => {
    const memory = process.memoryUsage();
    const sum = (pick: (a: DeviceAgent) => number) => agents.reduce((n, a) => n + pick(a), 0);
    return {
      phones: agents.length + errors.length,
      enrolled: agents.filter((a) => a.enrolled).length,
      connected: agents.filter((a) => a.isConnected).length,
      locked: agents.filter((a) => a.enrolled && a.snapshot().screen.locked).length,
      commandsDone: sum((a) => a.stats.commandsDone),
      commandsFailed: sum((a) => a.stats.commandsFailed),
      checkIns: sum((a) => a.stats.checkIns),
      offersShown: sum((a) => a.stats.offersShown),
      offersOpened: sum((a) => a.stats.offersOpened),
      errors: errors.length,
      rssMb: Math.round(memory.rss / 1048576),
      heapUsedMb: Math.round(memory.heapUsed / 1048576),
      heapPerPhoneKb: agents.length ? Math.round((memory.heapUsed - heapBefore) / 1024 / agents.length) : 0,
    };
  };

  return {
    agents,
    errors,
    summary,
    async waitConnected(timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        if (agents.every((a) => !a.enrolled || a.isConnected)) return true;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return false;
    },
    async stop() {
      clearInterval(timer);
      await Promise.all(agents.map((a) => a.stop()));
    },
  };
}
