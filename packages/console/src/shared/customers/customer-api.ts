/** One customer's profile and EMI details: read by the customer, EMI and document screens, so they live here. */
import type { CustomerProfile } from '@kisht/contract/customers';
import type { EmiDetails } from '@kisht/contract/emi';
import { api } from '../api/api.ts';

export const customerApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCustomerProfile: build.query<CustomerProfile, number>({
      query: (customerId) => ({ url: '/api/country/getCustomerProfile', params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => [{ type: 'Customer', id: customerId }],
    }),
    getEmiDetails: build.query<EmiDetails, number>({
      query: (customerId) => ({ url: '/api/emi/customer_emi_details', params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => [{ type: 'Emi', id: customerId }],
    }),
  }),
});

export const { useGetCustomerProfileQuery, useGetEmiDetailsQuery } = customerApi;
