/** Changing a customer's schedule (edit or add an instalment, a penalty) and the payment history. EMI alerts: shared/customers/emi-alert-api.ts. */
import type { AddInstalmentBody, EditInstalmentBody, EmiDetails, PaymentItem, PenaltyBody } from '@kisht/contract/emi';
import { api } from '../../../shared/api/api.ts';
import { tagsAfterScheduleEdit } from '../../../shared/api/cache-tags.ts';

export const emiEditApi = api.injectEndpoints({
  endpoints: (build) => ({
    updateInstalment: build.mutation<EmiDetails, EditInstalmentBody>({
      query: (body) => ({ url: '/api/emi/update_emi_details', method: 'POST', body }),
      invalidatesTags: (_result, error, body) => (error ? [] : tagsAfterScheduleEdit(body.customer_id)),
      extraOptions: { successKey: 'emiEdit.saved' },
    }),
    addInstalment: build.mutation<EmiDetails, AddInstalmentBody>({
      query: (body) => ({ url: '/api/emi/add_emi_details', method: 'POST', body }),
      invalidatesTags: (_result, error, body) => (error ? [] : tagsAfterScheduleEdit(body.customer_id)),
      extraOptions: { successKey: 'emiEdit.saved' },
    }),
    sendPenalty: build.mutation<EmiDetails, PenaltyBody>({
      query: (body) => ({ url: '/api/emi/send_penalty', method: 'POST', body }),
      invalidatesTags: (_result, error, body) => (error ? [] : tagsAfterScheduleEdit(body.customer_id)),
      extraOptions: { successKey: 'emiEdit.saved' },
    }),
    getPayments: build.query<PaymentItem[], number>({
      query: (customerId) => ({ url: '/api/emi/payments', params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => [{ type: 'Payments', id: customerId }],
    }),
  }),
});

export const {
  useUpdateInstalmentMutation,
  useAddInstalmentMutation,
  useSendPenaltyMutation,
  useGetPaymentsQuery,
} = emiEditApi;
