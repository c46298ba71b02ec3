/** X-EMM-Auth-Session values already used, shared by every API node so a replay fails on any of them. */
import type { Database } from '../../db/database.ts';

/**
 * Written without waiting for the disk (Database.relaxed): a PostgreSQL crash could forget the last fraction
 * of a second of values, which a replay would then have to hit within that instant; every node still sees
 * every value at once.
 */
export function createEmmSeenRepository(database: Pick<Database, 'relaxed'>) {
  const db = database.relaxed;
  return {
    /** Records a value; false when it was seen before. */
    async remember(value: string): Promise<boolean> {
      const res = await db.query('INSERT INTO emm_auth_seen (value) VALUES ($1) ON CONFLICT DO NOTHING', [value], 'emm_seen_remember');
      return res.rowCount > 0;
    },
    async forgetOlderThan(seconds: number): Promise<void> {
      await db.query('DELETE FROM emm_auth_seen WHERE seen_at < now() - make_interval(secs => $1)', [seconds]);
    },
  };
}
export type EmmSeenRepository = ReturnType<typeof createEmmSeenRepository>;
