/**
 * The restart drill: 200 simulated phones (the device agent), a bulk lock, then the server is killed
 * (SIGKILL or SIGTERM) at a random moment within 2 s, or the broker is, and started again. Every command
 * must end done, every customer must show Locked and every phone must have locked exactly once.
 *
 * On the embedded defaults (PGlite in a folder, the embedded broker) it runs in `npm test`; with
 * TEST_DATABASE_URL (`npm run test:services`) it runs on PostgreSQL with a private Mosquitto instead, where
 * the broker itself is killed too. The figures (seconds to heal, commands done, lost, doubled) are printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DeviceAgent, type CommandReport } from '@kisht/agent/agent';
import { MemoryStore } from '@kisht/agent/store';
import { parseEnrolmentPayload } from '@kisht/agent/enrolment-payload';
import { randomImei, RetailerApi } from '@kisht/agent/retailer-api';
import { freePort } from './harness.ts';
import { withDatabase } from './global-setup.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { DEMO_USERS, seedDemo } from '../src/db/seed.ts';
import { createLicensesRepository } from '../src/modules/licenses/licenses.repository.ts';

const PHONES = 200;
const HEAL_TIMEOUT_MS = 90_000;
const SECRET = 'drill-secret-drill-secret-drill-secret-0123';
const databaseUrl = process.env.TEST_DATABASE_URL;
const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p));

interface Batch { id: string; total: number; counts: Record<string, number> }

/** The demo data plus enough license keys for the drill's phones, written before the server first starts. */
async function prepareDatabase(options: { databaseUrl?: string; dataDir?: string }): Promise<void> {
  const db = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir ?? 'memory://' });
  try {
    await migrate(db);
    await seedDemo(db);
    const ravi = (await db.query<{ id: number }>('SELECT id FROM users WHERE mobile = $1', [DEMO_USERS[0].mobile])).rows[0]!;
    await db.transaction((tx) => createLicensesRepository(db).grant(ravi.id, 0, PHONES, 'restart drill', tx));
  } finally {
    await db.close();
  }
}

/** A seeded random delay, printed so a failing run can be repeated with DRILL_SEED. */
function randomDelay(seedText: string): number {
  let seed = [...seedText].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
  seed = (seed * 1103515245 + 12345) >>> 0;
  return seed % 2000;
}

