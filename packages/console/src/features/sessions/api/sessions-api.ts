/** The retailer's own sign-in sessions. */
import type { LogoutMySessionBody, MySessions, SessionsEnded } from '@kisht/contract/sessions';
import { api } from '../../../shared/api/api.ts';

export const sessionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMySessions: build.query<MySessions, void>({
      query: () => '/api/sessions/my-sessions',
      providesTags: ['Sessions'],
    }),
    logoutMySession: build.mutation<SessionsEnded, LogoutMySessionBody>({
      query: (body) => ({ url: '/api/sessions/logout-my-session', method: 'POST', body }),
      invalidatesTags: ['Sessions'],
      extraOptions: { successKey: 'sessions.toast.ended' },
    }),
  }),
});

export const { useGetMySessionsQuery, useLogoutMySessionMutation } = sessionsApi;
