/**
 * X-EMM-Auth-Session values already used, for a server on the embedded database (PGlite). Only one process can
 * hold a PGlite folder, so that server is the only node: the values it has seen are checked in memory, and the
 * check costs no statement on the request's path (an INSERT on PGlite runs on the server's own thread). They
 * are still written to emm_auth_seen, a group at a time just after the request, and read back when the server
 * starts, so a value used before a restart is refused after it too. A crash can forget the values of the last
 * few milliseconds, as PostgreSQL's relaxed commit can (emm-seen.repository.ts).
 */
import type { Queryable } from '../../db/database.ts';
import type { EmmSeenRepository } from './emm-seen.repository.ts';

/** How long values wait to be written together, and before a failed write is tried again. */
const WRITE_DELAY_MS = 20;
const RETRY_DELAY_MS = 1000;

export interface LocalEmmSeen extends EmmSeenRepository {
  /** Writes what is still waiting. */
  flush(): Promise<void>;
}

// Servers built in one process on the same database object (tests start a second node that way) share one
// memory, as they share the table.
const stores = new WeakMap<object, Promise<LocalEmmSeen>>();

export function localEmmSeen(db: Queryable, windowMs: number, log: (message: string, error?: unknown) => void): Promise<LocalEmmSeen> {
  let store = stores.get(db);
  if (!store) {
    store = createLocalEmmSeen(db, windowMs, log);
    stores.set(db, store);
    // A start that could not read the table is not kept: the next server built on this database tries again.
    store.catch(() => stores.delete(db));
  }
  return store;
}

async function createLocalEmmSeen(db: Queryable, windowMs: number, log: (message: string, error?: unknown) => void): Promise<LocalEmmSeen> {
  /** Value → when it was first seen (ms); a Map keeps insertion order, so the oldest come first. */
  const seen = new Map<string, number>();
  const earlier = await db.query<{ value: string; at: string }>(
    `SELECT value, (extract(epoch FROM seen_at) * 1000)::bigint::text AS at FROM emm_auth_seen
      WHERE seen_at > now() - make_interval(secs => $1) ORDER BY seen_at`,
    [(2 * windowMs) / 1000],
  );
  for (const row of earlier.rows) seen.set(row.value, Number(row.at));

  let waiting: string[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();

  function write(): Promise<void> {
    timer = null;
    const values = waiting;
    waiting = [];
    if (values.length === 0) return writing;
    writing = writing.then(async () => {
      try {
        await db.query('INSERT INTO emm_auth_seen (value) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [values]);
      } catch (error) {
        // Kept for the next write, a moment later; memory still refuses them meanwhile.
        log('the anti-replay values could not be written; retrying', error);
        waiting.push(...values);
        timer ??= setTimeout(() => void write(), RETRY_DELAY_MS).unref();
      }
    });
    return writing;
  }

  return {
    async remember(value: string): Promise<boolean> {
      if (seen.has(value)) return false;
      seen.set(value, Date.now());
      waiting.push(value);
      timer ??= setTimeout(() => void write(), WRITE_DELAY_MS).unref();
      return true;
    },
    async forgetOlderThan(seconds: number): Promise<void> {
      const cutoff = Date.now() - seconds * 1000;
      for (const [value, at] of seen) {
        if (at >= cutoff) break;
        seen.delete(value);
      }
      await db.query('DELETE FROM emm_auth_seen WHERE seen_at < now() - make_interval(secs => $1)', [seconds]);
    },
    async flush(): Promise<void> {
      if (timer) clearTimeout(timer);
      await write();
    },
  };
}
