/** The public price list. */
import type { PriceItem } from '@kisht/contract/config';
import { api, CACHE_FOR } from '../../../shared/api/api.ts';

export const pricingApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPricing: build.query<PriceItem[], void>({
      query: () => '/api/pricing',
      keepUnusedDataFor: CACHE_FOR.config,
      providesTags: ['Pricing'],
    }),
  }),
});

export const { useGetPricingQuery } = pricingApi;
