/** The notifications table (issue 14). Only SQL here. */
import type { NotificationKind } from '@kisht/contract/notifications';
import type { Queryable } from '../../db/database.ts';

export type NotificationData = Record<string, string | number | boolean | null>;

export interface NotificationRow {
  id: string;
  kind: NotificationKind;
  customer_id: number | null;
  customer_name: string | null;
  data: NotificationData;
  created_at: Date;
  read_at: Date | null;
}

/** A member and every member above it (SQL: the ids, from `$1`). */
const SELF_AND_ANCESTORS = `WITH RECURSIVE up AS (SELECT id, parent_id FROM users WHERE id = $1 UNION SELECT u.id, u.parent_id FROM users u JOIN up ON u.id = up.parent_id)`;

export function createNotificationsRepository(db: Queryable) {
  return {
    /**
     * About a customer, in the caller's transaction: to its seller and every member above the seller (a member sees
     * its whole subtree; a mini-retailer never its parent's or a sibling's customers). Answers the recipients.
     */
    async aboutCustomer(customerId: number, kind: NotificationKind, data: NotificationData, q: Queryable): Promise<number[]> {
      const seller = (await q.query<{ retailer_id: number }>('SELECT retailer_id FROM customers WHERE id = $1', [customerId])).rows[0];
      if (!seller) return [];
      return (await q.query<{ user_id: number }>(
        `${SELF_AND_ANCESTORS}
         INSERT INTO notifications (user_id, account_id, kind, customer_id, data)
         SELECT up.id, c.account_id, $2, c.id, $4 FROM up CROSS JOIN customers c WHERE c.id = $3
         RETURNING user_id`,
        [seller.retailer_id, kind, customerId, JSON.stringify(data)],
      )).rows.map((r) => r.user_id);
    },

    /** To one member, in the caller's transaction (keys asked of it, sent to it, running low). */
    async toMember(userId: number, kind: NotificationKind, data: NotificationData, q: Queryable): Promise<number[]> {
      return (await q.query<{ user_id: number }>(
        `INSERT INTO notifications (user_id, account_id, kind, data) SELECT id, account_id, $2, $3 FROM users WHERE id = $1 RETURNING user_id`,
        [userId, kind, JSON.stringify(data)],
      )).rows.map((r) => r.user_id);
    },

    /**
     * Keys asked of a member or sent to it, in the caller's transaction: the other member named as the network shows
     * it (its shop, else its name, else its mobile).
     */
    async keys(userId: number, kind: 'key_request' | 'keys_received', fromUserId: number, count: number, productType: number, q: Queryable): Promise<number[]> {
      return (await q.query<{ user_id: number }>(
        `INSERT INTO notifications (user_id, account_id, kind, data)
         SELECT u.id, u.account_id, $2, jsonb_build_object('from_name', coalesce(nullif(trim(f.shop_name), ''), nullif(trim(f.first_name || ' ' || f.last_name), ''), f.mobile),
                                                          'count', $4::int, 'product_type', $5::int)
           FROM users u, users f WHERE u.id = $1 AND f.id = $3
         RETURNING user_id`,
        [userId, kind, fromUserId, count, productType],
      )).rows.map((r) => r.user_id);
    },

    /**
     * After an organisation's dues run, in its transaction: each network's top member hears how many instalments are
     * overdue across its network today and for how much (from the dues summaries), when any are.
     */
    async duesRun(orgId: number, day: string, q: Queryable): Promise<number[]> {
      return (await q.query<{ user_id: number }>(
        `INSERT INTO notifications (user_id, account_id, kind, data)
         SELECT s.account_id, s.account_id, 'dues_run', jsonb_build_object('instalments', sum(s.instalments)::int, 'amount_paise', sum(s.outstanding_paise))
           FROM dues_summaries s JOIN users u ON u.id = s.account_id AND u.org_id = $1
          WHERE s.due_date < $2::date GROUP BY s.account_id HAVING sum(s.instalments) > 0
         RETURNING user_id`,
        [orgId, day],
      )).rows.map((r) => r.user_id);
    },

    /**
     * Phones silent for `days` days or more, once per silence (a check-in since the last telling starts a new one), at
     * most `limit` at a time; each is marked in the same statement that picks it. Answers the customers.
     */
    async silentPhones(days: number, limit: number, q: Queryable): Promise<Array<{ customer_id: number; days: number }>> {
      return (await q.query<{ customer_id: number; days: number }>(
        `UPDATE devices d SET offline_told_at = now()
          WHERE d.id IN (SELECT id FROM devices WHERE active AND last_check_in_at < now() - make_interval(days => $1)
                           AND (offline_told_at IS NULL OR offline_told_at < last_check_in_at) LIMIT $2 FOR UPDATE SKIP LOCKED)
          RETURNING d.customer_id, floor(extract(epoch FROM now() - d.last_check_in_at) / 86400)::int AS days`,
        [days, limit],
      )).rows;
    },

    async page(userId: number, unreadOnly: boolean, limit: number, offset: number): Promise<NotificationRow[]> {
      return (await db.query<NotificationRow>(
        `SELECT n.id, n.kind, n.customer_id, CASE WHEN c.id IS NULL THEN NULL ELSE c.first_name || ' ' || c.last_name END AS customer_name,
                n.data, n.created_at, n.read_at
           FROM notifications n LEFT JOIN customers c ON c.id = n.customer_id
          WHERE n.user_id = $1 AND ($2::boolean IS FALSE OR n.read_at IS NULL)
          ORDER BY n.id DESC LIMIT $3 OFFSET $4`,
        [userId, unreadOnly, limit, offset],
      )).rows;
    },

    async unread(userId: number): Promise<number> {
      return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND read_at IS NULL', [userId])).rows[0]!.n;
    },

    /** Marks the caller's own (these, or all): another member's ids match nothing. Answers how many changed. */
    async markRead(userId: number, ids: readonly number[] | null): Promise<number> {
      const res = await db.query(
        `UPDATE notifications SET read_at = now() WHERE user_id = $1 AND read_at IS NULL AND ($2::bigint[] IS NULL OR id = ANY($2::bigint[]))`,
        [userId, ids ? [...ids] : null],
      );
      return res.rowCount;
    },
  };
}
export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
