/** The bell's badge: nothing at 0, the number up to 99, then "99+" (three characters keep it inside the button). */
export function badgeText(unread: number): string | null {
  if (unread <= 0) return null;
  return unread > 99 ? '99+' : String(unread);
}
