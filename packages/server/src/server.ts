/** The only entry point that listens: parse config, build the app, seed demo data in development, listen. */
import { mkdirSync } from 'node:fs';
import { ConfigError, loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { resolveSecret } from './secret.ts';
import { DEMO_USERS, seedDemo } from './db/seed.ts';
import { readRunningServer, writeServerLock } from './server-lock.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  if (!config.DATABASE_URL && config.DATA_DIR !== 'memory://') {
    const holder = readRunningServer(config.DATA_DIR);
    if (holder) {
      console.error(`Another server (pid ${holder.pid}, port ${holder.port}) is using ${config.DATA_DIR}; PGlite serves one process. Stop it or set DATA_DIR.`);
      process.exit(1);
    }
    mkdirSync(config.DATA_DIR, { recursive: true });
  }
  const built = await buildApp(config, { secret: resolveSecret(config) });
  if (config.seedDemo) await seedDemo(built.db);

  let releaseLock = () => undefined as void;
  const shutdown = async (signal: string) => {
    built.app.log.info({ signal }, 'shutting down');
    await built.close();
    releaseLock();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await built.app.listen({ port: config.PORT, host: config.HOST });
  const address = built.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  if (!config.DATABASE_URL && config.DATA_DIR !== 'memory://') releaseLock = writeServerLock(config.DATA_DIR, port);
  const url = config.PUBLIC_URL ?? `http://localhost:${port}`;
  const broker = built.broker.status();
  const lines = [
    '',
    `  Kisht is running at ${url}`,
    `  API docs:   ${url}/api/docs`,
    `  Database:   ${built.db.driver === 'pglite' ? `PGlite (${config.DATA_DIR})` : 'PostgreSQL'}`,
    `  Broker:     ${broker.mode} ${broker.url}${broker.mode === 'embedded' ? ` and ws at ${url.replace(/^http/, 'ws')}/mqtt` : ''}`,
  ];
  if (config.SMS_PROVIDER === 'dev-outbox') lines.push(`  SMS outbox: ${url}/api/dev/outbox (OTPs land here)`);
  if (config.seedDemo) {
    lines.push('  Demo sign-in numbers (enter the 10 digits, the OTP is in the outbox):');
    for (const u of DEMO_USERS) lines.push(`    ${u.mobile.slice(3)}  ${u.first_name} ${u.last_name}, ${u.shop_name} (org ${u.org_id}, ${u.user_type})`);
  }
  console.log(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
