/**
 * The spec's stored key `showAd`: which announcement this browser has shown, and to whom, so the operator's
 * announcement shows once on load and not again here, even when dismissing it did not reach the server.
 */

/** What `showAd` holds once an announcement was shown: the user and the announcement. */
export function shownValue(userId: string | null, announcementId: number): string {
  return `${userId ?? ''}:${announcementId}`;
}

/** Whether this announcement was already shown to this user here. */
export function wasShown(stored: string | null, userId: string | null, announcementId: number): boolean {
  return stored === shownValue(userId, announcementId);
}
