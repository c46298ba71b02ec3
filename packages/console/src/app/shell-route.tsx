/**
 * The signed-in shell with the notification bell at the end of its app bar, and the operator's announcement shown
 * once after sign-in (composed here: features do not import each other).
 */
import { ShellLayout } from '../features/dashboard/components/shell-layout.tsx';
import { NotificationBell } from '../features/notifications/components/notification-bell.tsx';
import { AnnouncementDialog } from '../features/ads/components/announcement-dialog.tsx';

export function ShellRoute() {
  return (
    <>
      <ShellLayout AppBarEnd={NotificationBell} />
      <AnnouncementDialog />
    </>
  );
}
