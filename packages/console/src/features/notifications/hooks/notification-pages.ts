/** Paging the notification list: the server says whether more follow ({items, has_more}), not how many there are. */
import type { Notification, NotificationPage } from '@kisht/contract/notifications';

/** The next page number, or undefined when the server said this was the last. */
export function nextNotificationPage(lastPage: NotificationPage): number | undefined {
  return lastPage.has_more && lastPage.items.length > 0 ? lastPage.page + 1 : undefined;
}

/**
 * The rows of all loaded pages, newest first, each once: a notification arriving between two page loads pushes
 * the oldest of page 1 onto page 2, where it would show twice.
 */
export function mergeNotificationPages(pages: readonly NotificationPage[] | undefined): Notification[] {
  const seen = new Set<number>();
  const items: Notification[] = [];
  for (const page of pages ?? []) {
    for (const item of page.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      items.push(item);
    }
  }
  return items;
}

/** The bell's badge: nothing at 0, the number up to 99, then "99+" (three characters keep it inside the button). */
export function badgeText(unread: number): string | null {
  if (unread <= 0) return null;
  return unread > 99 ? '99+' : String(unread);
}
