/**
 * With TEST_DATABASE_URL set, builds a migrated template database once; each test file then gets its own
 * database copied from it (CREATE DATABASE ... TEMPLATE). Without it, every file runs on in-memory PGlite.
 */
import pg from 'pg';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';

export const TEMPLATE_DB = 'kisht_test_template';

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export default async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const stale = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'kisht_test_%'`);
  for (const row of stale.rows) await admin.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${TEMPLATE_DB}"`);
  const db = await openDatabase({ databaseUrl: withDatabase(url, TEMPLATE_DB), dataDir: 'memory://' });
  await migrate(db);
  await db.close();
  await admin.end();
  return async () => {
    const cleanup = new pg.Client({ connectionString: url });
    await cleanup.connect();
    const rows = await cleanup.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'kisht_test_%'`);
    for (const row of rows.rows) await cleanup.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    await cleanup.end();
  };
}
