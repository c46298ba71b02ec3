/** Sign-in sessions: the server-side half of every access token. */
import type { Queryable } from '../../db/database.ts';
import type { LockAccess, UserAccess } from '@kisht/domain/constants';

export interface ClientDetails {
  ip: string | null;
  auth_platform: string | null;
  device_details: string | null;
  browser_name: string | null;
  browser_version: string | null;
  device_type: string | null;
  device_platform: string | null;
}

export interface SessionRow extends ClientDetails {
  id: string;
  user_id: number;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

export interface ActiveSession {
  id: string;
  user_id: number;
  org_id: number;
  account_id: number;
  user_type: 'retailer' | 'miniretailer';
  user_access: UserAccess;
  lock_access: LockAccess;
  last_seen_at: Date;
  expires_at: Date;
}

/** The most sessions the cache holds; past it, it starts again empty (a burst of sign-ins costs a few reads). */
const CACHE_MAX = 50_000;

/**
 * `cacheMs`: how long a live session read is reused without asking the database again (0: never). Anything that
 * ends sessions here forgets them at once; changes made elsewhere (another node, a blocked member, a switch)
 * reach it through forgetUser / forgetAll from the event bus, and at the latest when the entry is this old.
 */
export function createSessionsRepository(db: Queryable, options: { cacheMs?: number } = {}) {
  const cacheMs = options.cacheMs ?? 0;
  const cache = new Map<string, { session: ActiveSession; until: number }>();
  /** When each user's sessions were last forgotten: a read that began before it is not kept. */
  const forgotten = new Map<number, number>();
  let allForgotten = 0;
  const forgetUser = (userId: number) => {
    forgotten.set(userId, performance.now());
    for (const [id, entry] of cache) if (entry.session.user_id === userId) cache.delete(id);
  };
  return {
    forgetUser,
    forgetAll() {
      allForgotten = performance.now();
      forgotten.clear();
      cache.clear();
    },
    async create(id: string, userId: number, ttlDays: number, client: ClientDetails, q: Queryable = db): Promise<{ expires_at: Date }> {
      const res = await q.query<{ expires_at: Date }>(
        `INSERT INTO sessions (id, user_id, expires_at, ip, auth_platform, device_details, browser_name, browser_version, device_type, device_platform)
         VALUES ($1, $2, now() + make_interval(days => $3), $4, $5, $6, $7, $8, $9, $10) RETURNING expires_at`,
        [id, userId, ttlDays, client.ip, client.auth_platform, client.device_details, client.browser_name, client.browser_version, client.device_type, client.device_platform],
      );
      return res.rows[0]!;
    },
    /** The session if it is live and its user still active; undefined for ended, expired or unknown ones. */
    async findActive(id: string, userId: number): Promise<ActiveSession | undefined> {
      const now = performance.now();
      const hit = cacheMs > 0 ? cache.get(id) : undefined;
      if (hit && hit.until > now && hit.session.user_id === userId && hit.session.expires_at.getTime() > Date.now()) return hit.session;
      if (hit) cache.delete(id);
      const res = await db.query<ActiveSession>(
        `SELECT s.id, s.user_id, u.org_id, u.account_id, u.user_type, u.user_access, u.lock_access, s.last_seen_at, s.expires_at
           FROM sessions s JOIN users u ON u.id = s.user_id
          WHERE s.id = $1 AND s.user_id = $2 AND s.ended_at IS NULL AND s.expires_at > now()
            -- blocked: the user, or anyone above it in the network
            AND NOT EXISTS (SELECT 1 FROM users a WHERE a.path @> u.path AND NOT a.active)`,
        [id, userId],
      );
      const session = res.rows[0];
      if (session && cacheMs > 0 && now > allForgotten && now > (forgotten.get(userId) ?? 0)) {
        if (cache.size >= CACHE_MAX) cache.clear();
        cache.set(id, { session, until: now + cacheMs });
      }
      return session;
    },
    async touch(id: string, ip: string | null): Promise<void> {
      await db.query('UPDATE sessions SET last_seen_at = now(), ip = coalesce($2, ip) WHERE id = $1', [id, ip]);
      const entry = cache.get(id);
      if (entry) entry.session = { ...entry.session, last_seen_at: new Date() };
    },
    async listLive(userId: number): Promise<SessionRow[]> {
      const res = await db.query<SessionRow>(
        `SELECT id, user_id, created_at, last_seen_at, expires_at, ip, auth_platform, device_details, browser_name,
                browser_version, device_type, device_platform
           FROM sessions WHERE user_id = $1 AND ended_at IS NULL AND expires_at > now()
          ORDER BY last_seen_at DESC`,
        [userId],
      );
      return res.rows;
    },
    /** Ends one of the user's own live sessions; 0 when it is not theirs or already over. */
    async end(id: string, userId: number, reason: string, q: Queryable = db): Promise<number> {
      forgetUser(userId);
      const res = await q.query(
        `UPDATE sessions SET ended_at = now(), end_reason = $3 WHERE id = $1 AND user_id = $2 AND ended_at IS NULL`,
        [id, userId, reason],
      );
      return res.rowCount;
    },
    async endAllExcept(userId: number, keepId: string | null, reason: string, q: Queryable = db): Promise<number> {
      forgetUser(userId);
      const res = await q.query(
        `UPDATE sessions SET ended_at = now(), end_reason = $3
          WHERE user_id = $1 AND ended_at IS NULL AND ($2::uuid IS NULL OR id <> $2::uuid)`,
        [userId, keepId, reason],
      );
      return res.rowCount;
    },
  };
}
export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
