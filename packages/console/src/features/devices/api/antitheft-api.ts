/** An anti-theft phone's settings (decision 022): what a SIM change does and what lost mode shows. */
import type { Antitheft, AntitheftPage, AntitheftRenewBody, AntitheftSettingsBody } from '@kisht/contract/antitheft';
import { nextPageParam, PAGE_SIZE } from '../../../shared/api/paging.ts';
import { api } from '../../../shared/api/api.ts';

export const antitheftApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The anti-theft screen's list; the customer, command and SIM change events refresh it. */
    getAntitheftPhones: build.infiniteQuery<AntitheftPage, { search?: string; state?: 'lost' | 'ended' }, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (lastPage, allPages) => nextPageParam(lastPage, allPages) },
      query: ({ queryArg, pageParam }) => ({ url: '/api/customer/antitheft/list', params: { ...queryArg, page: pageParam, limit: PAGE_SIZE } }),
      providesTags: ['Antitheft'],
    }),
    // Under the customer's Device tag: a save elsewhere reaches this screen through the customer's event.
    getAntitheft: build.query<Antitheft, number>({
      query: (customerId) => ({ url: '/api/customer/antitheft', params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => [{ type: 'Device', id: customerId }],
      // The section shows its own error line.
      extraOptions: { quiet: true },
    }),
    /** Success toast: the server's message. Uses a key: the key stock is read again. */
    renewAntitheft: build.mutation<Antitheft, AntitheftRenewBody>({
      query: (body) => ({ url: '/api/customer/antitheft/renew', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Balance', 'KeyHistory']),
      async onQueryStarted({ customer_id }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(antitheftApi.util.upsertQueryData('getAntitheft', customer_id, data));
      },
    }),
    /** Success toast: the server's message. */
    saveAntitheft: build.mutation<Antitheft, AntitheftSettingsBody>({
      query: (body) => ({ url: '/api/customer/antitheft', method: 'POST', body }),
      async onQueryStarted({ customer_id }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(antitheftApi.util.upsertQueryData('getAntitheft', customer_id, data));
      },
    }),
  }),
});

export const { useGetAntitheftQuery, useGetAntitheftPhonesInfiniteQuery, useRenewAntitheftMutation, useSaveAntitheftMutation } = antitheftApi;
