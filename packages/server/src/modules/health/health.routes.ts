/** GET /api/health: database and broker state, for load balancers and the operator. */
import type { App } from '../../shared/types.ts';
import { Health } from '../../contract/health.ts';
import type { Database } from '../../db/database.ts';
import type { Broker } from '../../broker/broker.ts';

export async function healthRoutes(app: App, opts: { db: Database; broker: Broker; version: string }) {
  app.get('/api/health', {
    config: { public: true, skipEmm: true },
    schema: { tags: ['health'], summary: 'Database and broker state', response: { 200: Health, 503: Health } },
  }, async (_request, reply) => {
    let latency: number | null;
    try {
      const started = performance.now();
      await opts.db.query('SELECT 1');
      latency = Math.round((performance.now() - started) * 100) / 100;
    } catch {
      latency = null;
    }
    const broker = opts.broker.status();
    const healthy = latency !== null && broker.ok;
    return reply.status(healthy ? 200 : 503).send({
      status: healthy ? 'ok' : 'degraded',
      version: opts.version,
      uptime_seconds: Math.round(process.uptime()),
      database: { ok: latency !== null, driver: opts.db.driver, latency_ms: latency },
      broker,
    });
  });
}
