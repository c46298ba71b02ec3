/** What the event streams read to decide who hears of a change, and the NOTIFY that carries changes across nodes. */
import type { Queryable } from '../../db/database.ts';

export function createEventsRepository(db: Queryable) {
  return {
    /** The network each of these customers belongs to (the first cut; visibleTo decides for each viewer). */
    async accountsOf(customerIds: readonly number[]): Promise<Array<{ id: number; account_id: number }>> {
      if (customerIds.length === 0) return [];
      return (await db.query<{ id: number; account_id: number }>('SELECT id, account_id FROM customers WHERE id = ANY($1::int[])', [customerIds])).rows;
    },

    /** Whose batches these are: a batch is read by its network's retailers and by the user who started it. */
    async batchOwners(batchIds: readonly string[]): Promise<Array<{ id: string; account_id: number; created_by: number }>> {
      if (batchIds.length === 0) return [];
      return (await db.query<{ id: string; account_id: number; created_by: number }>(
        'SELECT id::text AS id, account_id, created_by FROM command_batches WHERE id = ANY($1::uuid[])', [batchIds],
      )).rows;
    },

    /** Each user's chain of ids from the top of its network down to itself (its ltree path). */
    async chains(userIds: readonly number[]): Promise<Map<number, number[]>> {
      if (userIds.length === 0) return new Map();
      const res = await db.query<{ id: number; path: string }>('SELECT id, path::text AS path FROM users WHERE id = ANY($1::int[])', [userIds]);
      return new Map(res.rows.map((r) => [r.id, r.path.split('.').map(Number)]));
    },

    /** Which of these sessions are still live (not ended, not expired, the user still active): the rule of findActive. */
    async liveSessions(sessionIds: readonly string[]): Promise<Set<string>> {
      if (sessionIds.length === 0) return new Set();
      const res = await db.query<{ id: string }>(
        `SELECT s.id::text AS id FROM sessions s JOIN users u ON u.id = s.user_id
          WHERE s.id = ANY($1::uuid[]) AND s.ended_at IS NULL AND s.expires_at > now() AND u.active`,
        [sessionIds],
      );
      return new Set(res.rows.map((r) => r.id));
    },

    /** Sends the payloads on the channel in one statement, in their order. */
    async notify(channel: string, payloads: readonly string[]): Promise<void> {
      if (payloads.length === 0) return;
      await db.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) WITH ORDINALITY AS n(p, i) ORDER BY i', [channel, payloads]);
    },
  };
}
export type EventsRepository = ReturnType<typeof createEventsRepository>;
