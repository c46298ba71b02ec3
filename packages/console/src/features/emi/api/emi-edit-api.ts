/** Changing a customer's schedule (edit or add an instalment, a penalty), EMI alerts to the device, and the payment history. */
import type { AddInstalmentBody, Alert, AlertBody, EditInstalmentBody, EmiDetails, PaymentItem, PenaltyBody } from '@kisht/server/contract/emi';
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
    sendEmiAlert: build.mutation<Alert, AlertBody>({
      query: (body) => ({ url: '/api/emi/send_emialert', method: 'POST', body }),
      invalidatesTags: (_result, error, body) => (error ? [] : [{ type: 'Alerts', id: body.customer_id }]),
      extraOptions: { successKey: 'emiAlert.sent' },
    }),
    getEmiAlerts: build.query<Alert[], number>({
      query: (customerId) => ({ url: '/api/emi/emi_alerts', params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => [{ type: 'Alerts', id: customerId }],
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
  useSendEmiAlertMutation,
  useGetEmiAlertsQuery,
  useGetPaymentsQuery,
} = emiEditApi;
