/**
 * Child process for bench/device-bulk-lock.ts: the real server (embedded Aedes broker; PGlite in memory, or
 * DATABASE_URL) and, over IPC, the few things the benchmark needs from inside it: a bulk seed of customers with
 * enrolment tokens, its own memory after a full GC, the raw MQTT round trip used as the baseline, and the
 * timestamps of a batch's commands.
 */
import { createHash, randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import mqtt from 'mqtt';
import { commandTopic, eventTopic } from '@kisht/protocol/topics';
import { buildApp } from '../packages/server/src/app.ts';
import { PUBLISH_IN_FLIGHT } from '../packages/server/src/modules/devices/command-channel.ts';
import { serverPassword, SERVER_USERNAME } from '../packages/server/src/broker/broker.ts';
import { seedDemo, DEMO_USERS } from '../packages/server/src/db/seed.ts';
import { LISTEN_BACKLOG } from '../packages/server/src/listen-backlog.ts';
import { seedCustomers } from './seed-customers.ts';
import { collectGarbage, serveParent, tellParent } from './ipc.ts';
import { benchServerConfig, percentile } from './lib.ts';

const EVENTS = eventTopic('+');
/** The bulk publish keeps this many publishes waiting for their PUBACK; the baseline does the same. */
const RAW_IN_FLIGHT = PUBLISH_IN_FLIGHT;
/** About the size of a sealed lock command (the body JSON inside the envelope, lock screen and all). */
const RAW_PAYLOAD_BYTES = 640;

const secret = randomBytes(32).toString('hex');
const config = benchServerConfig({
  // The dues run would write its own locks and alerts into the middle of the measurement.
  DUES_CHECK_SECONDS: '0',
  DEVICE_SWEEP_SECONDS: process.env.DEVICE_SWEEP_SECONDS,
  // An external broker (Mosquitto) when the parent passes one; phones are let in by the broker's own configuration.
  MQTT_URL: process.env.MQTT_URL,
  // With an external broker: how many connections take reports at once (the server's default unless set).
  MQTT_REPORT_CONNECTIONS: process.env.MQTT_REPORT_CONNECTIONS,
});
const built = await buildApp(config, { secret });
const { db } = built;
await seedDemo(db);

/**
 * Check-ins as the server saw them: how long each took from its first byte to its answer, how many were open at
 * once, and how many it shed (503). Set against the phones' own count of timeouts, it tells a slow server from
 * phones that could not send in time.
 */
const CHECK_IN = '/api/device/check-in';
const checkIns = { open: 0, mostOpen: 0, shed: 0, ms: [] as number[] };
/**
 * How late the server's own event loop ran while phones settled: while it runs late, connections wait in the
 * kernel's listen queue and no check-in's clock has started yet, so the check-in figures alone miss it.
 */
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
const startedAt = new WeakMap<object, number>();
built.app.addHook('onRequest', async (request) => {
  if (request.url !== CHECK_IN) return;
  startedAt.set(request, performance.now());
  checkIns.mostOpen = Math.max(checkIns.mostOpen, ++checkIns.open);
});
built.app.addHook('onResponse', async (request, reply) => {
  const t0 = startedAt.get(request);
  if (t0 === undefined) return;
  checkIns.open--;
  checkIns.ms.push(performance.now() - t0);
  if (reply.statusCode === 503) checkIns.shed++;
});
await built.app.listen({ port: 0, host: '127.0.0.1', backlog: LISTEN_BACKLOG });

/** The embedded broker lets the server in with its own credential; the raw baseline uses it too. */
const rawCredentials = config.MQTT_URL
  ? { ...(config.MQTT_USERNAME ? { username: config.MQTT_USERNAME } : {}), ...(config.MQTT_PASSWORD ? { password: config.MQTT_PASSWORD } : {}) }
  : { username: SERVER_USERNAME, password: serverPassword(secret) };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** PGlite's WebAssembly memory: part of the RSS that belongs to the database, not the broker. */
function databaseHeapBytes(): number | null {
  const inner = (db as unknown as { db?: { mod?: { HEAPU8?: Uint8Array } } }).db;
  return inner?.mod?.HEAPU8?.byteLength ?? null;
}

serveParent({
  /** N lockable customers of the demo retailer (no phone yet), each with a fresh enrolment token. */
  async seed({ phones }: { phones: number }) {
    const started = performance.now();
    const ravi = (await db.query<{ id: number }>('SELECT id FROM users WHERE mobile = $1', [DEMO_USERS[0].mobile])).rows[0]!.id;
    const product = (await db.query<{ id: number }>('SELECT id FROM products WHERE org_id = $1 AND product_type = 0 ORDER BY id LIMIT 1', [config.APP_ORG_ID])).rows[0]!.id;
    const before = (await db.query<{ n: number }>('SELECT coalesce(max(id), 0)::int AS n FROM customers')).rows[0]!.n;
    await seedCustomers(db, ravi, product, phones, 5000);
    // seedCustomers spreads statuses like a live book; every one of these must be waiting for its phone.
    await db.query('UPDATE customers SET install_status = 0, lock_status = 0 WHERE id > $1', [before]);
    await db.query('UPDATE customer_imeis SET active = true WHERE customer_id > $1', [before]);
    const customers = (await db.query<{ id: number; imei1: string }>('SELECT id, imei1 FROM customers WHERE id > $1 ORDER BY id', [before])).rows;
    const tokens = customers.map(() => randomBytes(32).toString('base64url'));
    for (let i = 0; i < customers.length; i += 5000) {
      const slice = customers.slice(i, i + 5000);
      await db.query(
        `INSERT INTO enrolment_tokens (token_hash, customer_id, account_id, created_by, expires_at)
         SELECT t.hash, t.customer_id, $3, $3, now() + interval '24 hours' FROM unnest($1::text[], $2::int[]) AS t(hash, customer_id)`,
        [tokens.slice(i, i + 5000).map(sha256), slice.map((c) => c.id), ravi],
      );
    }
    return {
      seconds: (performance.now() - started) / 1000,
      customerIds: customers.map((c) => c.id),
      tokens: customers.map((c, i) => ({ token: tokens[i]!, imei1: c.imei1 })),
    };
  },

  async memory() {
    await collectGarbage();
    const m = process.memoryUsage();
    return { rss: m.rss, heapUsed: m.heapUsed, external: m.external, databaseHeap: databaseHeapBytes() };
  },

  /**
   * The baseline: one QoS 1 message from a raw client (authenticated as the server) to each phone's command
   * topic, which the fleet's echo hook sends straight back on the phone's event topic. The echoes reach the
   * server's report path as well (the embedded broker's publish hook, an external broker's shared subscription);
   * meanwhile that path drops them before anything else, or it would look each device up in the database when
   * the echo does not open with the device's key, and the baseline would carry work the broker does not do.
   */
  async raw({ timeoutMs }: { timeoutMs: number }) {
    const devices = (await db.query<{ id: string }>(`SELECT id FROM devices WHERE active AND channel = 'mqtt' ORDER BY created_at`)).rows.map((r) => r.id);
    const client = await mqtt.connectAsync(config.MQTT_URL ?? built.broker.status().url, {
      clientId: `kisht-bench-raw-${process.pid}`, ...rawCredentials, clean: true, reconnectPeriod: 0,
    });
    await client.subscribeAsync(EVENTS, { qos: 1 });
    const reports = built.services.devices;
    const takeReport = reports.onDeviceEvent;
    reports.onDeviceEvent = async (topic, text) => (text.startsWith('{"echo":') ? 'ignored' : takeReport(topic, text));
    const sentAt = new Float64Array(devices.length);
    const seen = new Uint8Array(devices.length);
    const latencies: number[] = [];
    let lastEcho = 0;
    let allBack: () => void = () => undefined;
    const back = new Promise<void>((resolve) => (allBack = resolve));
    client.on('message', (_topic, payload) => {
      const now = performance.now();
      const match = /^\{"echo":(\d+)/.exec(payload.subarray(0, 24).toString());
      if (!match) return;
      const i = Number(match[1]);
      if (seen[i]) return;
      seen[i] = 1;
      latencies.push(now - sentAt[i]!);
      lastEcho = now;
      if (latencies.length === devices.length) allBack();
    });
    const padding = 'x'.repeat(RAW_PAYLOAD_BYTES);
    const started = performance.now();
    let next = 0;
    const publishing = Promise.all(
      Array.from({ length: Math.min(RAW_IN_FLIGHT, devices.length) }, async () => {
        while (next < devices.length) {
          const i = next++;
          const text = `{"echo":${i},"pad":"${padding}"}`.slice(0, RAW_PAYLOAD_BYTES - 2) + '"}';
          sentAt[i] = performance.now();
          await client.publishAsync(commandTopic(devices[i]!), text, { qos: 1 });
        }
      }),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all([publishing, back]), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    reports.onDeviceEvent = takeReport;
    await client.endAsync();
    latencies.sort((a, b) => a - b);
    return {
      sent: devices.length, echoed: latencies.length, payloadBytes: RAW_PAYLOAD_BYTES,
      seconds: ((latencies.length ? lastEcho : performance.now()) - started) / 1000,
      p50: percentile(latencies, 50), p99: percentile(latencies, 99),
    };
  },

  /** Starts a settling phase's count: the check-ins and the server's event-loop delay from here on. */
  async settling() {
    Object.assign(checkIns, { mostOpen: checkIns.open, shed: 0, ms: [] });
    loopDelay.reset();
    loopDelay.enable();
  },

  /** The check-ins answered so far, as the server timed them, and how late its event loop ran meanwhile. */
  async checkIns() {
    loopDelay.disable();
    const sorted = [...checkIns.ms].sort((a, b) => a - b);
    return {
      answered: sorted.length, shed: checkIns.shed, mostOpen: checkIns.mostOpen, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? 0,
      loopDelayMs: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
    };
  },

  /** Each command's timestamps in the batch (database clock, ms since the epoch) and the count by state. */

  async timings({ batchId }: { batchId: string }) {
    const rows = (await db.query<{ state: string; created: number; sent: number | null; finished: number | null }>(
      `SELECT state, (extract(epoch FROM created_at) * 1000)::float8 AS created, (extract(epoch FROM sent_at) * 1000)::float8 AS sent,
              (extract(epoch FROM finished_at) * 1000)::float8 AS finished
         FROM device_commands WHERE batch_id = $1`,
      [batchId],
    )).rows.map((r) => ({ state: r.state, created: Number(r.created), sent: r.sent === null ? null : Number(r.sent), finished: r.finished === null ? null : Number(r.finished) }));
    const counts: Record<string, number> = {};
    for (const r of rows) counts[r.state] = (counts[r.state] ?? 0) + 1;
    const spread = (pick: (r: (typeof rows)[number]) => number | null) => {
      const values = rows.map(pick).filter((v): v is number => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
      return { p50: percentile(values, 50), p99: percentile(values, 99), max: values.at(-1) ?? NaN };
    };
    const finished = rows.map((r) => r.finished).filter((v): v is number => v !== null);
    return {
      commands: rows.length, counts,
      firstCreated: Math.min(...rows.map((r) => r.created)),
      lastSent: Math.max(...rows.map((r) => r.sent ?? -Infinity)),
      lastFinished: finished.length ? Math.max(...finished) : null,
      createdToFinished: spread((r) => (r.finished === null ? null : r.finished - r.created)),
      createdToSent: spread((r) => (r.sent === null ? null : r.sent - r.created)),
      sentToFinished: spread((r) => (r.finished === null || r.sent === null ? null : r.finished - r.sent)),
    };
  },
});

tellParent('ready', {
  api: (built.app.server.address() as { port: number }).port,
  mqtt: config.MQTT_URL ?? built.broker.status().url,
  driver: db.driver,
  sweepSeconds: config.DEVICE_SWEEP_SECONDS,
  mobile: DEMO_USERS[0].mobile,
});

process.on('SIGTERM', async () => {
  await built.close().catch(() => undefined);
  process.exit(0);
});
