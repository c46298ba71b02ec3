/** The network's activity log, newest first, a page at a time, filtered by action group and India dates. */
import type { AuditEntry } from '@kisht/contract/audit';
import { api } from '../../../shared/api/api.ts';
import { nextPageParam, PAGE_SIZE, type Paged } from '../../../shared/api/paging.ts';

export interface ActivityFilter {
  /** One action, or a group ending with a dot (`device.`); absent for everything. */
  action?: string;
  from?: string;
  to?: string;
}

export const auditApi = api.injectEndpoints({
  endpoints: (build) => ({
    getActivity: build.infiniteQuery<Paged<AuditEntry>, ActivityFilter, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage, allPages) => nextPageParam(lastPage, allPages),
      },
      query: ({ queryArg, pageParam }) => ({ url: '/api/audit/list', params: { ...queryArg, page: pageParam, limit: PAGE_SIZE } }),
      // Every action anywhere adds a row: opening the screen reads the log again rather than trusting the cache.
      keepUnusedDataFor: 0,
    }),
    /** A member's latest entries (its profile's recent activity): one's own, or a member below. */
    getMemberActivity: build.query<Paged<AuditEntry>, number>({
      query: (userId) => ({ url: '/api/audit/list', params: { user_id: userId, page: 1, limit: 5 } }),
      // A change to the member (a block, a switch, keys) is a network event: its entries are read again.
      providesTags: ['Network'],
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useGetActivityInfiniteQuery, useGetMemberActivityQuery } = auditApi;
