/** SIM changes the phones reported, newest first, a page at a time: the whole network or one customer. */
import type { SimChange } from '@kisht/contract/devices';
import { api } from '../../../shared/api/api.ts';
import { nextPageParam, PAGE_SIZE, type Paged } from '../../../shared/api/paging.ts';

export const simChangesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSimChanges: build.infiniteQuery<Paged<SimChange>, { customer_id?: number }, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage, allPages) => nextPageParam(lastPage, allPages),
      },
      query: ({ queryArg, pageParam }) => ({ url: '/api/customer/customer_sim_change_details', params: { ...queryArg, page: pageParam, limit: PAGE_SIZE } }),
      providesTags: ['SimChanges'],
    }),
  }),
});

export const { useGetSimChangesInfiniteQuery } = simChangesApi;
