/**
 * Operator commands: `npm run operator -- <command>`.
 *   signups                          list pending signup requests
 *   approve <id>                     create the retailer account for a signup request
 *   reject <id>                      turn a signup request down
 *   access <mobile> key=0|1 ...      set user access (feature_access, lock_unlock, unistall, active_deactive,
 *                                    bulk_retailer) or lock access (lock, unlock, read, uninstall) switches
 *   feature <org_id> <switch> on|off witness_signature, payment_gateway or outstanding_amount
 *   dues [<org_id>] [YYYY-MM-DD]     run the daily dues run now (one organisation and day: run it again)
 *   loan-products <org_id>           the organisation's loan products with their settings
 *   loan-product-add <org_id> "<name>" [setting=value ...]   a loan product, from the standard one
 *   loan-product-set <id> [name=...] [active=on|off] [setting=value ...]   loans already made keep theirs
 *   announce <org_id|all> "<title>" "<text>" [link]   shown once on load to retailers until dismissed
 *   announce-off <id>                stop showing an announcement
 *   offer-caps <org_id> [per_day=N] [per_week=N]   offers per phone per India day and week
 *   audit [--from D] [--to D] [--org N]  the audit log as CSV on stdout (India dates, both included)
 * Uses the server's configuration, from any folder (a relative DATA_DIR is taken from the repository root, like
 * the server does). On PostgreSQL it connects directly; on PGlite, when the server is running it asks the
 * server (PGlite allows one process), otherwise it opens the data folder itself and says so on stderr. It
 * never creates a database: a data folder without one is an error naming the folder.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { operatorKey, readSecret } from './secret.ts';
import { readRunningServer } from './server-lock.ts';
import { runOperatorCommand } from './modules/operator/operator.service.ts';

/** A refusal worth one clear line, not a stack trace. */
class CliError extends Error {}

async function main(): Promise<number> {
  const config = loadConfig();
  const args = process.argv.slice(2);
  const pglite = config.paths.pglite;
  if (!config.DATABASE_URL && pglite === 'memory://') throw new CliError('DATA_DIR is memory://: a throwaway database belongs to the server that made it; the operator commands cannot reach it.');
  const running = config.DATABASE_URL ? null : readRunningServer(pglite);
  if (running) {
    const secret = readSecret(config);
    if (!secret) throw new CliError(`a server (pid ${running.pid}) runs on ${pglite}, but there is no app secret to talk to it (set APP_SECRET as the server has it).`);
    const res = await fetch(`http://127.0.0.1:${running.port}/api/operator/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-operator-key': operatorKey(secret) },
      body: JSON.stringify({ args }),
    }).catch((error: unknown) => {
      throw new CliError(`the server (pid ${running.pid}) holding ${pglite} does not answer on port ${running.port}: ${(error as Error).message}`);
    });
    if (!res.ok) throw new CliError(`the running server (pid ${running.pid}) refused the command: HTTP ${res.status}${res.status === 404 ? ' (the operator key does not match: the server was started with another APP_SECRET)' : ''}`);
    const reply = (await res.json()) as { code: number; lines: string[] };
    for (const line of reply.lines) console.log(line);
    return reply.code;
  }
  if (!config.DATABASE_URL) {
    if (!existsSync(path.join(pglite, 'PG_VERSION'))) {
      throw new CliError(`no database in ${pglite} and no server running on it. Start the server first (npm start), or set DATA_DIR to the data folder the server uses.`);
    }
    console.error(`(no server is running on ${pglite}: opened that database directly)`);
  }
  const db = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: pglite });
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
    console.error(error instanceof ConfigError ? error.message : error instanceof CliError ? `kisht operator: ${error.message}` : error);
    process.exit(1);
  });
