/**
 * Notifications for retailers (issue 14): written by the modules where things happen, in their transactions
 * (`record`), and read, counted and marked read by their recipient only. Each arrival reaches the recipient's open
 * console through the `notification` server event.
 */
import type { NotificationCount, NotificationListQuery, NotificationPage, NotificationReadBody } from '@kisht/contract/notifications';
import type { RequestAuth } from '../../plugins/route-config.ts';
import type { Notify } from '../events/events.bus.ts';
import type { NotificationsRepository } from './notifications.repository.ts';

export function createNotificationsService(deps: { notifications: NotificationsRepository; notify?: Notify }) {
  const { notifications } = deps;
  return {
    async page(caller: RequestAuth, query: NotificationListQuery): Promise<NotificationPage> {
      // One more than the page tells whether another follows, without counting them all.
      const rows = await notifications.page(caller.userId, query.unread ?? false, query.limit + 1, (query.page - 1) * query.limit);
      return {
        items: rows.slice(0, query.limit).map((r) => ({
          id: Number(r.id), kind: r.kind, customer_id: r.customer_id, customer_name: r.customer_name, data: r.data,
          created_at: r.created_at.toISOString(), read: r.read_at !== null,
        })),
        unread: await notifications.unread(caller.userId),
        has_more: rows.length > query.limit,
        page: query.page,
        limit: query.limit,
      };
    },

    async count(caller: RequestAuth): Promise<NotificationCount> {
      return { unread: await notifications.unread(caller.userId) };
    },

    /** The caller's own only; its other devices' bells follow. */
    async markRead(caller: RequestAuth, body: NotificationReadBody): Promise<NotificationCount> {
      if ((await notifications.markRead(caller.userId, body.ids ?? null)) > 0) deps.notify?.({ type: 'notification', user_ids: [caller.userId] });
      return { unread: await notifications.unread(caller.userId) };
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
