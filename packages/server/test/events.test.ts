/**
 * GET /api/events on a listening server, read with fetch as the console reads it: changes reach the sessions
 * that may see them and no others, and the stream ends with its session.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmmAuthSession } from '@kisht/domain/emm-auth';
import { todayInIndia } from '@kisht/domain/format';
import { buildApp, type BuiltApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { seedDemo } from '../src/db/seed.ts';
import { createUsersRepository } from '../src/modules/users/users.repository.ts';
import { ARJUN, CONSOLE_HEADERS, freePort, MEENA, RAVI, SUNITA, startTestApp, type TestApp } from './harness.ts';
import { startPgCluster, type PgCluster } from './support/pg-cluster.ts';
import { deviceFixtures } from './device-fixtures.ts';
import { connectPhone, type Enrolled } from './phone.ts';

/** A second mini-retailer under Ravi, made for this file: Sunita's sibling. */
const KIRAN = '+919876543298';

interface Received {
  event: string;
  data: Record<string, unknown>;
  /** When it arrived (Date.now()). */
  at: number;
}

let t: TestApp;
let base = '';
const tokens = { ravi: '', sunita: '', kiran: '', arjun: '', meena: '' };
const streams: Array<{ close: () => void }> = [];

/** Opens the caller's stream and parses it as it comes (SSE: `event:` and `data:` lines, blank line between). */
async function openStream(token: string, server = base) {
  const controller = new AbortController();
  const res = await fetch(`${server}/api/events`, {
    headers: { ...CONSOLE_HEADERS, authorization: `Bearer ${token}`, 'x-emm-auth-session': await createEmmAuthSession('/api/events', orgOf(token)) },
    signal: controller.signal,
  });
  const received: Received[] = [];
  let comments = 0;
  let ended = false;
  const done = (async () => {
    if (!res.body) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          if (block.startsWith(':')) comments++;
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (data !== undefined) received.push({ event, data: JSON.parse(data) as Record<string, unknown>, at: Date.now() });
        }
      }
    } catch {
      // aborted by the test
    }
    ended = true;
  })();
  const stream = {
    res,
    received,
    get comments() {
      return comments;
    },
    get ended() {
      return ended;
    },
    done,
    changes: () => received.filter((r) => r.event === 'message').map((r) => r.data),
    close: () => controller.abort(),
  };
  streams.push(stream);
  // The stream is registered once `ready` arrives.
  await expect.poll(() => received.some((r) => r.event === 'ready'), { timeout: 5000 }).toBe(true);
  return stream;
}
type Stream = Awaited<ReturnType<typeof openStream>>;

function orgOf(token: string): number {
  return (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { org: number }).org;
}

const mentions = (stream: Stream, type: string, customerId: number) =>
  stream.changes().some((c) => c.type === type && (c.customer_ids as number[]).includes(customerId));

/**
 * Waits until every stream has seen the marker (each organisation's dues run reaches every session of it),
 * so whatever a stream was going to be sent before the marker has arrived.
 */
async function fence(list: Stream[]) {
  const before = list.map((s) => s.changes().filter((c) => c.type === 'dues').length);
  const day = todayInIndia();
  await t.services.dues.rerun(23, day);
  await t.services.dues.rerun(46, day);
  await expect.poll(() => list.every((s, i) => s.changes().filter((c) => c.type === 'dues').length > before[i]!), { timeout: 5000 }).toBe(true);
}

beforeAll(async () => {
  t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const ravi = (await t.db.query<{ id: number; org_id: number; account_id: number }>('SELECT id, org_id, account_id FROM users WHERE mobile = $1', [RAVI])).rows[0]!;
  await createUsersRepository(t.db).insert({ org_id: ravi.org_id, user_type: 'miniretailer', parent_id: ravi.id, account_id: ravi.account_id, first_name: 'Kiran', last_name: 'Rao', mobile: KIRAN });
  for (const [who, mobile] of [['ravi', RAVI], ['sunita', SUNITA], ['kiran', KIRAN], ['arjun', ARJUN], ['meena', MEENA]] as const) tokens[who] = (await t.signIn(mobile)).token;
}, 60_000);

