/**
 * Operator commands: `npm run operator -- <command>`.
 *   signups                          list pending signup requests
 *   approve <id>                     create the retailer account for a signup request
 *   reject <id>                      turn a signup request down
 *   access <mobile> key=0|1 ...      set user access (feature_access, lock_unlock, unistall, active_deactive,
 *                                    bulk_retailer) or lock access (lock, unlock, read, uninstall) switches
 *   feature <org_id> <switch> on|off witness_signature, payment_gateway or outstanding_amount
 *   dues [<org_id>] [YYYY-MM-DD]     run the daily dues run now (one organisation and day: run it again)
 * Uses the server's configuration. On PostgreSQL it connects directly; on PGlite, when the server is
 * running it asks the server (PGlite allows one process), otherwise it opens the data folder itself.
 */
import { mkdirSync } from 'node:fs';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { operatorKey, resolveSecret } from './secret.ts';
import { readRunningServer } from './server-lock.ts';
import { runOperatorCommand } from './modules/operator/operator.service.ts';

async function main(): Promise<number> {
  const config = loadConfig();
  const args = process.argv.slice(2);
  const running = config.DATABASE_URL ? null : readRunningServer(config.DATA_DIR);
  if (running) {
    const res = await fetch(`http://127.0.0.1:${running.port}/api/operator/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-operator-key': operatorKey(resolveSecret(config)) },
      body: JSON.stringify({ args }),
    });
    if (!res.ok) throw new Error(`the running server (pid ${running.pid}) refused the command: HTTP ${res.status}`);
    const reply = (await res.json()) as { code: number; lines: string[] };
    for (const line of reply.lines) console.log(line);
    return reply.code;
  }
  if (!config.DATABASE_URL && config.DATA_DIR !== 'memory://') mkdirSync(config.DATA_DIR, { recursive: true });
  const db = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await migrate(db);
    return await runOperatorCommand(db, args);
  } finally {
    await db.close();
  }
}

main()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  });
