/** Instalments overdue, due today and due in the next days: the counts for the tabs and each tab's pages. */
import type { UpcomingCounts, UpcomingList, UpcomingQuery } from '@kisht/contract/emi';
import { api } from '../../../shared/api/api.ts';
import { nextPageParam, PAGE_SIZE } from '../../../shared/api/paging.ts';

export type UpcomingFilter = UpcomingQuery['filter'];
export const UPCOMING_DAYS = 7;

export const upcomingApi = api.injectEndpoints({
  endpoints: (build) => ({
    getUpcomingCounts: build.query<UpcomingCounts, number>({
      query: (days) => ({ url: '/api/emi/upcoming_emi_counts', params: { days } }),
      providesTags: ['Upcoming'],
    }),
    getUpcomingEmis: build.infiniteQuery<UpcomingList, { filter: UpcomingFilter; days: number }, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage, allPages) => nextPageParam(lastPage, allPages),
      },
      query: ({ queryArg, pageParam }) => ({
        url: '/api/emi/getUpcomingEmi',
        params: { filter: queryArg.filter, days: queryArg.days, page: pageParam, limit: PAGE_SIZE },
      }),
      providesTags: ['Upcoming'],
    }),
  }),
});

export const { useGetUpcomingCountsQuery, useGetUpcomingEmisInfiniteQuery } = upcomingApi;
