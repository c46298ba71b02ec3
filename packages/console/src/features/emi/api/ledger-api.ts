/**
 * The loan's ledger: its statement and schedule changes, waiving a penalty, and closing the loan early. The reads
 * carry the customer's EMI tags, so anything that moves the loan's money (a payment here, the server's `emi`
 * event, the dues run) refreshes an open statement or quote too.
 */
import type { EmiDetails, ForecloseBody, ForeclosureQuote, InstalmentChange, Receipt, Statement, WaiveBody } from '@kisht/contract/emi';
import { api } from '../../../shared/api/api.ts';
import { tagsAfterPayment, tagsAfterScheduleEdit, type CacheTag } from '../../../shared/api/cache-tags.ts';
import { paymentsApi } from './payments-api.ts';

/** What the EMI details and the payments of this customer provide: every change to the loan reaches one of them. */
export const loanTags = (customerId: number): CacheTag[] => [
  { type: 'Emi', id: customerId },
  { type: 'Payments', id: customerId },
];

export const ledgerApi = api.injectEndpoints({
  endpoints: (build) => ({
    getStatement: build.query<Statement, number>({
      query: (customerId) => ({ url: '/api/emi/statement', params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => loanTags(customerId),
    }),
    getInstalmentChanges: build.query<InstalmentChange[], number>({
      query: (customerId) => ({ url: '/api/emi/instalment_changes', params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => loanTags(customerId),
    }),
    getForeclosureQuote: build.query<ForeclosureQuote, number>({
      query: (customerId) => ({ url: '/api/emi/foreclosure_quote', params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => loanTags(customerId),
      // The dialog says what went wrong itself; a refetch after the loan closes (nothing owed) must not toast.
      extraOptions: { quiet: true },
    }),
    waivePenalty: build.mutation<EmiDetails, WaiveBody>({
      query: (body) => ({ url: '/api/emi/waive_penalty', method: 'POST', body }),
      invalidatesTags: (_result, error, body) => (error ? [] : tagsAfterScheduleEdit(body.customer_id)),
      extraOptions: { successKey: 'messages.PENALTY_WAIVED' },
    }),
    foreclose: build.mutation<Receipt, ForecloseBody>({
      query: (body) => ({ url: '/api/emi/foreclose', method: 'POST', body }),
      invalidatesTags: (_result, error, body) => (error ? [] : tagsAfterPayment(body.customer_id)),
      extraOptions: { successKey: 'messages.LOAN_CLOSED' },
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        // The receipt opens at once from the answer, as after a payment.
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) void dispatch(paymentsApi.util.upsertQueryData('getReceipt', data.payment_id, data));
      },
    }),
  }),
});

export const { useGetStatementQuery, useGetInstalmentChangesQuery, useGetForeclosureQuoteQuery, useWaivePenaltyMutation, useForecloseMutation } = ledgerApi;
