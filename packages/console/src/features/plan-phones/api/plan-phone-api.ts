/** Enrolling a phone on a plan alone (decision 023). */
import type { CreatePlanPhoneBody, CustomerCreated } from '@kisht/contract/customers';
import { api } from '../../../shared/api/api.ts';
import { FAMILY_CARE_LIST } from '../../../shared/api/cache-tags.ts';

export const planPhoneApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Success toast: the server's message. One key fewer, and a new phone in the lists. */
    enrolPlanPhone: build.mutation<CustomerCreated, CreatePlanPhoneBody>({
      query: (body) => ({ url: '/api/customer/plan-phone', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Balance', 'KeyHistory', 'CustomerList', 'Dashboard', 'Antitheft', FAMILY_CARE_LIST]),
    }),
  }),
});

export const { useEnrolPlanPhoneMutation } = planPhoneApi;
