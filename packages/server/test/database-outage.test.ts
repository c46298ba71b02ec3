/**
 * The server survives its database (and its broker). The real server runs as a child process
 * (`node --import tsx packages/server/src/server.ts`), so a crash is visible, and reaches PostgreSQL
 * through a fault-injecting TCP proxy. Under 8 concurrent clients paying instalments with idempotency
 * keys, the test cuts every connection mid-transaction, refuses new ones for a while and lets them back,
 * and (on a private cluster) restarts PostgreSQL with `pg_ctl -m immediate`. It checks: the process never
 * ends; requests during the outage get a translated 503 SERVICE_UNAVAILABLE with Retry-After, fast;
 * /api/health says so; it is healthy again within 5 s; no acknowledged payment is lost or paid twice.
 *
 * Needs a real PostgreSQL: it runs under `npm run test:services` (TEST_DATABASE_URL) and skips otherwise.
 * The database behind the proxy is a private cluster in a temporary folder when initdb is installed,
 * else a fresh database on the TEST_DATABASE_URL server (which is never stopped).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createEmmAuthSession, EMM_AUTH_HEADER } from '@kisht/domain/emm-auth';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { addMonths } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { REPO_ROOT } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { DEMO_USERS } from '../src/db/seed.ts';
import { operatorKey } from '../src/secret.ts';
import { withDatabase } from './global-setup.ts';
import { CONSOLE_HEADERS, freePort } from './harness.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';
import { startPgCluster, type PgCluster } from './support/pg-cluster.ts';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
if (!TEST_DATABASE_URL) console.log('database-outage.test.ts: skipped: it needs a real PostgreSQL (TEST_DATABASE_URL, set by `npm run test:services`).');

const CLIENTS = 8;
const APP_ORG_ID = 23;
const PAYMENT_PAISE = 100;
const RAVI = DEMO_USERS[0].mobile;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sent {
  key: string;
  customerId: number;
  at: number;
  ms: number;
  status: number; // 0: no HTTP answer at all
  code?: string;
  retryAfter?: string | null;
}

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.setTimeout(2000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe.skipIf(!TEST_DATABASE_URL)('the server survives its database (real server process, PostgreSQL behind a fault-injecting proxy)', () => {
  const runId = randomBytes(4).toString('hex');
  const secret = randomBytes(32).toString('hex');
  let cluster: PgCluster | null = null;
  let adminUrl = '';
  let dbName = '';
  let dbProxy: TcpProxy;
  let mqttProxy: TcpProxy | null = null;
  let direct: pg.Pool; // straight to PostgreSQL, around the proxy: what is really stored
  let child: ChildProcess;
  let exited: { code: number | null; signal: string | null } | null = null;
  let output = '';
  let base = '';
  let token = '';
  const customers: number[] = [];
  /** Key -> payment id of every payment the API acknowledged (HTTP 200 with a receipt). */
  const acknowledged = new Map<string, number>();
  /** Keys sent but not acknowledged (503, no answer): the payment may or may not have been stored. */
  const unresolved = new Map<string, number>();
  const sent: Sent[] = [];

  async function call(method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}, signedIn = true) {
    const started = performance.now();
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...CONSOLE_HEADERS,
        [EMM_AUTH_HEADER]: await createEmmAuthSession(url, APP_ORG_ID),
        ...(token && signedIn ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = { raw: text };
    }
    return { status: res.status, json, headers: res.headers, ms: performance.now() - started };
  }

  /** As a load balancer asks: no token. */
  const health = () => call('GET', '/api/health', undefined, {}, false).catch(() => ({ status: 0, json: {} as Record<string, unknown>, headers: new Headers(), ms: 0 }));

  async function waitHealthy(timeoutMs: number): Promise<number> {
    const started = performance.now();
    while (performance.now() - started < timeoutMs) {
      if ((await health()).status === 200) return (performance.now() - started) / 1000;
      await sleep(100);
    }
    return Infinity;
  }

  /** One payment of PAYMENT_PAISE, oldest instalment first, with its idempotency key. */
  async function pay(customerId: number, key: string): Promise<Sent> {
    const at = Date.now();
    try {
      const res = await call('POST', '/api/emi/multiple_emi_paid', { customer_id: customerId, amount_paise: PAYMENT_PAISE, method: 'cash', idempotency_key: key });
      const entry: Sent = { key, customerId, at, ms: res.ms, status: res.status, code: res.json.code as string | undefined, retryAfter: res.headers.get('retry-after') };
      if (res.status === 200) {
        const paymentId = (res.json.data as { payment_id: number }).payment_id;
        const earlier = acknowledged.get(key);
        if (earlier !== undefined && earlier !== paymentId) throw new Error(`key ${key} acknowledged as payment ${earlier} and then ${paymentId}`);
        acknowledged.set(key, paymentId);
        unresolved.delete(key);
      } else {
        unresolved.set(key, customerId);
      }
      return entry;
    } catch (error) {
      if ((error as Error).message.startsWith('key ')) throw error;
      unresolved.set(key, customerId);
      return { key, customerId, at, ms: Date.now() - at, status: 0, code: (error as Error).message };
    }
  }

  /** 8 clients paying as fast as they are answered (a short pause after a failure, as a console would). */
  let loads = 0;
  function startLoad() {
    let running = true;
    const load = ++loads; // keys are new in every load: a repeated key would only replay an earlier receipt
    const workers = Array.from({ length: CLIENTS }, async (_, w) => {
      let i = 0;
      while (running) {
        const entry = await pay(customers[w]!, `out-${runId}-${load}-${w}-${i++}`);
        sent.push(entry);
        if (entry.status !== 200) await sleep(50);
      }
    });
    return async () => {
      running = false;
      await Promise.all(workers);
    };
  }

  const alive = () => exited === null && child.exitCode === null;

  beforeAll(async () => {
    // The database: a private cluster if this machine can start one, else a fresh database on the shared server.
    const started = startPgCluster(await freePort());
    if ('url' in started) {
      cluster = started;
      adminUrl = started.url;
    } else {
      console.log(`database-outage.test.ts: no private cluster (${started.unavailable}); using a fresh database on ${new URL(TEST_DATABASE_URL!).host}, and skipping the restart case.`);
      adminUrl = TEST_DATABASE_URL!;
    }
    dbName = `kisht_outage_${runId}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${dbName}"`);
    await admin.end();
    const setup = await openDatabase({ databaseUrl: withDatabase(adminUrl, dbName), dataDir: 'memory://' });
    await migrate(setup);
    await setup.close();
    direct = new pg.Pool({ connectionString: withDatabase(adminUrl, dbName), max: 2 });
    direct.on('error', () => undefined);

    const target = new URL(adminUrl);
    dbProxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const throughProxy = new URL(withDatabase(adminUrl, dbName));
    throughProxy.hostname = '127.0.0.1';
    throughProxy.port = String(dbProxy.port);

    // The broker: the real Mosquitto through a second proxy when there is one, else the embedded broker.
    const mqttUrl = process.env.TEST_MQTT_URL;
    const env: Record<string, string> = {};
    if (mqttUrl && (await reachable(mqttUrl))) {
      const broker = new URL(mqttUrl);
      mqttProxy = await startTcpProxy({ host: broker.hostname, port: Number(broker.port || 1883) });
      Object.assign(env, { MQTT_URL: `mqtt://127.0.0.1:${mqttProxy.port}`, MQTT_CLIENT_ID: `kisht-outage-${runId}` });
    }

    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(DATABASE_URL|MQTT_|DATA_DIR|PORT|HOST|APP_|SEED_DEMO|LOG_LEVEL)/.test(k)));
    child = spawn(process.execPath, ['--import', 'tsx', path.join('packages', 'server', 'src', 'server.ts')], {
      cwd: REPO_ROOT,
      env: {
        ...inherited,
        ...env,
        APP_ENV: 'test',
        APP_SECRET: secret,
        DATABASE_URL: throughProxy.toString(),
        HOST: '127.0.0.1',
        PORT: String(port),
        MQTT_HOST: '127.0.0.1',
        MQTT_PORT: '0',
        SEED_DEMO: 'true',
        LOG_LEVEL: 'warn',
        CONSOLE_DIST: '/nonexistent',
        UPLOAD_DIR: path.join(REPO_ROOT, '.data', `outage-${runId}`),
        // Background work keeps hitting the database during the outage too.
        DUES_CHECK_SECONDS: '2',
        DEVICE_SWEEP_SECONDS: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.on('exit', (code, signal) => {
      exited = { code, signal };
    });
    const healthyIn = await waitHealthy(90_000);
    if (!Number.isFinite(healthyIn)) throw new Error(`the server did not start: ${JSON.stringify(exited)}\n${output}`);

    // Ravi signs in over HTTP (the OTP read from the outbox in the database) and enrols one customer per client.
    const requested = await call('POST', '/api/auth/loginWithOtp', { mobile: RAVI });
    expect(requested.status, JSON.stringify(requested.json)).toBe(200);
    const requestId = (requested.json.data as { request_id: string }).request_id;
    const otp = /\b(\d{6})\b/.exec((await direct.query<{ body: string }>('SELECT body FROM sms_outbox WHERE recipient = $1 ORDER BY id DESC LIMIT 1', [RAVI])).rows[0]!.body)![1]!;
    const verified = await call('POST', '/api/auth/verifyOtpAuth', { request_id: requestId, otp });
    expect(verified.status, JSON.stringify(verified.json)).toBe(200);
    token = (verified.json.data as { token: string }).token;
    const products = (await call('GET', '/api/products')).json.data as Array<{ id: number; product_type: number }>;
    const today = todayInIndia();
    for (let i = 0; i < CLIENTS; i++) {
      const start = addMonths(today, -1);
      const res = await call('POST', '/api/customer', {
        first_name: 'Outage', last_name: `Client${i}`, mobile: '+919812300000', device_brand: 'Vivo', device_model: 'Y28',
        imei1: withImeiCheckDigit(`86${String(90_000_000 + i).padStart(12, '0')}`), provisioning_type: 0,
        product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 1_400_000, down_payment_paise: 200_000,
        annual_rate_bps: 0, interest_method: 'flat', tenure_months: 6, start_date: start, first_due_date: addMonths(start, 1),
      });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      customers.push((res.json.data as { customer: { id: number } }).customer.id);
    }
  }, 180_000);

  afterAll(async () => {
    if (child && alive()) {
      child.kill('SIGTERM');
      await Promise.race([new Promise((resolve) => child.once('exit', resolve)), sleep(10_000)]);
      if (alive()) child.kill('SIGKILL');
    }
    await mqttProxy?.close();
    await dbProxy?.close();
    await direct?.end();
    if (cluster) {
      cluster.stop();
    } else if (dbName) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      await admin.end();
    }
  }, 60_000);

  it('stays up through cut connections and a refused database, answers 503 meanwhile, and is healthy within 5 s', async () => {
    const stopLoad = startLoad();
    await sleep(1500);
    // Connections dropped mid-transaction, new ones allowed at once: both a crashed server's FIN and a network's RST.
    for (const how of ['close', 'reset', 'close', 'reset'] as const) {
      dbProxy.cut(how);
      await sleep(400);
      expect(alive(), output).toBe(true);
    }
    // The database goes away: open connections cut, new ones refused for 3 s.
    const outageStart = Date.now();
    await dbProxy.refuse();
    dbProxy.cut('reset');
    await sleep(1200);
    const during = await health();
    await sleep(1800);
    await dbProxy.restore();
    const outageEnd = Date.now();
    const healthySeconds = await waitHealthy(15_000);
    await sleep(1500);
    await stopLoad();

    // Sent and answered while the database was refusing (a request sent just before the restore may be served after it).
    const inOutage = sent.filter((s) => s.at >= outageStart && s.at + s.ms <= outageEnd);
    const straddling = sent.filter((s) => s.at >= outageStart && s.at < outageEnd && s.at + s.ms > outageEnd);
    const unavailable = inOutage.filter((s) => s.status === 503 && s.code === 'SERVICE_UNAVAILABLE' && s.retryAfter === '5');
    const statuses = new Map<string, number>();
    for (const s of sent) statuses.set(`${s.status} ${s.code ?? ''}`.trim(), (statuses.get(`${s.status} ${s.code ?? ''}`.trim()) ?? 0) + 1);
    console.log(`cut + refuse: ${sent.length} payments sent in all (${[...statuses].map(([k, v]) => `${k}: ${v}`).join(', ')}); `
      + `${inOutage.length} during the 3 s outage: ${unavailable.length} x 503, ${inOutage.length - unavailable.length} other; `
      + `${straddling.length} sent during it and answered after it (${straddling.filter((s) => s.status === 200).length} x 200); slowest outage answer ${Math.round(Math.max(...inOutage.map((s) => s.ms)))} ms; healthy ${healthySeconds.toFixed(2)} s after the database came back`);

    expect(alive(), output).toBe(true);
    expect(during.status).toBe(503);
    expect(during.json).toEqual({ status: 'degraded', database: { ok: false, driver: 'postgres' }, broker: { ok: true, mode: mqttProxy ? 'external' : 'embedded' } });
    expect(inOutage.length).toBeGreaterThan(20);
    expect(unavailable.length).toBe(inOutage.length);
    // Fail fast: a refused database is a quick 503, not a hung request.
    expect(Math.max(...inOutage.map((s) => s.ms))).toBeLessThan(3000);
    // Whatever was not acknowledged was a 503; no 500s, no other errors, anywhere in the run.
    expect([...statuses.keys()].filter((k) => k !== '200' && k !== '503 SERVICE_UNAVAILABLE')).toEqual([]);
    expect(acknowledged.size).toBeGreaterThan(50);
    expect(healthySeconds).toBeLessThan(5);
  }, 120_000);

  it('stays up through pg_ctl restart -m immediate under load', async (ctx) => {
    if (!cluster) ctx.skip();
    const before = sent.length;
    const stopLoad = startLoad();
    await sleep(1000);
    const restartAt = Date.now();
    await cluster!.restartImmediate();
    const back = Date.now();
    const healthySeconds = await waitHealthy(15_000);
    await sleep(1000);
    await stopLoad();
    const run = sent.slice(before);
    const failed = run.filter((s) => s.status !== 200);
    const during = run.filter((s) => s.at >= restartAt && s.at < back);
    console.log(`pg_ctl restart -m immediate (${((back - restartAt) / 1000).toFixed(2)} s): ${run.length} payments sent, ${during.length} of them during the restart; `
      + `${failed.length} not acknowledged (${failed.filter((s) => s.status === 503 && s.code === 'SERVICE_UNAVAILABLE').length} x 503); healthy ${healthySeconds.toFixed(2)} s after pg_ctl returned`);
    expect(alive(), output).toBe(true);
    expect(failed.filter((s) => !(s.status === 503 && s.code === 'SERVICE_UNAVAILABLE'))).toEqual([]);
    expect(healthySeconds).toBeLessThan(5);
  }, 120_000);

  it('reports a broker outage on /api/health and reconnects on its own', async (ctx) => {
    if (!mqttProxy) ctx.skip();
    const before = sent.length;
    const stopLoad = startLoad();
    await mqttProxy!.refuse();
    mqttProxy!.cut('reset');
    await sleep(1500);
    const during = await health();
    await sleep(1000);
    await mqttProxy!.restore();
    const healthySeconds = await waitHealthy(15_000);
    await stopLoad();
    const run = sent.slice(before);
    console.log(`broker outage: health ${during.status} ${JSON.stringify(during.json)}; ${run.length} payments meanwhile, ${run.filter((s) => s.status === 200).length} acknowledged; healthy ${healthySeconds.toFixed(2)} s after the broker came back`);
    expect(alive(), output).toBe(true);
    expect(during.status).toBe(503);
    expect(during.json).toMatchObject({ status: 'degraded', database: { ok: true }, broker: { ok: false, mode: 'external' } });
    // Payments do not need the broker: they go on.
    expect(run.every((s) => s.status === 200)).toBe(true);
    expect(healthySeconds).toBeLessThan(5);
  }, 60_000);

  it('lost no acknowledged payment and stored none twice', async () => {
    expect(alive(), output).toBe(true);
    // A client retries what was not acknowledged with the same key; a payment stored before its answer was lost comes back as the same receipt.
    const retried = unresolved.size;
    // Payments stored although their answer was a 503 (the connection died around COMMIT): the retry must return them, not pay again.
    const storedUnanswered = new Map((await direct.query<{ idempotency_key: string; id: number }>(
      'SELECT idempotency_key, id FROM payments WHERE idempotency_key = ANY($1)', [[...unresolved.keys()]],
    )).rows.map((r) => [r.idempotency_key, Number(r.id)]));
    for (const [key, customerId] of [...unresolved]) {
      const again = await pay(customerId, key);
      expect(again.status, JSON.stringify(again)).toBe(200);
      if (storedUnanswered.has(key)) expect(acknowledged.get(key)).toBe(storedUnanswered.get(key));
    }
    const keys = [...acknowledged.keys()];
    const stored = await direct.query<{ idempotency_key: string; id: number; amount_paise: number }>(
      "SELECT idempotency_key, id, amount_paise FROM payments WHERE idempotency_key LIKE $1 ORDER BY id", [`out-${runId}-%`],
    );
    const byKey = new Map<string, number[]>();
    for (const row of stored.rows) byKey.set(row.idempotency_key, [...(byKey.get(row.idempotency_key) ?? []), Number(row.id)]);
    const lost = keys.filter((k) => !byKey.get(k)?.includes(acknowledged.get(k)!));
    const duplicated = [...byKey].filter(([, ids]) => ids.length > 1);
    const unasked = [...byKey.keys()].filter((k) => !acknowledged.has(k));
    // The ledger agrees with itself: every payment's allocations add up to it.
    const ledger = await direct.query<{ paid: string; allocated: string }>(
      `SELECT (SELECT COALESCE(SUM(amount_paise), 0) FROM payments WHERE idempotency_key LIKE $1) AS paid,
              (SELECT COALESCE(SUM(a.amount_paise), 0) FROM payment_allocations a JOIN payments p ON p.id = a.payment_id WHERE p.idempotency_key LIKE $1) AS allocated`,
      [`out-${runId}-%`],
    );
    console.log(`ledger: ${keys.length} payments acknowledged (${retried} after a retry with the same key, ${storedUnanswered.size} of which had been stored before their 503), `
      + `${stored.rows.length} stored; lost ${lost.length}, duplicated ${duplicated.length}`);
    expect(lost).toEqual([]);
    expect(duplicated).toEqual([]);
    expect(unasked).toEqual([]);
    expect(stored.rows.length).toBe(keys.length);
    expect(stored.rows.every((r) => Number(r.amount_paise) === PAYMENT_PAISE)).toBe(true);
    expect(Number(ledger.rows[0]!.allocated)).toBe(Number(ledger.rows[0]!.paid));
  }, 120_000);

  it('shows versions and addresses to the operator only', async () => {
    const open = await health();
    expect(open.status).toBe(200);
    expect(Object.keys(open.json).sort()).toEqual(['broker', 'database', 'status']);
    const operator = await call('GET', '/api/health', undefined, { 'x-operator-key': operatorKey(secret) }, false);
    const wrongKey = await call('GET', '/api/health', undefined, { 'x-operator-key': operatorKey(randomBytes(32).toString('hex')) }, false);
    expect(Object.keys(wrongKey.json).sort()).toEqual(['broker', 'database', 'status']);
    expect(operator.json).toMatchObject({
      status: 'ok', version: expect.any(String), node_version: process.version,
      database: { ok: true, driver: 'postgres', address: `127.0.0.1:${dbProxy.port}/${dbName}`, server_version: expect.stringMatching(/^\d+/) },
      broker: { ok: true, url: expect.stringMatching(/^mqtt:\/\//) },
    });
    expect(JSON.stringify(operator.json)).not.toContain(secret);
  });
});
