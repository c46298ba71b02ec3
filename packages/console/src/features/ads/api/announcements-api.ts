/**
 * The operator's announcements to retailers (the spec's showAd): the newest one this user has not dismissed, and
 * dismissing it so it shows on no device again. Read once after sign-in by the shell (app/shell-route.tsx).
 */
import type { Announcement } from '@kisht/contract/ads';
import { api } from '../../../shared/api/api.ts';

export const announcementsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCurrentAnnouncement: build.query<Announcement | null, void>({
      query: () => '/api/announcements/current',
      // Background work on every screen: a failure stays silent (there is simply nothing to show).
      extraOptions: { quiet: true },
    }),
    dismissAnnouncement: build.mutation<null, { announcement_id: number }>({
      query: (body) => ({ url: '/api/announcements/dismiss', method: 'POST', body }),
      extraOptions: { quiet: true },
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const done = await queryFulfilled.then(() => true, () => false);
        if (done) dispatch(announcementsApi.util.upsertQueryData('getCurrentAnnouncement', undefined, null));
      },
    }),
  }),
});

export const { useGetCurrentAnnouncementQuery, useDismissAnnouncementMutation } = announcementsApi;
