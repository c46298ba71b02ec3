/** The customer list: pages of 20 under the filters, kept in the cache so the list survives a visit elsewhere. */
import type { CustomerList } from '@kisht/contract/customers';
import { api } from '../../../shared/api/api.ts';
import { nextPageParam, PAGE_SIZE } from '../../../shared/api/paging.ts';
import type { CustomerListArg } from '../hooks/list-query.ts';

export const customerListApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCustomers: build.infiniteQuery<CustomerList, CustomerListArg, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage, allPages) => nextPageParam(lastPage, allPages),
      },
      query: ({ queryArg, pageParam }) => ({
        url: '/api/customer/get_customers_keygen',
        params: { ...queryArg, page: pageParam, limit: PAGE_SIZE },
      }),
      providesTags: ['CustomerList'],
    }),
  }),
});

export const { useGetCustomersInfiniteQuery } = customerListApi;
