/** SIM changes the phones reported, newest first, 20 a page: the whole network or one customer. */
import type { SimChange } from '@kisht/server/contract/devices';
import { api } from '../../../shared/api/api.ts';

export interface SimChangePage {
  total: number;
  items: SimChange[];
}

export const SIM_CHANGES_PAGE_SIZE = 20;

/** The next page, or undefined once every counted row is loaded. */
export function nextSimChangePage(lastPage: SimChangePage, allPages: readonly SimChangePage[], lastPageParam: number): number | undefined {
  const loaded = allPages.reduce((sum, page) => sum + page.items.length, 0);
  if (lastPage.items.length < SIM_CHANGES_PAGE_SIZE || loaded >= lastPage.total) return undefined;
  return lastPageParam + 1;
}

export const simChangesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSimChanges: build.infiniteQuery<SimChangePage, { customer_id?: number }, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage, allPages, lastPageParam) => nextSimChangePage(lastPage, allPages, lastPageParam),
      },
      query: ({ queryArg, pageParam }) => ({ url: '/api/customer/customer_sim_change_details', params: { ...queryArg, page: pageParam } }),
      providesTags: ['SimChanges'],
    }),
  }),
});

export const { useGetSimChangesInfiniteQuery } = simChangesApi;
