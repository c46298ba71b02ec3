/**
 * With TEST_DATABASE_URL set, builds a migrated template database once per run; each test file then
 * gets its own database copied from it (CREATE DATABASE ... TEMPLATE). Names carry a run id, so two runs
 * on one server (two developers, or CI beside a local run) never drop each other's databases.
 * Without TEST_DATABASE_URL every file runs on in-memory PGlite, loaded from a migrated data folder written
 * once per run (PGlite's dumpDataDir), so no file pays for initdb and the migrations again.
 */
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { dumpDataFolder, openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    testDbPrefix: string;
    /** The migrated PGlite data folder as a tarball ('' on PostgreSQL). */
    pgliteTemplate: string;
  }
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export const templateOf = (prefix: string) => `${prefix}_template`;

export default async function setup(project: TestProject) {
  const prefix = `kisht_test_${randomBytes(4).toString('hex')}`;
  project.provide('testDbPrefix', prefix);
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const file = path.join(tmpdir(), `${prefix}_pglite.tar`);
    const db = await openDatabase({ dataDir: 'memory://' });
    await migrate(db);
    writeFileSync(file, Buffer.from(await (await dumpDataFolder(db)).arrayBuffer()));
    await db.close();
    project.provide('pgliteTemplate', file);
    return () => rmSync(file, { force: true });
  }
  project.provide('pgliteTemplate', '');
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${templateOf(prefix)}"`);
  const db = await openDatabase({ databaseUrl: withDatabase(url, templateOf(prefix)), dataDir: 'memory://' });
  await migrate(db);
  await db.close();
  await admin.end();
  return async () => {
    const cleanup = new pg.Client({ connectionString: url });
    await cleanup.connect();
    const rows = await cleanup.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`]);
    for (const row of rows.rows) await cleanup.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    await cleanup.end();
  };
}
