/** Enrolment: the standard flow and the financier flow; both answer the new customer and the keys left. */
import type { CreateCustomerBody, CreateFinancedCustomerBody, CustomerCreated } from '@kisht/server/contract/customers';
import { api } from '../../../shared/api/api.ts';
import { TAGS_AFTER_ENROLMENT } from '../../../shared/api/cache-tags.ts';

export const enrolApi = api.injectEndpoints({
  endpoints: (build) => ({
    createCustomer: build.mutation<CustomerCreated, CreateCustomerBody>({
      query: (body) => ({ url: '/api/customer', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : TAGS_AFTER_ENROLMENT),
      // The screen says "enrolled" once the photo and signatures are uploaded too.
      extraOptions: { quietSuccess: true },
    }),
    createFinancedCustomer: build.mutation<CustomerCreated, CreateFinancedCustomerBody>({
      query: (body) => ({ url: '/api/customer/create-customer-hdb', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : TAGS_AFTER_ENROLMENT),
      extraOptions: { quietSuccess: true },
    }),
  }),
});

export const { useCreateCustomerMutation, useCreateFinancedCustomerMutation } = enrolApi;
