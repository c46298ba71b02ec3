/** Runs the numbered SQL files in db/migrations once each, in order, each in its own transaction. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { SERVER_ROOT } from '../config.ts';
import type { Database } from './database.ts';

// From the package's folder, not this file's: the bundled server (dist/server.mjs) reads the same files.
export const MIGRATIONS_DIR = path.join(SERVER_ROOT, 'src', 'db', 'migrations') + path.sep;
// A fixed key so two API nodes starting together do not both migrate.
const MIGRATION_LOCK = 4_242_001;

export async function listMigrations(): Promise<string[]> {
  return (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f)).sort();
}

export async function migrate(db: Database): Promise<string[]> {
  const applied: string[] = [];
  await db.query(`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  // One read says which are already in: on a started database that is all of them, and the start goes on
  // without a transaction per file. A file that looks pending is checked again under the lock.
  const present = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((row) => row.name));
  for (const name of await listMigrations()) {
    if (present.has(name)) continue;
    const sql = await readFile(MIGRATIONS_DIR + name, 'utf8');
    const ran = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [name]);
      if (done.rows.length > 0) return false;
      // Statements run one by one: parameterless multi-statement strings are fine for both drivers.
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      return true;
    });
    if (ran) applied.push(name);
  }
  return applied;
}

/**
 * Splits a migration on semicolons at line ends, after removing comment lines; a dollar-quoted body
 * (`$$ ... $$`, a trigger function) stays in one piece whatever semicolons it holds.
 */
export function splitStatements(sql: string): string[] {
  const text = sql
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n');
  const statements: string[] = [];
  let start = 0;
  let quote: string | null = null;
  const token = /\$[A-Za-z_]*\$|;\s*(?:\n|$)/g;
  for (let match = token.exec(text); match; match = token.exec(text)) {
    if (match[0].startsWith('$')) {
      if (quote === null) quote = match[0];
      else if (quote === match[0]) quote = null;
    } else if (quote === null) {
      statements.push(text.slice(start, match.index));
      start = match.index + match[0].length;
    }
  }
  statements.push(text.slice(start));
  return statements.map((s) => s.trim()).filter(Boolean);
}