afterAll(async () => {
  for (const s of streams) s.close();
  await t?.stop();
});

describe('GET /api/events', () => {
  it('needs a session and the X-EMM header like every private route', async () => {
    const anonymous = await fetch(`${base}/api/events`, { headers: { 'x-emm-auth-session': await createEmmAuthSession('/api/events', 23) } });
    expect(anonymous.status).toBe(511);
    const noEmm = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${tokens.ravi}` } });
    expect(noEmm.status).toBe(401);
    // The route takes no parameters: a stray query is refused at once (a 4xx, not a stream that never ends).
    const stray = await t.get('/api/events?customer_id=2147483648&x=1', { token: tokens.ravi });
    expect(stray.statusCode).toBe(400);
    expect(stray.json().code).toBe('VALIDATION_FAILED');
    const head = await t.call('HEAD' as 'GET', '/api/events', { token: tokens.ravi });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toMatch(/^text\/event-stream/);
    const spec = (await t.get('/api/openapi.json', { emm: false })).json() as { paths: Record<string, { get: { responses: Record<string, { content?: Record<string, unknown> }> } }> };
    expect(Object.keys(spec.paths['/api/events']!.get.responses['200']!.content ?? {})).toContain('text/event-stream');
  });

  it("tells the customer's network of an enrolment, and no sibling mini-retailer, other network or organisation", async () => {
    const f = deviceFixtures(t, () => tokens.sunita);
    const [ravi, sunita, kiran, arjun, meena] = await Promise.all([tokens.ravi, tokens.sunita, tokens.kiran, tokens.arjun, tokens.meena].map((token) => openStream(token)));
    expect(ravi!.res.headers.get('content-type')).toMatch(/^text\/event-stream/);

    // Sunita's customer: her parent Ravi sees it, her sibling Kiran does not.
    const c = await f.customer();
    const res = await f.enrolDevice({ token: await f.qrToken(c.id), imei1: c.imei1 });
    expect(res.statusCode, res.body).toBe(200);
    await expect.poll(() => mentions(ravi!, 'customer', c.id) && mentions(sunita!, 'customer', c.id), { timeout: 5000 }).toBe(true);
    await fence([kiran!, arjun!, meena!]);
    for (const other of [kiran!, arjun!, meena!]) {
      expect(other.changes().filter((e) => e.type !== 'dues')).toEqual([]);
      expect(JSON.stringify(other.received.map((r) => r.data))).not.toContain(`${c.id}`);
    }
    // Events carry ids, never the customer's data.
    expect(JSON.stringify(ravi!.received.map((r) => r.data))).not.toContain(c.imei1);

    // Ravi's own customer: his mini-retailers hear nothing of it.
    const own = await deviceFixtures(t, () => tokens.ravi).customer();
    await expect.poll(() => mentions(ravi!, 'customer', own.id), { timeout: 5000 }).toBe(true);
    await fence([sunita!, kiran!]);
    expect(mentions(sunita!, 'customer', own.id) || mentions(kiran!, 'customer', own.id)).toBe(false);
    for (const s of [ravi, sunita, kiran, arjun, meena]) s!.close();
  });

  it("sends a device_command event when the phone reports a command done, and the lock's customer change", async () => {
    const f = deviceFixtures(t, () => tokens.ravi);
    const c = await f.customer();
    const enrolled = (await f.enrolDevice({ token: await f.qrToken(c.id), imei1: c.imei1 })).json().data as Enrolled;
    const phone = await connectPhone(t.broker.status().url, enrolled);
    const ravi = await openStream(tokens.ravi);
    try {
      const lock = await t.post('/api/device/lock', { customer_id: c.id }, { token: tokens.ravi });
      expect(lock.statusCode, lock.body).toBe(200);
      const command = await phone.next();
      const before = ravi.changes().length;
      const reported = Date.now();
      await phone.ack(command, 'done');
      await expect.poll(() => ravi.changes().slice(before).some((e) => e.type === 'device_command' && (e.customer_ids as number[]).includes(c.id)), { timeout: 5000 }).toBe(true);
      const heard = ravi.received.find((r) => r.at >= reported && r.data.type === 'device_command' && (r.data.customer_ids as number[]).includes(c.id))!;
      console.info(`events: the done report reached the retailer's stream ${heard.at - reported} ms after the phone sent it (changes are gathered for up to 150 ms)`);
      await expect.poll(() => ravi.changes().slice(before).some((e) => e.type === 'customer' && (e.customer_ids as number[]).includes(c.id)), { timeout: 5000 }).toBe(true);
      expect((await f.profile(c.id)).lock_status).toBe(1);

      // A scheduled unlock firing names the schedule's customer.
      const runAt = new Date(Date.now() + 60_000).toISOString();
      expect((await t.post('/api/device/schedule_lock_unlock', { customer_id: c.id, action: 'unlock', run_at: runAt }, { token: tokens.ravi })).statusCode).toBe(200);
      await t.db.query(`UPDATE device_schedules SET run_at = now() - interval '1 second' WHERE customer_id = $1`, [c.id]);
      expect(await t.services.devices.runSchedules()).toBe(1);
      await expect.poll(() => mentions(ravi, 'schedule', c.id), { timeout: 5000 }).toBe(true);

      // A payment taken by another session of the network names the loan whose figures moved.
      const paid = await t.post('/api/emi/multiple_emi_paid', { customer_id: c.id, amount_paise: 10_000, method: 'cash' }, { token: tokens.sunita });
      expect(paid.statusCode).toBe(404); // not Sunita's customer: nothing is written, nothing is announced
      const paying = await t.signIn(RAVI);
      expect((await t.post('/api/emi/multiple_emi_paid', { customer_id: c.id, amount_paise: 10_000, method: 'cash' }, { token: paying.token })).statusCode).toBe(200);
      await expect.poll(() => mentions(ravi, 'emi', c.id), { timeout: 5000 }).toBe(true);
    } finally {
      ravi.close();
      await phone.close();
    }
  });

  it("tells a member's own stream and its parent's of a switch change, and not its sibling's or another network's", async () => {
    const sunitaId = (await t.db.query<{ id: number }>('SELECT id FROM users WHERE mobile = $1', [SUNITA])).rows[0]!.id;
    const [ravi, sunita, kiran, arjun] = await Promise.all([tokens.ravi, tokens.sunita, tokens.kiran, tokens.arjun].map((token) => openStream(token)));
    const network = (s: Stream) => s.changes().filter((c) => c.type === 'network').length;
    try {
      const off = await t.post('/api/country/updateUsers', { user_id: sunitaId, user_access: { feature_access: '0' } }, { token: tokens.ravi });
      expect(off.statusCode, off.body).toBe(200);
      await expect.poll(() => network(ravi!) > 0 && network(sunita!) > 0, { timeout: 5000 }).toBe(true);
      await fence([kiran!, arjun!]);
      expect(network(kiran!) + network(arjun!)).toBe(0);
      // Events name no member: the console reads what it may see again.
      expect(ravi!.changes().find((c) => c.type === 'network')).toEqual({ type: 'network' });
    } finally {
      await t.post('/api/country/updateUsers', { user_id: sunitaId, user_access: { feature_access: '1' } }, { token: tokens.ravi });
      for (const s of [ravi, sunita, kiran, arjun]) s!.close();
    }
  });

  it("tells of a key order only the sessions that list it: the buyer's account, and of its mini-retailers only the buyer", async () => {
    const [raviRow, kiranRow] = (await t.db.query<{ id: number; account_id: number }>('SELECT id, account_id FROM users WHERE mobile = ANY($1::text[]) ORDER BY mobile = $2 DESC', [[RAVI, KIRAN], RAVI])).rows;
    const [ravi, kiran, arjun] = await Promise.all([tokens.ravi, tokens.kiran, tokens.arjun].map((token) => openStream(token)));
    const orders = (s: Stream) => s.changes().filter((c) => c.type === 'payment' && (c.customer_ids as number[]).length === 0).length;
    try {
      t.services.events.notify({ type: 'key_order', account_id: raviRow!.account_id, retailer_id: raviRow!.id });
      await expect.poll(() => orders(ravi!), { timeout: 5000 }).toBe(1);
      await fence([kiran!, arjun!]);
      expect(orders(kiran!) + orders(arjun!)).toBe(0);
      // The mini-retailer's own order reaches it, and its parent, who lists every order of the account.
      t.services.events.notify({ type: 'key_order', account_id: kiranRow!.account_id, retailer_id: kiranRow!.id });
      await expect.poll(() => orders(kiran!) === 1 && orders(ravi!) === 2, { timeout: 5000 }).toBe(true);
      await fence([arjun!]);
      expect(orders(arjun!)).toBe(0);
    } finally {
      for (const s of [ravi, kiran, arjun]) s!.close();
    }
  });

  it('ends the stream when its session logs out, and keeps the same user\'s other sessions', async () => {
    const second = await t.signIn(RAVI);
    const leaving = await openStream(second.token);
    const staying = await openStream(tokens.ravi);
    const out = await t.post('/api/auth/logout', {}, { token: second.token });
    expect(out.statusCode, out.body).toBe(200);
    await expect.poll(() => leaving.ended, { timeout: 5000 }).toBe(true);
    expect(leaving.received.at(-1)).toMatchObject({ event: 'end', data: { reason: 'session' } });
    expect(staying.ended).toBe(false);
    // The ended session cannot open another stream.
    const again = await fetch(`${base}/api/events`, {
      headers: { authorization: `Bearer ${second.token}`, 'x-emm-auth-session': await createEmmAuthSession('/api/events', 23) },
    });
    expect(again.status).toBe(511);
    staying.close();
    await expect.poll(() => t.services.events.size, { timeout: 5000 }).toBe(0);
  });
});

