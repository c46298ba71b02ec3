/** Enrolment: the standard flow and the financier flow; both answer the new customer and the keys left. */
import type { CreateCustomerBody, CreateFinancedCustomerBody, CustomerCreated } from '@kisht/contract/customers';
import { api } from '../../../shared/api/api.ts';
import { TAGS_AFTER_ENROLMENT } from '../../../shared/api/cache-tags.ts';
import { keepServerMessage, type WithServerMessage } from '../../../shared/api/server-message.ts';

export const enrolApi = api.injectEndpoints({
  endpoints: (build) => ({
    createCustomer: build.mutation<WithServerMessage<CustomerCreated>, CreateCustomerBody>({
      query: (body) => ({ url: '/api/customer', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : TAGS_AFTER_ENROLMENT),
      // The screen shows the server's message once the photo and signatures are uploaded too.
      transformResponse: (data: CustomerCreated, meta) => keepServerMessage(data, meta),
      extraOptions: { quietSuccess: true },
    }),
    createFinancedCustomer: build.mutation<WithServerMessage<CustomerCreated>, CreateFinancedCustomerBody>({
      query: (body) => ({ url: '/api/customer/create-customer-hdb', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : TAGS_AFTER_ENROLMENT),
      transformResponse: (data: CustomerCreated, meta) => keepServerMessage(data, meta),
      extraOptions: { quietSuccess: true },
    }),
  }),
});

export const { useCreateCustomerMutation, useCreateFinancedCustomerMutation } = enrolApi;
