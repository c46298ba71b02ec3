/**
 * The console's side of the native shell's push (docs/native-bridge.md), while a member is signed in: registers the
 * shell's token in the console's language (again when either changes), and opens the screen of a tapped notification
 * (marking it read), or the notification list when it is no longer among the newest.
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isLanguage } from '@kisht/domain/constants';
import { pushBridge } from '../../../shared/push-bridge.ts';
import { useLazyGetRecentNotificationsQuery, useMarkNotificationsReadMutation, useRegisterPushTokenMutation } from '../api/notifications-api.ts';
import { notificationPath } from './notification-text.ts';

export function useNativePush(openList: () => void): void {
  const { i18n } = useTranslation();
  const navigate = useNavigate();
  const token = useSyncExternalStore(pushBridge.subscribe, pushBridge.token);
  const opened = useSyncExternalStore(pushBridge.subscribe, pushBridge.opened);
  const [register] = useRegisterPushTokenMutation();
  const [findRecent] = useLazyGetRecentNotificationsQuery();
  const [markRead] = useMarkNotificationsReadMutation();
  const registered = useRef<string | null>(null);
  const language = isLanguage(i18n.language) ? i18n.language : undefined;

  useEffect(() => {
    if (!token) return;
    const key = `${token} ${language ?? ''}`;
    if (registered.current === key) return;
    registered.current = key;
    void register({ token, ...(language ? { language } : {}) });
  }, [token, language, register]);

  useEffect(() => {
    if (opened === null) return;
    const id = pushBridge.takeOpened();
    if (id === null) return;
    void findRecent().then(({ data }) => {
      const notification = data?.items.find((n) => n.id === id);
      const path = notification ? notificationPath(notification) : null;
      if (!notification || !path) {
        openList();
        return;
      }
      if (!notification.read) void markRead({ ids: [id] });
      void navigate(path);
    });
  }, [opened, findRecent, markRead, navigate, openList]);
}
