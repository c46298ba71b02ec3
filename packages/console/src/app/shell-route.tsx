/** The signed-in shell with the notification bell at the end of its app bar (composed here: features do not import each other). */
import { ShellLayout } from '../features/dashboard/components/shell-layout.tsx';
import { NotificationBell } from '../features/notifications/components/notification-bell.tsx';

export function ShellRoute() {
  return <ShellLayout AppBarEnd={NotificationBell} />;
}
