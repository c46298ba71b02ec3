/** The signed-in user's profile and sign-out: used by several features, so they live here. */
import type { UserProfile } from '@kisht/contract/auth';
import { api } from '../api/api.ts';

export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDetails: build.query<UserProfile, void>({
      query: () => '/api/user/get-details',
      providesTags: ['Profile'],
    }),
    logout: build.mutation<Record<string, never>, void>({
      query: () => ({ url: '/api/auth/logout', method: 'POST', body: {} }),
      extraOptions: { successKey: 'auth.toast.loggedOut' },
    }),
  }),
});

export const { useGetDetailsQuery, useLogoutMutation } = sessionApi;
