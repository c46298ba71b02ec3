/**
 * Family care (decision 024): the phones on it, a phone's rules and cover, its usage, and renewal. The list is
 * tagged { FamilyCare, LIST } and each customer's reads { FamilyCare, customer id }, so a usage report or a rules
 * confirmation refreshes that phone (and the list) without reading every family-care phone again.
 */
import type { FamilyCare, FamilyCarePage, FamilyRulesBody, FamilyUsage } from '@kisht/contract/familycare';
import { nextPageParam, PAGE_SIZE } from '../../../shared/api/paging.ts';
import { api } from '../../../shared/api/api.ts';
import { FAMILY_CARE_LIST } from '../../../shared/api/cache-tags.ts';

/** The days of usage customer details shows: a week up to today. */
export const USAGE_DAYS = 7;

export const familyCareApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The family-care screen's list; the usage, command and customer events refresh it. */
    getFamilyCarePhones: build.infiniteQuery<FamilyCarePage, { search?: string }, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (lastPage, allPages) => nextPageParam(lastPage, allPages) },
      query: ({ queryArg, pageParam }) => ({ url: '/api/customer/familycare/list', params: { ...queryArg, page: pageParam, limit: PAGE_SIZE } }),
      providesTags: [FAMILY_CARE_LIST],
    }),
    getFamilyCare: build.query<FamilyCare, number>({
      query: (customerId) => ({ url: '/api/customer/familycare', params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => [{ type: 'FamilyCare', id: customerId }],
      // The section shows its own error line.
      extraOptions: { quiet: true },
    }),
    getFamilyUsage: build.query<FamilyUsage, number>({
      query: (customerId) => ({ url: '/api/customer/familycare/usage', params: { customer_id: customerId, days: USAGE_DAYS } }),
      providesTags: (_result, _error, customerId) => [{ type: 'FamilyCare', id: customerId }],
      extraOptions: { quiet: true },
    }),
    /** Success toast: the server's message. The answer is the saved rules: shown at once. */
    saveFamilyRules: build.mutation<FamilyCare, FamilyRulesBody>({
      query: (body) => ({ url: '/api/customer/familycare', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : [FAMILY_CARE_LIST]),
      async onQueryStarted({ customer_id }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(familyCareApi.util.upsertQueryData('getFamilyCare', customer_id, data));
      },
    }),
    /** Success toast: the server's message. Uses a key: the key stock is read again. */
    renewFamilyCare: build.mutation<FamilyCare, { customer_id: number }>({
      query: (body) => ({ url: '/api/customer/familycare/renew', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Balance', 'KeyHistory', FAMILY_CARE_LIST]),
      async onQueryStarted({ customer_id }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(familyCareApi.util.upsertQueryData('getFamilyCare', customer_id, data));
      },
    }),
  }),
});

export const { useGetFamilyCarePhonesInfiniteQuery, useGetFamilyCareQuery, useGetFamilyUsageQuery, useSaveFamilyRulesMutation, useRenewFamilyCareMutation } = familyCareApi;
