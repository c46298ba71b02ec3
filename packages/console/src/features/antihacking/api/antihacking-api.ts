/**
 * Anti-hacking plans: the plan list (kept 5 s like every plan query), selling a plan to a mobile number, the
 * sales list 20 at a time under its search and state filter, and revoking a sale.
 */
import type { AddAntihackingBody, AntihackingAdded, AntihackingPage, AntihackingSale, KindPlan, RevokeAntihackingBody } from '@kisht/contract/plans';
import { api, CACHE_FOR } from '../../../shared/api/api.ts';
import type { CacheTag } from '../../../shared/api/cache-tags.ts';
import { nextPageParam, PAGE_SIZE } from '../../../shared/api/paging.ts';
import type { SalesListArg } from '../hooks/sales.ts';

/** A sale or a revoke moves a key (used, or given back): the sales, the key stock and its history, the dashboard's stock. */
const TAGS_AFTER_SALE: CacheTag[] = ['Antihacking', 'Balance', 'Network', 'KeyHistory', 'Dashboard'];

export const antihackingApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAntihackingPlans: build.query<KindPlan[], void>({
      query: () => '/api/customer/get_plans_antihacking',
      keepUnusedDataFor: CACHE_FOR.plans,
    }),
    /** Success toast: the server's message (spec section 8); the screen then shows the code. */
    addAntihackingCustomer: build.mutation<AntihackingAdded, AddAntihackingBody>({
      query: (body) => ({ url: '/api/customer/add_customer_antihacking', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : TAGS_AFTER_SALE),
    }),
    getAntihackingSales: build.infiniteQuery<AntihackingPage, SalesListArg, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (lastPage, allPages) => nextPageParam(lastPage, allPages) },
      query: ({ queryArg, pageParam }) => ({ url: '/api/customer/antihacking', params: { ...queryArg, page: pageParam, limit: PAGE_SIZE } }),
      providesTags: ['Antihacking'],
    }),
    revokeAntihacking: build.mutation<AntihackingSale, RevokeAntihackingBody>({
      query: (body) => ({ url: '/api/customer/antihacking/revoke', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : TAGS_AFTER_SALE),
    }),
  }),
});

export const { useGetAntihackingPlansQuery, useAddAntihackingCustomerMutation, useGetAntihackingSalesInfiniteQuery, useRevokeAntihackingMutation } = antihackingApi;
