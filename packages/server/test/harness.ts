/**
 * Test harness: a real server (real database, real broker) per test file, driven through inject() with the
 * headers the console sends. PGlite in memory and the embedded broker by default; TEST_DATABASE_URL and
 * TEST_MQTT_URL switch to a real PostgreSQL and a real Mosquitto.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import pg from 'pg';
import type { LightMyRequestResponse } from 'fastify';
import { createEmmAuthSession } from '@kisht/domain/emm-auth';
import { buildApp, type BuiltApp } from '../src/app.ts';
import { loadConfig, type Limits } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { seedDemo, DEMO_USERS } from '../src/db/seed.ts';
import type { PushProvider } from '../src/providers/push/push.ts';
import type { SmsProvider } from '../src/providers/sms/sms-provider.ts';
import { inject } from 'vitest';
import { templateOf, withDatabase } from './global-setup.ts';

export const RAVI = DEMO_USERS[0].mobile;
export const SUNITA = DEMO_USERS[1].mobile;
export const ARJUN = DEMO_USERS[2].mobile;
export const MEENA = DEMO_USERS[3].mobile;

export const CONSOLE_HEADERS = {
  'x-auth-platform': 'mobile',
  'x-device-details': JSON.stringify({ model: 'Redmi 12', os: 'Android 14' }),
  'x-browser-name': 'Chrome WebView',
  'x-browser-version': '131.0',
  'x-device-type': 'mobile',
  'x-device-platform': 'Android',
};

/** The run's migrated PGlite data folder (global-setup.ts), once this file has read it. */
let templateFolder: Blob | undefined;

async function freshDatabase(): Promise<{ db: Database; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const template = inject('pgliteTemplate');
    // Read once per file, however many apps the file starts (the folder is about 45 MB).
    if (template) templateFolder ??= new Blob([readFileSync(template)]);
    const db = await openDatabase({ dataDir: 'memory://', ...(templateFolder ? { from: templateFolder } : {}) });
    return { db, drop: async () => undefined };
  }
  const prefix = inject('testDbPrefix');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${templateOf(prefix)}"`);
  await admin.end();
  const db = await openDatabase({ databaseUrl: withDatabase(url, name), dataDir: 'memory://' });
  return {
    db,
    drop: async () => {
      await db.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export interface TestAppOptions {
  limits?: Partial<Limits>;
  env?: Record<string, string>;
  sms?: SmsProvider;
  /** The offers sender's clock (decision 029). */
  adsClock?: () => Date;
  push?: PushProvider;
}

export interface Call {
  body?: unknown;
  token?: string | null;
  headers?: Record<string, string>;
  /** Leave the X-EMM-Auth-Session header out, or send this value instead of a fresh one. */
  emm?: false | string;
}

export async function startTestApp(options: TestAppOptions = {}) {
  const { db, drop } = await freshDatabase();
  const config = loadConfig(
    {
      APP_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATA_DIR: 'memory://',
      MQTT_PORT: '0',
      MQTT_HOST: '127.0.0.1',
      // Two report connections: several at once, without leaving many sessions on the machine's broker.
      ...(process.env.TEST_MQTT_URL ? { MQTT_URL: process.env.TEST_MQTT_URL, MQTT_REPORT_CONNECTIONS: '2' } : {}),
      CONSOLE_DIST: '/nonexistent',
      DUES_CHECK_SECONDS: '0',
      DEVICE_SWEEP_SECONDS: '0',
      ADS_CHECK_SECONDS: '0',
      ...options.env,
    },
    // Tests change rows behind the server's back (switches, blocks); the session cache, which only bus messages
    // clear, is off unless a test turns it on (test/session-cache.test.ts).
    { sessionCacheMs: 0, ...options.limits },
  );
  const secret = randomBytes(32).toString('hex');
  const built: BuiltApp = await buildApp(config, { db, secret, ...(options.sms ? { sms: options.sms } : {}), ...(options.adsClock ? { adsClock: options.adsClock } : {}), ...(options.push ? { push: options.push } : {}) });
  await seedDemo(db);

  async function call(method: 'GET' | 'POST', url: string, c: Call = {}): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...CONSOLE_HEADERS, ...c.headers };
    if (c.token) headers.authorization = `Bearer ${c.token}`;
    if (c.emm !== false) {
      const org = c.token ? (JSON.parse(Buffer.from(c.token.split('.')[1] ?? '', 'base64url').toString() || '{}') as { org?: number }).org : undefined;
      headers['x-emm-auth-session'] = c.emm ?? (await createEmmAuthSession(url, org ?? config.APP_ORG_ID));
    }
    return built.app.inject({ method, url, headers, ...(c.body !== undefined ? { payload: c.body as object } : {}) });
  }

  async function latestOtp(mobile: string): Promise<string> {
    const res = await db.query<{ body: string }>('SELECT body FROM sms_outbox WHERE recipient = $1 ORDER BY id DESC LIMIT 1', [mobile]);
    const match = /\b(\d{6})\b/.exec(res.rows[0]?.body ?? '');
    if (!match?.[1]) throw new Error(`no OTP in the outbox for ${mobile}`);
    return match[1];
  }

  async function signIn(mobile: string, headers: Record<string, string> = {}) {
    const requested = await call('POST', '/api/auth/loginWithOtp', { body: { mobile }, headers });
    const requestId = requested.json().data.request_id as string;
    const verified = await call('POST', '/api/auth/verifyOtpAuth', { body: { request_id: requestId, otp: await latestOtp(mobile) }, headers });
    if (verified.statusCode !== 200) throw new Error(`sign-in failed: ${verified.body}`);
    const data = verified.json().data as { token: string; session_id: string; user: { id: number } };
    return { token: data.token, sessionId: data.session_id, userId: data.user.id };
  }

  /** A multipart upload as the console sends it: the fields first, then one file part. */
  async function upload(url: string, token: string, fields: Record<string, string | number>, file: { name: string; type: string; bytes: Buffer }) {
    const boundary = `----kishttest${randomBytes(6).toString('hex')}`;
    const payload = Buffer.concat([
      ...Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
      file.bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return call('POST', url, { token, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: payload });
  }

  return {
    ...built,
    config,
    secret,
    call,
    upload,
    get: (url: string, c?: Call) => call('GET', url, c),
    post: (url: string, body?: unknown, c: Call = {}) => call('POST', url, { ...c, body: body ?? c.body }),
    latestOtp,
    signIn,
    async stop() {
      await built.close();
      await drop();
    },
  };
}
export type TestApp = Awaited<ReturnType<typeof startTestApp>>;

/** A TCP port free on the loopback right now (for servers that must listen on a known port). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
