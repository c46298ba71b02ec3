/** The dashboard's figures and, where the organisation switched it on, the total outstanding. */
import type { DashboardStats } from '@kisht/contract/dashboard';
import type { Outstanding } from '@kisht/contract/emi';
import { api } from '../../../shared/api/api.ts';

export const DASHBOARD_DAYS = 30;

export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDashboardStats: build.query<DashboardStats, number>({
      query: (days) => ({ url: '/api/customer/get_keygen_dashboardV1', params: { days } }),
      providesTags: ['Dashboard'],
      // The cards show their own "could not load" with a retry.
      extraOptions: { quiet: true },
    }),
    getTotalOutstanding: build.query<Outstanding, void>({
      query: () => '/api/emi/getTotalOutStanding',
      providesTags: ['Outstanding'],
      extraOptions: { quiet: true },
    }),
  }),
});

export const { useGetDashboardStatsQuery, useGetTotalOutstandingQuery } = dashboardApi;
