/** Small helpers shared by the bench scripts: a keep-alive HTTP load loop and percentile maths. */
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../packages/server/src/config.ts';
import { openDatabase, type Database } from '../packages/server/src/db/database.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { seedDemo } from '../packages/server/src/db/seed.ts';

/** The URL of database `name` on the server of `url`. */
const sameServer = (url: string, name: string) => url.replace(/\/[^/]*$/, `/${name}`);

/**
 * A new database with the migrations and the demo data: the database named in `url` dropped and created again
 * (PostgreSQL), or PGlite in a temporary folder. `remove` deletes that folder.
 * With `reuse` (PostgreSQL only), a database already seeded by an earlier run with the same label is kept as it
 * is and `seeded` is true: see `markSeeded`. A read-only bench may then skip a seed of many minutes.
 */
export async function freshBenchDatabase(url: string | undefined, reuse?: string): Promise<{ db: Database; remove: () => void; seeded: boolean }> {
  if (url && reuse) {
    const existing = await openDatabase({ databaseUrl: url, dataDir: 'memory://' }).catch(() => null);
    if (existing) {
      const marker = await existing.query<{ label: string }>('SELECT label FROM bench_seeded').catch(() => ({ rows: [] as Array<{ label: string }> }));
      if (marker.rows[0]?.label === reuse) return { db: existing, remove: () => undefined, seeded: true };
      await existing.close();
    }
  }
  let dataDir: string | null = null;
  if (url) {
    const name = new URL(url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: sameServer(url, 'postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
  } else {
    dataDir = mkdtempSync(path.join(tmpdir(), 'kisht-bench-'));
  }
  const db = await openDatabase({ databaseUrl: url, dataDir: dataDir ? path.join(dataDir, 'pglite') : 'memory://' });
  await migrate(db);
  await seedDemo(db);
  return { db, remove: () => { if (dataDir) rmSync(dataDir, { recursive: true, force: true }); }, seeded: false };
}

/**
 * For a bench that changes what it seeded (PostgreSQL only): the seed is kept in a database of its own, named as
 * the one in `url` with `_seed` added, and each run works on a fresh copy of it (CREATE DATABASE ... TEMPLATE), so
 * only the first run of a given `label` pays for `seed`. `copied` says whether an earlier run's seed was used.
 */
export async function copyOfSeeded(url: string, label: string, seed: (db: Database) => Promise<void>): Promise<{ db: Database; copied: boolean }> {
  const name = new URL(url).pathname.slice(1);
  const seedName = `${name}_seed`;
  const seedUrl = sameServer(url, seedName);
  const admin = new pg.Client({ connectionString: sameServer(url, 'postgres') });
  await admin.connect();
  try {
    let copied = false;
    if ((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [seedName])).rowCount) {
      const existing = await openDatabase({ databaseUrl: seedUrl, dataDir: 'memory://' });
      const marker = await existing.query<{ label: string }>('SELECT label FROM bench_seeded').catch(() => ({ rows: [] as Array<{ label: string }> }));
      await existing.close();
      copied = marker.rows[0]?.label === label;
    }
    if (!copied) {
      const { db } = await freshBenchDatabase(seedUrl);
      await seed(db);
      await markSeeded(db, label);
      await db.close();
    }
    // The template must have no other connection while it is copied; the pools above are closed.
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${seedName}"`);
    return { db: await openDatabase({ databaseUrl: url, dataDir: 'memory://' }), copied };
  } finally {
    await admin.end();
  }
}

/** Records that `db` holds the seed described by `label`, for a later run's `freshBenchDatabase(url, label)`. */
export async function markSeeded(db: Database, label: string): Promise<void> {
  await db.query('CREATE TABLE IF NOT EXISTS bench_seeded (label text NOT NULL)');
  await db.query('DELETE FROM bench_seeded');
  await db.query('INSERT INTO bench_seeded (label) VALUES ($1)', [label]);
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  errors: number;
  /** Every request's latency in ms, sorted. */
  latencies: number[];
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Sends `total` requests with `concurrency` in flight; `headersFor(i)` gives each request its headers. */
export async function load(url: string, total: number, concurrency: number, headersFor: (i: number) => Record<string, string>): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, agent, headers: headersFor(i) }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) errors++;
          latencies.push(performance.now() - started);
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await one(next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const mean = latencies.reduce((sum, ms) => sum + ms, 0) / latencies.length;
  return { requests: total, seconds, rps: total / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), mean, errors, latencies };
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** The server's configuration for a bench child: quiet, a throwaway PGlite (or DATABASE_URL), the embedded broker on a free port. */
export function benchServerConfig(extra: Record<string, string | undefined> = {}) {
  const env: Record<string, string> = {
    APP_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: 'memory://', MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', CONSOLE_DIST: '/nonexistent',
  };
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  // The anti-replay store shared by the nodes, when the run names one (bench/api-throughput.ts).
  if (process.env.REDIS_URL) env.REDIS_URL = process.env.REDIS_URL;
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return loadConfig(env);
}
