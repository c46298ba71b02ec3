/**
 * The bell's drawer: notifications newest first, unread ones marked in words, each opening its screen; mark all
 * read; more pages on demand. Skeletons while the first page loads, an error card with Retry, an offline line.
 */
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Notification } from '@kisht/contract/notifications';
import { formatDateTime } from '@kisht/domain/format';
import { Dialog } from '../../../shared/ui/dialog.tsx';
import { ShortText } from '../../../shared/ui/short-text.tsx';
import { SkeletonList } from '../../../shared/ui/skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { isOffline } from '../../../shared/api/api-failure.ts';
import { PRODUCT_TYPE_LABEL_KEYS } from '../../../shared/labels.ts';
import { useGetBalanceTypesQuery } from '../../../shared/network/member-api.ts';
import { useGetNotificationsInfiniteQuery, useMarkNotificationsReadMutation } from '../api/notifications-api.ts';
import { mergeMorePages } from '../../../shared/api/paging.ts';
import { notificationPath, notificationWords } from '../hooks/notification-text.ts';
import { useOnline } from '../hooks/use-online.ts';

function NotificationRow({ notification, productTypeName, onOpen }: { notification: Notification; productTypeName: (type: number) => string; onOpen: () => void }) {
  const { t } = useTranslation();
  const { title, detail } = notificationWords(notification, t, productTypeName);
  const unread = !notification.read;
  return (
    <li>
      <button type="button" className={`notification-row${unread ? ' notification-row--unread' : ''}`} onClick={onOpen}>
        <span className="notification-row__top">
          <span className="notification-row__title">{title}</span>
          {/* In words, not only the bold title and the bar: "New" is read out and seen without colour. */}
          {unread ? <span className="badge notification-row__new">{t('notifications.unread')}</span> : null}
        </span>
        {detail ? <span className="notification-row__detail small">{detail}</span> : null}
        <span className="muted small">
          {notification.customer_name ? (
            <>
              <ShortText text={notification.customer_name} />
              {' · '}
            </>
          ) : null}
          <time dateTime={notification.created_at}>{formatDateTime(notification.created_at)}</time>
        </span>
      </button>
    </li>
  );
}

export function NotificationDrawer({ unread, onClose }: { unread: number; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const online = useOnline();
  const { data, error, isFetching, isError, hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = useGetNotificationsInfiniteQuery();
  const items = useMemo(() => mergeMorePages(data?.pages), [data]);
  const [markRead, { isLoading: marking }] = useMarkNotificationsReadMutation();
  // Key types by the names the key stock shows; the translated label until (or unless) those have loaded.
  const { data: types } = useGetBalanceTypesQuery();
  const productTypeName = (type: number) => types?.find((x) => x.product_type === type)?.name ?? t(PRODUCT_TYPE_LABEL_KEYS[type] ?? 'productType.other');

  function open(notification: Notification) {
    // Not awaited: the screen opens at once; the count follows from the answer (and the stream's event).
    if (!notification.read) void markRead({ ids: [notification.id] }).unwrap().catch(() => undefined);
    const path = notificationPath(notification);
    onClose();
    if (path) void navigate(path);
  }

  const offline = !online || isOffline(error);
  return (
    <Dialog open title={t('notifications.title')} onClose={onClose} variant="sheet" actions={
      <button type="button" className="button button--secondary" onClick={onClose}>
        {t('common.close')}
      </button>
    }>
      <div className="notification-toolbar">
        <button
          type="button"
          className="button button--secondary button--small"
          disabled={unread === 0 || marking || !online}
          onClick={() => void markRead({}).unwrap().catch(() => undefined)}
        >
          {t('notifications.markAllRead')}
        </button>
      </div>
      {!online && data ? <p className="notice" role="status">{t('notifications.offlineStale')}</p> : null}
      {!data && isFetching ? (
        <SkeletonList rows={4} label={t('common.loading')} />
      ) : isError && !data ? (
        <LoadErrorCard message={offline ? t('notifications.offline') : t('notifications.loadError')} onRetry={() => void refetch()} />
      ) : data ? (
        items.length === 0 ? (
          <p className="card empty-state">{t('notifications.empty')}</p>
        ) : (
          <>
            <ul className="list notification-list">
              {items.map((notification) => (
                <NotificationRow key={notification.id} notification={notification} productTypeName={productTypeName} onOpen={() => open(notification)} />
              ))}
            </ul>
            <LoadMore hasMore={hasNextPage} loading={isFetchingNextPage} onLoadMore={() => void fetchNextPage()} />
          </>
        )
      ) : null}
    </Dialog>
  );
}
