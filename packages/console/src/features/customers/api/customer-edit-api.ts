/** Editing an enrolled customer: the device registration (IMEI_EDIT) and the personal details. Both answer the new profile. */
import type { CustomerProfile, UpdateCustomerDetailsBody, UpdateRegistrationBody } from '@kisht/contract/customers';
import { api } from '../../../shared/api/api.ts';
import { tagsAfterCustomerEdit } from '../../../shared/api/cache-tags.ts';

export const customerEditApi = api.injectEndpoints({
  endpoints: (build) => ({
    updateRegistration: build.mutation<CustomerProfile, UpdateRegistrationBody>({
      query: (body) => ({ url: '/api/customer/customerRegistrationByKegenUpdateV3', method: 'POST', body }),
      invalidatesTags: (_result, error, body) => (error ? [] : tagsAfterCustomerEdit(body.customer_id)),
      extraOptions: { successKey: 'customerEdit.saved' },
    }),
    updateCustomerDetails: build.mutation<CustomerProfile, UpdateCustomerDetailsBody>({
      query: (body) => ({ url: '/api/customer/update_customer_detailsV3', method: 'POST', body }),
      invalidatesTags: (_result, error, body) => (error ? [] : tagsAfterCustomerEdit(body.customer_id)),
      extraOptions: { successKey: 'customerEdit.saved' },
    }),
  }),
});

export const { useUpdateRegistrationMutation, useUpdateCustomerDetailsMutation } = customerEditApi;
