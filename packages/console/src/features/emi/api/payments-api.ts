/** EMI payments, their receipts and reversals. A payment makes the EMI details, the list row, the upcoming counts and the dashboard stale. */
import type { PayManyBody, PayOneBody, Receipt, ReverseBody } from '@kisht/contract/emi';
import { api } from '../../../shared/api/api.ts';
import { tagsAfterPayment } from '../../../shared/api/cache-tags.ts';

export const paymentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    payInstalment: build.mutation<Receipt, PayOneBody>({
      query: (body) => ({ url: '/api/emi/update_emi_status', method: 'POST', body }),
      invalidatesTags: (_result, error, body) => (error ? [] : tagsAfterPayment(body.customer_id)),
      extraOptions: { successKey: 'emi.toast.paid' },
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) void dispatch(paymentsApi.util.upsertQueryData('getReceipt', data.payment_id, data));
      },
    }),
    payInstalments: build.mutation<Receipt, PayManyBody>({
      query: (body) => ({ url: '/api/emi/multiple_emi_paid', method: 'POST', body }),
      invalidatesTags: (_result, error, body) => (error ? [] : tagsAfterPayment(body.customer_id)),
      extraOptions: { successKey: 'emi.toast.paid' },
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) void dispatch(paymentsApi.util.upsertQueryData('getReceipt', data.payment_id, data));
      },
    }),
    reversePayment: build.mutation<Receipt, ReverseBody>({
      query: (body) => ({ url: '/api/emi/reverse_payment', method: 'POST', body }),
      invalidatesTags: (result, _error, body) =>
        result ? [...tagsAfterPayment(result.customer.id), { type: 'Receipt', id: body.payment_id }] : [],
      extraOptions: { successKey: 'receipt.toast.reversed' },
    }),
    getReceipt: build.query<Receipt, number>({
      query: (paymentId) => ({ url: '/api/emi/receipt', params: { payment_id: paymentId } }),
      providesTags: (_result, _error, paymentId) => [{ type: 'Receipt', id: paymentId }],
    }),
  }),
});

export const { usePayInstalmentMutation, usePayInstalmentsMutation, useReversePaymentMutation, useGetReceiptQuery } = paymentsApi;
