/** One small interface over PGlite (embedded, one connection) and node-postgres (a pool). Only repositories use it. */
import { ltree } from '@electric-sql/pglite/contrib/ltree';
import { PGlite } from '@electric-sql/pglite';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type pg from 'pg';
import { isDatabaseUnavailable } from './errors.ts';

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  /**
   * `prepared` names a statement that runs on every request: node-postgres parses and plans it once per
   * connection instead of each time. Only for fixed SQL text; PGlite ignores it.
   */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], prepared?: string): Promise<QueryResult<T>>;
}

export interface Database extends Queryable {
  readonly driver: 'pglite' | 'postgres';
  /** Where the data lives, without credentials (host:port/database, or the PGlite folder); shown to the operator only. */
  readonly address: string;
  /** Runs `work` in one transaction; PGlite runs transactions one at a time. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Single statements whose commit does not wait for the disk (PostgreSQL's synchronous_commit off): the
   * write is in the database at once for every node, and only a PostgreSQL crash can lose the last fraction
   * of a second of them. For records whose loss costs little (the anti-replay guard); never for money.
   */
  readonly relaxed: Queryable;
  close(): Promise<void>;
}

// Dates stay Date objects in both drivers; int8 comes back as a number from both (a BigInt past 2^53), numeric
// as a string, so SQL casts a sum of bigint money to bigint (or text) where it is read.

/** PGlite reports affectedRows 0 for a SELECT; rowCount means "rows touched or returned", as in node-postgres. */
function pgliteRowCount(res: { affectedRows?: number; rows: unknown[] }): number {
  return Math.max(res.affectedRows ?? 0, res.rows.length);
}

/**
 * How long statements may run back to back before the event loop gets a turn. Node accepts one new connection
 * per listening socket per turn of a busy loop (measured: 2,000 connections waiting, a loop busy 6 ms a turn,
 * 2,000 turns to take them), so this also caps how fast connections are taken in while the database is busy
 * (about 1000 / slice a second). With 10,000 phones enrolling on PGlite (about 160 a second, each opening an
 * MQTT connection), 6 ms let the broker's listen queue grow to 1,700-2,700 waiting connections in three runs of
 * three; 2 ms kept it at 0-1 (bench/device-bulk-lock.ts). A turn costs a few microseconds.
 */
const PGLITE_SLICE_MS = 2;

/**
 * PGlite runs each statement synchronously on this thread and hands its queue on through promises, so a backlog
 * of statements ran back to back without the event loop ever reaching its I/O phase: no connection accepted, no
 * socket read, no timer, for as long as the backlog lasted (seconds while phones enrolled by the thousand, and
 * the kernel dropped their connections meanwhile). Statements and transactions now queue here, one at a time as
 * PGlite would run them anyway, and once they have held the thread for a slice the loop gets a turn.
 */
class PgliteDatabase implements Database {
  readonly driver = 'pglite' as const;
  /** One process, one connection: nothing to relax. */
  readonly relaxed: Queryable = this;
  private tail: Promise<unknown> = Promise.resolve();
  private sliceStarted = performance.now();
  constructor(
    private readonly db: PGlite,
    readonly address: string,
  ) {}
  /** Gives the event loop a turn once statements have run for a slice. */
  private async pace(): Promise<void> {
    if (performance.now() - this.sliceStarted < PGLITE_SLICE_MS) return;
    await nextTurn();
    this.sliceStarted = performance.now();
  }
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(async () => {
      await this.pace();
      return work();
    });
    this.tail = run.catch(() => undefined);
    return run;
  }
  query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
    return this.inTurn(async () => {
      const res = await this.db.query<T>(sql, params);
      return { rows: res.rows, rowCount: pgliteRowCount(res) };
    });
  }
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.inTurn(() =>
      this.db.transaction(async (tx) =>
        work({
          query: async <R>(sql: string, params: unknown[] = []) => {
            await this.pace();
            const res = await tx.query<R>(sql, params);
            return { rows: res.rows, rowCount: pgliteRowCount(res) };
          },
        }),
      ),
    );
  }
  /** The data folder as a tarball, once the statements asked for before have run. */
  dump(): Promise<Blob> {
    return this.inTurn(() => this.db.dumpDataDir('none'));
  }
  close() {
    return this.db.close();
  }
}