/**
 * Two API nodes on one PostgreSQL (a private cluster when initdb is installed, else TEST_DATABASE_URL): a
 * change made through one node reaches a stream open on the other, through LISTEN/NOTIFY.
 */
describe('across API nodes', () => {
  let cluster: PgCluster | null = null;
  let url = process.env.TEST_DATABASE_URL ?? null;
  const nodes: BuiltApp[] = [];

  beforeAll(async () => {
    const started = startPgCluster(await freePort());
    if ('url' in started) {
      cluster = started;
      url = started.url;
    } else {
      console.log(`events.test.ts: no private PostgreSQL cluster (${started.unavailable})${url ? '; using TEST_DATABASE_URL' : '; the cross-node case is skipped'}`);
    }
  }, 90_000);

  afterAll(async () => {
    for (const node of nodes.reverse()) await node.close();
    cluster?.stop();
  }, 30_000);

  it('delivers an edit made on one node to a stream open on the other', async (ctx) => {
    if (!url) return ctx.skip();
    if (!cluster) {
      // A shared server: a database of this test's own.
      const name = `kisht_events_${randomBytes(4).toString('hex')}`;
      const admin = new (await import('pg')).default.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      await admin.end();
      url = url.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);
    }
    const secret = randomBytes(32).toString('hex');
    const config = loadConfig({
      APP_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: url, DATA_DIR: 'memory://', MQTT_PORT: '0', MQTT_HOST: '127.0.0.1',
      CONSOLE_DIST: '/nonexistent', DUES_CHECK_SECONDS: '0', DEVICE_SWEEP_SECONDS: '0', SMS_QUEUE_SECONDS: '0',
    });
    const a = await buildApp(config, { secret });
    nodes.push(a);
    await seedDemo(a.db);
    const b = await buildApp(config, { secret });
    nodes.push(b);
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    const address = b.app.server.address();
    const onB = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

    // Ravi signs in through node A; his stream is on node B.
    const injectA = async (method: 'GET' | 'POST', path: string, body?: object, token?: string) =>
      a.app.inject({
        method, url: path, payload: body,
        headers: { ...CONSOLE_HEADERS, ...(token ? { authorization: `Bearer ${token}` } : {}), 'x-emm-auth-session': await createEmmAuthSession(path, 23) },
      });
    const requested = (await injectA('POST', '/api/auth/loginWithOtp', { mobile: RAVI })).json().data.request_id as string;
    const otp = /\b(\d{6})\b/.exec((await a.db.query<{ body: string }>('SELECT body FROM sms_outbox WHERE recipient = $1 ORDER BY id DESC LIMIT 1', [RAVI])).rows[0]!.body)![1]!;
    const token = (await injectA('POST', '/api/auth/verifyOtpAuth', { request_id: requested, otp })).json().data.token as string;
    const stream = await openStream(token, onB);

    const throughA = {
      get: (path: string, c: { token?: string } = {}) => injectA('GET', path, undefined, c.token),
      post: (path: string, body: object, c: { token?: string } = {}) => injectA('POST', path, body, c.token),
    };
    const customer = await deviceFixtures(throughA as unknown as TestApp, () => token).customer();
    const edit = await injectA('POST', '/api/customer/update_customer_detailsV3', { customer_id: customer.id, address: 'Shop 4, MG Road' }, token);
    expect(edit.statusCode, edit.body).toBe(200);
    await expect.poll(() => mentions(stream, 'customer', customer.id), { timeout: 10_000 }).toBe(true);
    stream.close();
  }, 120_000);

  it("trusts a session on a node for a few seconds, and a logout on one node ends it on the other at once", async (ctx) => {
    const [a, b] = nodes;
    if (!a || !b) return ctx.skip();
    const on = (node: BuiltApp) => async (method: 'GET' | 'POST', path: string, token: string, body?: object) =>
      node.app.inject({ method, url: path, payload: body, headers: { ...CONSOLE_HEADERS, authorization: `Bearer ${token}`, 'x-emm-auth-session': await createEmmAuthSession(path, 23) } });
    const [onA, onB] = [on(a), on(b)];
    const signIn = async () => {
      const requested = (await a.app.inject({ method: 'POST', url: '/api/auth/loginWithOtp', payload: { mobile: RAVI }, headers: { ...CONSOLE_HEADERS, 'x-emm-auth-session': await createEmmAuthSession('/api/auth/loginWithOtp', 23) } })).json().data.request_id as string;
      const otp = /\b(\d{6})\b/.exec((await a.db.query<{ body: string }>('SELECT body FROM sms_outbox WHERE recipient = $1 ORDER BY id DESC LIMIT 1', [RAVI])).rows[0]!.body)![1]!;
      return (await a.app.inject({ method: 'POST', url: '/api/auth/verifyOtpAuth', payload: { request_id: requested, otp }, headers: { ...CONSOLE_HEADERS, 'x-emm-auth-session': await createEmmAuthSession('/api/auth/verifyOtpAuth', 23) } })).json().data as { token: string; session_id: string };
    };

    // Node B keeps the session it read: ending it behind the servers' backs (no bus message) is not seen at once.
    const quiet = await signIn();
    expect((await onB('GET', '/api/user/get-details', quiet.token)).statusCode).toBe(200);
    await b.db.query('UPDATE sessions SET ended_at = now() WHERE id = $1', [quiet.session_id]);
    expect((await onB('GET', '/api/user/get-details', quiet.token)).statusCode).toBe(200);
    expect((await onA('GET', '/api/user/get-details', quiet.token)).statusCode).toBe(511);

    // A logout on node A reaches node B's cache through the bus.
    const session = await signIn();
    expect((await onB('GET', '/api/user/get-details', session.token)).statusCode).toBe(200);
    expect((await onA('POST', '/api/auth/logout', session.token, {})).statusCode).toBe(200);
    const started = Date.now();
    await expect.poll(async () => (await onB('GET', '/api/user/get-details', session.token)).statusCode, { timeout: 3000, interval: 20 }).toBe(511);
    console.info(`session cache: a logout on node A ended the session on node B after ${Date.now() - started} ms`);
  }, 60_000);
});