async function waitPort(port: number, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const open = await new Promise<boolean>((resolve) => net.connect(port, '127.0.0.1').once('connect', function (this: net.Socket) {
      this.destroy();
      resolve(true);
    }).once('error', () => resolve(false)));
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listens on ${port}`);
}

/** 200 phones enrolled through the retailer API, each counting the locks it carried out. */
async function enrolPhones(server: string, mqttUrl: string | undefined) {
  const retailer = new RetailerApi(server);
  await retailer.signIn();
  const phones: Array<{ agent: DeviceAgent; customerId: number; locks: number; trail: string[] }> = [];
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < PHONES) {
      const index = next++;
      const imei1 = randomImei();
      const customerId = await retailer.addCustomer(imei1, `Drill${index + 1}`);
      const agent = new DeviceAgent({ store: new MemoryStore(), tickMs: 500, mqttOptions: { reconnectPeriod: 500, connectTimeout: 5000, keepalive: 30 }, ...(mqttUrl ? { mqttUrl } : {}) });
      await agent.enrol(parseEnrolmentPayload(await retailer.qrPayload(customerId)), { imei1 });
      const phone = { agent, customerId, locks: 0, trail: [] as string[] };
      const trail = (line: string) => phone.trail.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
      agent.on('command', (report: CommandReport) => {
        if (report.type === 'lock' && report.outcome === 'done') phone.locks++;
        trail(`command ${report.type} ${report.outcome} seq ${report.seq} via ${report.source}`);
      });
      agent.on('note', trail);
      agent.on('connection', (up) => trail(up ? 'connected' : 'disconnected'));
      agent.on('check-in', (r) => trail(`check-in ${r.ok ? 'ok' : r.error}`));
      agent.start();
      phones.push(phone);
    }
  }));
  const until = Date.now() + 60_000;
  while (!phones.every((p) => p.agent.isConnected) && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
  expect(phones.filter((p) => p.agent.isConnected).length).toBe(PHONES);
  return { retailer, phones };
}

interface DrillOptions {
  label: string;
  /** What goes down: the server (with this signal) or the broker. */
  fault: { target: 'server'; signal: NodeJS.Signals } | { target: 'broker' };
  start: (port: number) => Promise<ServerProcess>;
  broker?: { kill(): Promise<void>; start(): Promise<void> };
  mqttUrl?: string;
}

async function drill(options: DrillOptions) {
  const port = await freePort();
  let server = await options.start(port);
  const { retailer, phones } = await enrolPhones(server.url, options.mqttUrl);
  try {
    const delay = Number(process.env.DRILL_DELAY_MS ?? randomDelay(`${options.label}${process.env.DRILL_SEED ?? Date.now()}`));
    const batch = await retailer.request<Batch>('POST', '/api/device/multiple_lock_unlock', { action: 'lock', customer_ids: phones.map((p) => p.customerId) });
    await new Promise((r) => setTimeout(r, delay));
    const downAt = performance.now();
    if (options.fault.target === 'server') {
      await server.kill(options.fault.signal);
      server = await options.start(port);
    } else {
      await options.broker!.kill();
      await options.broker!.start();
    }
    const upAt = performance.now();

    // Healed: every command done, every customer Locked, every phone locked once.
    let latest: Batch = batch;
    const until = Date.now() + HEAL_TIMEOUT_MS;
    const healed = () => latest.counts.done === PHONES;
    while (Date.now() < until) {
      latest = await retailer.request<Batch>('GET', `/api/device/multiple_lock_unlock?batch_id=${batch.id}`).catch(() => latest);
      if (healed()) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const healSeconds = (performance.now() - upAt) / 1000;
    const profiles = await Promise.all(phones.map((p) => retailer.request<{ lock_status: number }>('GET', `/api/country/getCustomerProfile?customer_id=${p.customerId}`)));
    const figures = {
      drill: options.label, delay_ms: delay, down_seconds: Number(((upAt - downAt) / 1000).toFixed(2)), heal_seconds: Number(healSeconds.toFixed(2)),
      done: latest.counts.done ?? 0, open: (latest.counts.queued ?? 0) + (latest.counts.sent ?? 0) + (latest.counts.delivered ?? 0),
      customers_locked: profiles.filter((p) => p.lock_status === 1).length,
      phones_locked: phones.filter((p) => p.agent.snapshot().screen.locked).length,
      locked_twice: phones.filter((p) => p.locks > 1).length, never_locked: phones.filter((p) => p.locks === 0).length,
    };
    console.log(`drill ${JSON.stringify(figures)}`);
    for (const p of phones.filter((x) => x.locks !== 1)) console.log(`phone of customer ${p.customerId}: ${JSON.stringify({ connected: p.agent.isConnected, lastSeq: p.agent.snapshot().lastSeq, outbox: p.agent.snapshot().outbox.length })}\n  ${p.trail.join('\n  ')}`);
    expect(figures, server.output.join('').slice(-3000)).toMatchObject({
      done: PHONES, open: 0, customers_locked: PHONES, phones_locked: PHONES, locked_twice: 0, never_locked: 0,
    });
  } finally {
    await Promise.all(phones.map((p) => p.agent.stop()));
    await server.kill('SIGKILL');
  }
}

describe.skipIf(Boolean(databaseUrl))('restart drill on the embedded defaults (PGlite, embedded broker)', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const embedded = async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kisht-drill-'));
    dirs.push(dir);
    const mqttPort = await freePort();
    await prepareDatabase({ dataDir: path.join(dir, 'pglite') });
    return (port: number) => startServerProcess(port, {
      DATA_DIR: path.join(dir, 'pglite'), APP_SECRET: SECRET, MQTT_PORT: String(mqttPort), MQTT_HOST: '127.0.0.1', DEVICE_SWEEP_SECONDS: '2',
      DUES_CHECK_SECONDS: '0', UPLOAD_DIR: path.join(dir, 'uploads'),
    });
  };

  it('a server killed (SIGKILL) within 2 s of a bulk lock of 200 phones loses no report and locks each phone once', { timeout: 300_000 }, async () => {
    await drill({ label: 'embedded-sigkill', fault: { target: 'server', signal: 'SIGKILL' }, start: await embedded() });
  });

  it('the same with a graceful stop (SIGTERM)', { timeout: 300_000 }, async () => {
    await drill({ label: 'embedded-sigterm', fault: { target: 'server', signal: 'SIGTERM' }, start: await embedded() });
  });
});

describe.skipIf(!databaseUrl || !MOSQUITTO)('restart drill on PostgreSQL and Mosquitto', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** A fresh database and a private Mosquitto (never the machine's own), started again on the same port after a kill. */
  async function setup() {
    const name = `kisht_drill_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    await prepareDatabase({ databaseUrl: withDatabase(databaseUrl!, name) });
    cleanups.push(async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kisht-drill-mq-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const mqttPort = await freePort();
    writeFileSync(path.join(dir, 'mosquitto.conf'), ['allow_anonymous true', 'persistence false', 'max_queued_messages 10000', `listener ${mqttPort} 127.0.0.1`, ''].join('\n'));
    let broker: ChildProcess | null = null;
    const brokerControl = {
      async start() {
        broker = spawn(MOSQUITTO!, ['-c', path.join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
        await waitPort(mqttPort);
      },
      async kill() {
        const running = broker;
        if (!running) return;
        const gone = new Promise((resolve) => running.once('exit', resolve));
        running.kill('SIGKILL');
        await gone;
        broker = null;
      },
    };
    await brokerControl.start();
    cleanups.push(() => brokerControl.kill());
    const mqttUrl = `mqtt://127.0.0.1:${mqttPort}`;
    const start = (port: number) => startServerProcess(port, {
      DATABASE_URL: withDatabase(databaseUrl!, name), APP_SECRET: SECRET, MQTT_URL: mqttUrl, MQTT_CLIENT_ID: 'kisht-drill-node',
      DEVICE_SWEEP_SECONDS: '2', DUES_CHECK_SECONDS: '0', UPLOAD_DIR: path.join(dir, 'uploads'),
    });
    return { start, broker: brokerControl, mqttUrl };
  }

  it('a server killed (SIGKILL) within 2 s of a bulk lock of 200 phones loses no report and locks each phone once', { timeout: 300_000 }, async () => {
    const { start, mqttUrl } = await setup();
    await drill({ label: 'mosquitto-server-sigkill', fault: { target: 'server', signal: 'SIGKILL' }, start, mqttUrl });
  });

  it('the same with a graceful stop (SIGTERM)', { timeout: 300_000 }, async () => {
    const { start, mqttUrl } = await setup();
    await drill({ label: 'mosquitto-server-sigterm', fault: { target: 'server', signal: 'SIGTERM' }, start, mqttUrl });
  });

  it('the same with the broker killed (SIGKILL) instead', { timeout: 300_000 }, async () => {
    const { start, broker, mqttUrl } = await setup();
    await drill({ label: 'mosquitto-broker-sigkill', fault: { target: 'broker' }, start, broker, mqttUrl });
  });
});
