/** One small interface over PGlite (embedded, one connection) and node-postgres (a pool). Only repositories use it. */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}

export interface Database extends Queryable {
  readonly driver: 'pglite' | 'postgres';
  /** Runs `work` in one transaction; PGlite runs transactions one at a time. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

// Dates stay Date objects in both drivers; int8 and numeric come back as strings from node-postgres,
// so SQL casts counts to int where a number is wanted.

/** PGlite reports affectedRows 0 for a SELECT; rowCount means "rows touched or returned", as in node-postgres. */
function pgliteRowCount(res: { affectedRows?: number; rows: unknown[] }): number {
  return Math.max(res.affectedRows ?? 0, res.rows.length);
}

class PgliteDatabase implements Database {
  readonly driver = 'pglite' as const;
  constructor(private readonly db: PGlite) {}
  async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
    const res = await this.db.query<T>(sql, params);
    return { rows: res.rows, rowCount: pgliteRowCount(res) };
  }
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) =>
      work({
        async query<R>(sql: string, params: unknown[] = []) {
          const res = await tx.query<R>(sql, params);
          return { rows: res.rows, rowCount: pgliteRowCount(res) };
        },
      }),
    );
  }
  close() {
    return this.db.close();
  }
}

class PostgresDatabase implements Database {
  readonly driver = 'postgres' as const;
  constructor(private readonly pool: pg.Pool) {}
  async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
    const res = await this.pool.query(sql, params);
    return { rows: res.rows as T[], rowCount: res.rowCount ?? res.rows.length };
  }
  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work({
        async query<R>(sql: string, params: unknown[] = []) {
          const res = await client.query(sql, params);
          return { rows: res.rows as R[], rowCount: res.rowCount ?? res.rows.length };
        },
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
  close() {
    return this.pool.end();
  }
}

export async function openDatabase(options: { databaseUrl?: string | undefined; dataDir: string }): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    pool.on('error', () => undefined); // an idle client dropping is reported by the next query
    await pool.query('SELECT 1');
    return new PostgresDatabase(pool);
  }
  const db = options.dataDir === 'memory://' ? new PGlite() : new PGlite(options.dataDir);
  await db.waitReady;
  return new PgliteDatabase(db);
}
