/**
 * A retailer's notifications (issue 14): the list, the bell's unread count and marking read. The stream's
 * `notification` event (one arrived, or they were read on another device) invalidates the tag, so the bell
 * and an open list refresh without a reload.
 */
import type { NotificationCount, NotificationPage, NotificationReadBody, PushTokenBody } from '@kisht/contract/notifications';
import { api } from '../../../shared/api/api.ts';
import { nextMorePage } from '../../../shared/api/paging.ts';

/** Rows per page: a phone's screen and a bit. */
export const NOTIFICATION_PAGE_SIZE = 20;

export const notificationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Newest first; the server says whether more pages follow. */
    getNotifications: build.infiniteQuery<NotificationPage, void, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (lastPage) => nextMorePage(lastPage) },
      query: ({ pageParam }) => ({ url: '/api/notifications', params: { page: pageParam, limit: NOTIFICATION_PAGE_SIZE } }),
      providesTags: ['Notifications'],
      // The drawer shows its own error card.
      extraOptions: { quiet: true },
    }),
    /** The bell's number: read on every screen, so a failure stays silent (the bell just keeps its last count). */
    getNotificationCount: build.query<NotificationCount, void>({
      query: () => '/api/notifications/count',
      providesTags: ['Notifications'],
      extraOptions: { quiet: true },
    }),
    /** Marks these (or, without ids, every one) read; the answer is the new count, shown at once. */
    markNotificationsRead: build.mutation<NotificationCount, NotificationReadBody>({
      query: (body) => ({ url: '/api/notifications/read', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Notifications']),
      // Reading is not news: no success toast; a failure still says why.
      extraOptions: { quietSuccess: true },
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(notificationsApi.util.upsertQueryData('getNotificationCount', undefined, data));
      },
    }),
    /** The newest notifications, to find the one a tapped push names. */
    getRecentNotifications: build.query<NotificationPage, void>({
      query: () => ({ url: '/api/notifications', params: { page: 1, limit: 50 } }),
      providesTags: ['Notifications'],
      extraOptions: { quiet: true },
    }),
    /** The native shell's push token, registered for the signed-in member (quietly: it is not the user's doing). */
    registerPushToken: build.mutation<null, PushTokenBody>({
      query: (body) => ({ url: '/api/notifications/push_token', method: 'POST', body }),
      extraOptions: { quiet: true, quietSuccess: true },
    }),
  }),
});

export const {
  useGetNotificationsInfiniteQuery, useGetNotificationCountQuery, useMarkNotificationsReadMutation, useLazyGetRecentNotificationsQuery, useRegisterPushTokenMutation,
} = notificationsApi;
