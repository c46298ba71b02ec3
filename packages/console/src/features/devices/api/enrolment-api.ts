/** Enrolment: the EMM QR payload for DPC phones and the deep link for LINKFL phones (each a fresh single-use token). */
import type { DeepLink, EmmCode } from '@kisht/contract/devices';
import { api } from '../../../shared/api/api.ts';

export const enrolmentApi = api.injectEndpoints({
  endpoints: (build) => ({
    getEmmCode: build.query<EmmCode, number>({
      query: (customerId) => ({ url: '/api/customer/generate_emm_code', params: { customer_id: customerId } }),
      // Every visit asks for a fresh token; an old one may already be spent.
      keepUnusedDataFor: 0,
    }),
    getDeepLink: build.query<DeepLink, number>({
      query: (customerId) => ({ url: '/api/customer/get_deep_link', params: { customer_id: customerId } }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useGetEmmCodeQuery, useGetDeepLinkQuery } = enrolmentApi;
