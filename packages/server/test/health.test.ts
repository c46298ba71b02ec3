/**
 * /api/health: status for everyone, versions and addresses for the operator only; a database that is gone
 * answers 503 SERVICE_UNAVAILABLE (translated, with Retry-After), never a 500. The outage itself, with a
 * real PostgreSQL behind a fault-injecting proxy, is in database-outage.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmmAuthSession } from '@kisht/domain/emm-auth';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { isDatabaseUnavailable } from '../src/db/errors.ts';
import { seedDemo } from '../src/db/seed.ts';
import { operatorKey } from '../src/secret.ts';
import { translate } from '../src/shared/messages.ts';
import { CONSOLE_HEADERS, startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.stop());

const PUBLIC_KEYS = ['broker', 'database', 'status'];

describe('GET /api/health', () => {
  it('shows the public the status only', async () => {
    const res = await t.get('/api/health', { emm: false });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(PUBLIC_KEYS);
    expect(Object.keys(body.database).sort()).toEqual(['driver', 'ok']);
    expect(Object.keys(body.broker).sort()).toEqual(['mode', 'ok']);
    expect(body).toMatchObject({ status: 'ok', database: { ok: true }, broker: { ok: true } });
  });

  it('shows the operator versions, addresses, latency and uptime', async () => {
    const res = await t.get('/api/health', { emm: false, headers: { 'x-operator-key': operatorKey(t.secret) } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ok',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      node_version: process.version,
      uptime_seconds: expect.any(Number),
      database: { ok: true, latency_ms: expect.any(Number), address: expect.any(String), server_version: expect.stringMatching(/^\d+/) },
      broker: { ok: true, url: expect.stringMatching(/^mqtts?:\/\//) },
    });
    expect(res.json().database.address).not.toMatch(/@|password/);
  });

  it('treats a wrong key, or the right key from another machine, as the public', async () => {
    const wrong = await t.get('/api/health', { emm: false, headers: { 'x-operator-key': operatorKey(randomBytes(32).toString('hex')) } });
    expect(Object.keys(wrong.json()).sort()).toEqual(PUBLIC_KEYS);
    const remote = await t.app.inject({ method: 'GET', url: '/api/health', remoteAddress: '203.0.113.9', headers: { 'x-operator-key': operatorKey(t.secret) } });
    expect(remote.statusCode).toBe(200);
    expect(Object.keys(remote.json()).sort()).toEqual(PUBLIC_KEYS);
  });
});

describe('a broker connection that drops', () => {
  it('shows as degraded on /api/health and heals on its own, without ending the process', async () => {
    const poll = async (want: number, withinMs: number) => {
      const started = Date.now();
      for (;;) {
        const res = await t.get('/api/health', { emm: false });
        if (res.statusCode === want || Date.now() - started > withinMs) return { res, seconds: (Date.now() - started) / 1000 };
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    // The server's own connection to the broker is cut from under it, as a broker restart would.
    t.broker.client.stream.destroy();
    const down = await poll(503, 2000);
    expect(down.res.statusCode).toBe(503);
    expect(down.res.json()).toMatchObject({ status: 'degraded', database: { ok: true }, broker: { ok: false } });
    const up = await poll(200, 5000);
    expect(up.res.statusCode).toBe(200);
    expect(up.seconds).toBeLessThan(5);
  });
});

describe('a database that is gone (PGlite)', () => {
  it('answers 503 SERVICE_UNAVAILABLE in the caller\'s language with Retry-After, and health says degraded', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: 'memory://', MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', CONSOLE_DIST: '/nonexistent', DUES_CHECK_SECONDS: '0', DEVICE_SWEEP_SECONDS: '0' });
    const built = await buildApp(config, { db, secret: randomBytes(32).toString('hex') });
    await seedDemo(db);
    try {
      await db.close();
      const url = '/api/auth/loginWithOtp';
      const res = await built.app.inject({
        method: 'POST', url, payload: { mobile: '+919876543210' },
        headers: { ...CONSOLE_HEADERS, cookie: 'i18next=hn', 'x-emm-auth-session': await createEmmAuthSession(url, config.APP_ORG_ID) },
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({ success: false, code: 'SERVICE_UNAVAILABLE', message: translate('hn', 'errors.SERVICE_UNAVAILABLE', ''), retry_after_seconds: 5 });
      expect(res.json().message).toMatch(/[\u0900-\u097F]/);

      const health = await built.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(503);
      expect(health.json()).toEqual({ status: 'degraded', database: { ok: false, driver: 'pglite' }, broker: { ok: true, mode: 'embedded' } });
    } finally {
      await built.close();
    }
  }, 60_000);
});

describe('which errors mean "the database is unavailable"', () => {
  const cases: [string, unknown, boolean][] = [
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), true],
    ['connection reset', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), true],
    ['admin shutdown (57P01)', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }), true],
    ['crash shutdown (57P02)', Object.assign(new Error('terminating connection due to crash of another server process'), { code: '57P02' }), true],
    ['starting up (57P03)', Object.assign(new Error('the database system is starting up'), { code: '57P03' }), true],
    ['connection failure (08006)', Object.assign(new Error('connection failure'), { code: '08006' }), true],
    ['a dropped socket', new Error('Connection terminated unexpectedly'), true],
    ['a client that lost its connection', new Error('Client has encountered a connection error and is not queryable'), true],
    ['a pool that cannot connect in time', new Error('timeout exceeded when trying to connect'), true],
    ['a closed PGlite', new Error('PGlite is closed'), true],
    ['every address refused', new AggregateError([Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })], ''), true],
    ['a unique violation', Object.assign(new Error('duplicate key value'), { code: '23505' }), false],
    ['a syntax error', Object.assign(new Error('syntax error at or near'), { code: '42601' }), false],
    ['a check violation', Object.assign(new Error('violates check constraint'), { code: '23514' }), false],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')"), false],
    ['not an error', 'ECONNREFUSED', false],
  ];
  for (const [name, error, expected] of cases) {
    it(`${name}: ${expected ? '503' : 'not 503'}`, () => {
      expect(isDatabaseUnavailable(error)).toBe(expected);
    });
  }
});
