/**
 * GET /api/health: whether the database and the broker answer, for load balancers (200 or 503) and the
 * operator. The public sees the status only; the operator (this machine, with the operator key the CLI
 * derives from the app secret) also sees versions, addresses, latency and uptime.
 */
import { timingSafeEqual } from 'node:crypto';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../shared/types.ts';
import { Health } from '@kisht/contract/health';
import { ErrorReply } from '@kisht/contract/envelope';
import type { Database } from '../../db/database.ts';
import type { Broker } from '../../broker/broker.ts';
import { isFromThisMachine } from '../../shared/loopback.ts';
import { withTimeout } from '../../shared/repeat.ts';

/** A database that has not answered in this time counts as down: the check must not hang with it. */
const DATABASE_CHECK_MS = 2000;

export async function healthRoutes(app: App, opts: { db: Database; broker: Broker; version: string; operatorKey: string }) {
  const expected = Buffer.from(opts.operatorKey);
  const isOperator = (request: FastifyRequest): boolean => {
    const given = request.headers['x-operator-key'];
    if (typeof given !== 'string' || !isFromThisMachine(request)) return false;
    const key = Buffer.from(given);
    return key.length === expected.length && timingSafeEqual(key, expected);
  };

  app.get('/api/health', {
    config: { public: true, skipEmm: true, callers: ['public'], scope: 'none' },
    schema: {
      tags: ['health'],
      summary: 'Database and broker state (details for the operator only)',
      headers: Type.Object({ 'x-operator-key': Type.Optional(Type.String()) }),
      // A 503 is the degraded state, or (for a caller sending a token while the database is down) the error envelope.
      response: { 200: Health, 503: Type.Union([Health, ErrorReply]) },
    },
  }, async (request, reply) => {
    let latency: number | null = null;
    let serverVersion: string | null = null;
    try {
      const started = performance.now();
      const res = await withTimeout(opts.db.query<{ v: string }>("SELECT current_setting('server_version') AS v"), DATABASE_CHECK_MS, 'the database did not answer');
      latency = Math.round((performance.now() - started) * 100) / 100;
      serverVersion = res.rows[0]?.v ?? null;
    } catch {
      // Down, restarting or cut off: reported below; the pool reconnects on its own once it is back.
    }
    const broker = opts.broker.status();
    const healthy = latency !== null && broker.ok;
    const body: Health = {
      status: healthy ? 'ok' : 'degraded',
      database: { ok: latency !== null, driver: opts.db.driver },
      broker: { ok: broker.ok, mode: broker.mode },
    };
    if (isOperator(request)) {
      Object.assign(body.database, { latency_ms: latency, address: opts.db.address, server_version: serverVersion });
      Object.assign(body.broker, { url: broker.url });
      Object.assign(body, { version: opts.version, node_version: process.version, uptime_seconds: Math.round(process.uptime()) });
    }
    return reply.status(healthy ? 200 : 503).header('cache-control', 'no-store').send(body);
  });
}
