/** The only entry point that listens: parse config, build the app, seed demo data in development, listen, start the demo. */
import { mkdirSync } from 'node:fs';
import { ConfigError, loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { resolveSecret } from './secret.ts';
import { DEMO_USERS, seedDemo } from './db/seed.ts';
import { createFromTemplate } from './db/pglite-template.ts';
import { readRunningServer, writeServerLock } from './server-lock.ts';
import { startDemo, type RunningDemo } from './modules/demo/demo.ts';
import { LISTEN_BACKLOG } from './listen-backlog.ts';

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
  const { paths } = config;
  const onDisk = !config.DATABASE_URL && paths.pglite !== 'memory://';
  if (onDisk) {
    const holder = readRunningServer(paths.pglite);
    if (holder) {
      console.error(`Another server (pid ${holder.pid}, port ${holder.port}) is using ${paths.pglite}; PGlite serves one process. Stop it or set DATA_DIR.`);
      process.exit(1);
    }
    if (config.PGLITE_TEMPLATE_DIR === 'off') mkdirSync(paths.pglite, { recursive: true });
    else {
      // A new folder is a copy of the prepared, migrated template (no initdb); a folder with anything in it is left as it is.
      const fromTemplate = await createFromTemplate(paths.pglite, config.PGLITE_TEMPLATE_DIR);
      if (fromTemplate.problem) console.warn(`PGlite template not used (${fromTemplate.problem}); creating the database from scratch.`);
    }
  }
  const built = await buildApp(config, { secret: resolveSecret(config) });
  const added = config.seedDemo ? await seedDemo(built.db) : 0;

  let releaseLock = () => undefined as void;
  let demo: RunningDemo | null = null;
  const shutdown = async (signal: string) => {
    built.app.log.info({ signal }, 'shutting down');
    await demo?.stop();
    await built.close();
    releaseLock();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await built.app.listen({ port: config.PORT, host: config.HOST, backlog: LISTEN_BACKLOG });
  const address = built.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  if (onDisk) releaseLock = writeServerLock(paths.pglite, port, paths.root);
  const url = config.PUBLIC_URL ?? `http://localhost:${port}`;

  // The demo phones enrol over HTTP, so the demo starts once the server listens.
  const notes: string[] = [];
  const local = ['0.0.0.0', '::', ''].includes(config.HOST) ? '127.0.0.1' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  try {
    demo = await startDemo({ built, config, serverUrl: `http://${local}:${port}`, freshDatabase: added > 0, log: (line) => notes.push(line) });
  } catch (error) {
    built.app.log.error({ err: error }, 'the demo shop or its phones failed to start; the server runs without them');
  }

  const broker = built.broker.status();
  const lines = [
    '',
    `  Kisht is running at ${url}`,
    `  API docs:   ${url}/api/docs`,
    `  Database:   ${built.db.driver === 'pglite' ? `PGlite (${paths.pglite})` : 'PostgreSQL'}`,
    `  Broker:     ${broker.mode} ${broker.url}${broker.mode === 'embedded' ? ` and ws at ${url.replace(/^http/, 'ws')}/mqtt` : ''}`,
  ];
  if (paths.legacy) lines.push(`  Note:       DATA_DIR is a PGlite folder (the older layout); its secret and uploads stay in .data. Set DATA_DIR to a folder of its own to keep everything together.`);
  if (config.SMS_PROVIDER === 'dev-outbox') lines.push(`  SMS outbox: ${url}/api/dev/outbox (OTPs land here)`);
  if (config.seedDemo) {
    lines.push('  Demo sign-in numbers (enter the 10 digits, the OTP is in the outbox):');
    for (const u of DEMO_USERS) lines.push(`    ${u.mobile.slice(3)}  ${u.first_name} ${u.last_name}, ${u.shop_name} (org ${u.org_id}, ${u.user_type})`);
  }
  for (const note of notes) lines.push(`  ${note[0]!.toUpperCase()}${note.slice(1)}`);
  if (demo?.tryFirst) lines.push(`  Try first:  sign in as ${DEMO_USERS[0].mobile.slice(3)}, open ${demo.tryFirst.name} in Customers, press Lock (its phone runs in this server)`);
  else if (config.demoShop !== 'never' && !demo) lines.push('  Demo shop:  not added (this database existed before it); DEMO_SHOP=true adds it');
  if (config.demoShop === 'never' && (config.DEMO_PHONES ?? 0) > 0) lines.push('  Note:       DEMO_PHONES is ignored: the demo phones belong to the demo shop, which is off here (DEMO_SHOP=true turns it on)');
  console.log(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
