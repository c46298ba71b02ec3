/**
 * The anti-replay check on Redis (REDIS_URL): two API nodes, each with a database of its own, share only the
 * Redis, and an X-EMM-Auth-Session value used on one is refused on the other. With Redis cut off (a TCP proxy
 * in front of it, closed) a request is answered 503 with Retry-After, never let through unchecked. Runs where a
 * Redis answers (TEST_REDIS_URL, default the machine's 127.0.0.1:6379); CI has one.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmmAuthSession } from '@kisht/domain/emm-auth';
import { startTestApp, type TestApp } from './harness.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const target = new URL(REDIS_URL);

const reachable = await new Promise<boolean>((resolve) => {
  const socket = net.connect({ host: target.hostname, port: Number(target.port || 6379) }, () => {
    socket.destroy();
    resolve(true);
  });
  socket.on('error', () => resolve(false));
  socket.setTimeout(1000, () => {
    socket.destroy();
    resolve(false);
  });
});

/** A TCP proxy to Redis that can be cut: closing it ends every connection through it and refuses new ones. */
async function cuttableProxy() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: target.hostname, port: Number(target.port || 6379) });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `redis://127.0.0.1:${port}`,
    async cut() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const PATH = '/api/organizations/get_org_app_config';

describe.runIf(reachable)('the anti-replay check on Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    [a, b] = await Promise.all([startTestApp({ env: { REDIS_URL } }), startTestApp({ env: { REDIS_URL } })]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('refuses on one node a header used on the other, and on the same node, in any letter case', async () => {
    const value = await createEmmAuthSession(PATH, a.config.APP_ORG_ID);
    expect((await a.get(PATH, { emm: value })).statusCode).toBe(200);
    const onB = await b.get(PATH, { emm: value });
    expect([onB.statusCode, onB.json().code]).toEqual([401, 'EMM_AUTH_REPLAYED']);
    expect((await a.get(PATH, { emm: value.toUpperCase() })).json().code).toBe('EMM_AUTH_REPLAYED');
    // A fresh value passes on either node: nothing else is shared between them.
    expect((await b.get(PATH, { emm: await createEmmAuthSession(PATH, b.config.APP_ORG_ID) })).statusCode).toBe(200);
  });

  it('starts while Redis is away, answering 503 until it can check', async () => {
    const proxy = await cuttableProxy();
    await proxy.cut();
    const c = await startTestApp({ env: { REDIS_URL: proxy.url } });
    try {
      const res = await c.get(PATH, { emm: await createEmmAuthSession(PATH, c.config.APP_ORG_ID) });
      expect([res.statusCode, res.json().code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    } finally {
      await c.stop();
    }
  }, 60_000);

  it('answers 503 with Retry-After while Redis is unreachable: no request goes through unchecked', async () => {
    const proxy = await cuttableProxy();
    const c = await startTestApp({ env: { REDIS_URL: proxy.url } });
    try {
      const before = await createEmmAuthSession(PATH, c.config.APP_ORG_ID);
      expect((await c.get(PATH, { emm: before })).statusCode).toBe(200);
      await proxy.cut();
      const down = await c.get(PATH, { emm: await createEmmAuthSession(PATH, c.config.APP_ORG_ID) });
      expect([down.statusCode, down.json().code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
      expect(Number(down.headers['retry-after'])).toBeGreaterThan(0);
      // The value used before the cut is still known to Redis itself: a node on the real Redis refuses it.
      const other = await startTestApp({ env: { REDIS_URL } });
      try {
        expect((await other.get(PATH, { emm: before })).json().code).toBe('EMM_AUTH_REPLAYED');
      } finally {
        await other.stop();
      }
    } finally {
      await c.stop();
    }
  }, 60_000);
});
