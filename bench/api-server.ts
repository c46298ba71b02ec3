/**
 * Child process for bench/api-throughput.ts: the real server (PGlite in memory, or DATABASE_URL) and, in the
 * same process, a bare Fastify route as the baseline. Prints one JSON line with the ports and a token.
 */
import Fastify from 'fastify';
import { randomBytes } from 'node:crypto';
import { buildApp } from '../packages/server/src/app.ts';
import { benchServerConfig } from './lib.ts';
import { seedDemo, DEMO_USERS } from '../packages/server/src/db/seed.ts';

// EMM_AUTH=off measures what the anti-replay check costs (the insert into emm_auth_seen per request).
// Every run signs in afresh; on PostgreSQL the per-number OTP limit would otherwise stop the third run in an hour.
const config = benchServerConfig({ EMM_AUTH: process.env.EMM_AUTH, OTP_SENDS_PER_MOBILE_PER_HOUR: '1000', OTP_SENDS_PER_IP_PER_HOUR: '100000' });
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