/** PGlite only: the whole data folder as a tarball, to open copies of it from (`from` in openDatabase). */
export function dumpDataFolder(db: Database): Promise<Blob> {
  if (!(db instanceof PgliteDatabase)) throw new Error('only the embedded database has a data folder to dump');
  return db.dump();
}

class PostgresDatabase implements Database {
  readonly driver = 'postgres' as const;
  readonly relaxed: Queryable;
  constructor(
    private readonly pool: pg.Pool,
    readonly address: string,
    private readonly relaxedPool: pg.Pool,
  ) {
    this.relaxed = {
      async query<T>(sql: string, params: unknown[] = [], prepared?: string): Promise<QueryResult<T>> {
        const res = await relaxedPool.query(prepared ? { name: prepared, text: sql, values: params } : { text: sql, values: params });
        return { rows: res.rows as T[], rowCount: res.rowCount ?? res.rows.length };
      },
    };
  }
  async query<T>(sql: string, params: unknown[] = [], prepared?: string): Promise<QueryResult<T>> {
    const res = await this.pool.query(prepared ? { name: prepared, text: sql, values: params } : { text: sql, values: params });
    return { rows: res.rows as T[], rowCount: res.rowCount ?? res.rows.length };
  }
  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // While the client is ours the pool does not listen for its errors; a connection dropped mid-transaction
    // emits 'error', and with no listener that would end the process. The pending query rejects on its own.
    let broken: Error | undefined;
    const onError = (error: Error) => {
      broken ??= error;
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await work({
        async query<R>(sql: string, params: unknown[] = [], prepared?: string) {
          const res = await client.query(prepared ? { name: prepared, text: sql, values: params } : { text: sql, values: params });
          return { rows: res.rows as R[], rowCount: res.rowCount ?? res.rows.length };
        },
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (!broken && !isDatabaseUnavailable(error)) await client.query('ROLLBACK').catch((rollbackError: Error) => onError(rollbackError));
      else broken ??= error as Error;
      throw error;
    } finally {
      client.off('error', onError);
      // A broken connection is closed, not handed to the next request.
      client.release(broken ?? false);
    }
  }
  async close() {
    await Promise.all([this.pool.end(), this.relaxedPool.end()]);
  }
}

/** The server's address without user and password. */
function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'postgres';
  }
}

export interface OpenOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PGlite only: start from this data folder, as PGlite's dumpDataDir wrote it (a tarball), instead of initdb. */
  from?: Blob;
}

const INT8_OID = 20;
/** An int8 as text: a number when it is a safe integer, else a BigInt. */
export function readInt8(text: string): number | bigint {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : BigInt(text);
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    // Loaded only here: a server on PGlite never needs the driver (a smaller start).
    const { default: pg } = await import('pg');
    // A request that gets no connection within 10 s (the server does not answer, or every connection is
    // busy that long) fails with 503 instead of waiting without end; keep-alive notices a vanished server.
    // int8 (sums, counts, bigint money and ids) is read as a number, as PGlite reads it, instead of as text a
    // later `+` would concatenate; a value past 2^53 becomes a BigInt, as in PGlite, never a rounded number.
    const types = { getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === INT8_OID ? readInt8 : pg.types.getTypeParser(oid, format)) };
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, connectionTimeoutMillis: 10_000, keepAlive: true, types });
    pool.on('error', () => undefined); // an idle client dropping is reported by the next query
    await pool.query('SELECT 1');
    // A few connections of its own, so the per-request guard neither waits for the disk nor for the main pool.
    const relaxed = new pg.Pool({ connectionString: options.databaseUrl, max: 4, connectionTimeoutMillis: 10_000, keepAlive: true, options: '-c synchronous_commit=off', types });
    relaxed.on('error', () => undefined);
    return new PostgresDatabase(pool, withoutCredentials(options.databaseUrl), relaxed);
  }
  // ltree: the retailer network's paths (migration 020).
  const settings = { extensions: { ltree }, ...(options.from ? { loadDataDir: options.from } : {}) };
  const db = options.dataDir === 'memory://' ? new PGlite(settings) : new PGlite(options.dataDir, settings);
  await db.waitReady;
  return new PgliteDatabase(db, options.dataDir === 'memory://' ? 'memory' : options.dataDir);
}
