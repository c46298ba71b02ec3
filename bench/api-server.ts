/**
 * Child process for bench/api-throughput.ts: the real server (PGlite in memory, or DATABASE_URL) and, in the
 * same process, a bare Fastify route as the baseline. Prints one JSON line with the ports and a token.
 */
import Fastify from 'fastify';
import { randomBytes } from 'node:crypto';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { seedDemo, DEMO_USERS } from '../packages/server/src/db/seed.ts';

const config = loadConfig({
  APP_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATA_DIR: 'memory://',
  MQTT_PORT: '0',
  MQTT_HOST: '127.0.0.1',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  // EMM_AUTH=off measures what the anti-replay check costs (the insert into emm_auth_seen per request).
  ...(process.env.EMM_AUTH ? { EMM_AUTH: process.env.EMM_AUTH } : {}),
  CONSOLE_DIST: '/nonexistent',
});
const built = await buildApp(config, { secret: randomBytes(32).toString('hex') });
await seedDemo(built.db);
await built.app.listen({ port: 0, host: '127.0.0.1' });

const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ success: true, message: 'Success', data: { ok: true } }));
await bare.listen({ port: 0, host: '127.0.0.1' });

const port = (s: typeof bare.server) => (s.address() as { port: number }).port;
process.stdout.write(`${JSON.stringify({ api: port(built.app.server), bare: port(bare.server), mobile: DEMO_USERS[0].mobile, driver: built.db.driver })}\n`);
process.on('SIGTERM', async () => {
  await bare.close();
  await built.close();
  process.exit(0);
});
