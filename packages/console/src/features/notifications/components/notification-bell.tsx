/**
 * The app bar's bell: the unread count as a badge (none at 0, "99+" above 99), named with the count for a screen
 * reader, opening the notification drawer. The stream's `notification` event refreshes the count; while the stream
 * is down it is read again every minute instead.
 */
import { useCallback, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useServerEventsLive } from '../../../shared/api/server-events.ts';
import { BellIcon } from '../../../shared/ui/icons.tsx';
import { useGetNotificationCountQuery } from '../api/notifications-api.ts';
import { badgeText } from '../hooks/notification-pages.ts';
import { useNativePush } from '../hooks/use-native-push.ts';
import { NotificationDrawer } from './notification-drawer.tsx';
import './notifications.css';

const POLL_WITHOUT_STREAM_MS = 60_000;

export function NotificationBell() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  // The bell is on every signed-in screen: the native shell's push token and tapped pushes are handled from here.
  useNativePush(useCallback(() => setOpen(true), []));
  const live = useServerEventsLive();
  const { data } = useGetNotificationCountQuery(undefined, { pollingInterval: live ? 0 : POLL_WITHOUT_STREAM_MS, skipPollingIfUnfocused: true });
  const unread = data?.unread ?? 0;
  const badge = badgeText(unread);
  return (
    <>
      <button
        type="button"
        className="icon-button notification-bell"
        // The name says what the badge shows ("99+" too): the visible number must be part of it (WCAG 2.5.3).
        aria-label={badge ? t('notifications.bell', { count: unread, replace: { count: badge } }) : t('notifications.title')}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <BellIcon />
        {badge ? (
          <span className="notification-bell__badge" aria-hidden="true">
            {badge}
          </span>
        ) : null}
      </button>
      {/*
        Mounted only while open: the list is read when someone looks at it, the count always. In the body, not in the
        bar: the sticky bar's stacking would put the bottom tabs over the sheet, and its colours would become the rows'.
      */}
      {open ? createPortal(<NotificationDrawer unread={unread} onClose={() => setOpen(false)} />, document.body) : null}
    </>
  );
}
