/**
 * Gateway orders (a customer's dues, a retailer's keys), key quotes, and customers' "I paid" claims. Server
 * events ('payment', 'payment_claim') refresh the lists; a decision or a new order refreshes them at once.
 */
import type {
  ClaimDecisionBody, CustomerOrderBody, HeldOrderBody, KeyOrderBody, KeyQuote, KeyQuoteBody, PaymentClaimList, PaymentClaimView, PaymentOrderList, PaymentOrderView,
  ClaimStatus, OrderPurpose, OrderStatus,
} from '@kisht/contract/payments';
import { api } from '../../../shared/api/api.ts';
import { tagsAfterClaim, tagsAfterOrder } from '../../../shared/api/cache-tags.ts';
import { nextMorePage } from '../../../shared/api/paging.ts';

export interface OrderFilter {
  purpose?: OrderPurpose;
  status?: OrderStatus;
  customer_id?: number;
}
export interface ClaimFilter {
  status?: ClaimStatus;
  customer_id?: number;
}

export const paymentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPaymentOrders: build.infiniteQuery<PaymentOrderList, OrderFilter, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (lastPage) => nextMorePage(lastPage) },
      query: ({ queryArg, pageParam }) => ({ url: '/api/payments/orders', params: { ...queryArg, page: pageParam } }),
      providesTags: ['PaymentOrders'],
    }),
    getPaymentClaims: build.infiniteQuery<PaymentClaimList, ClaimFilter, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (lastPage) => nextMorePage(lastPage) },
      query: ({ queryArg, pageParam }) => ({ url: '/api/payments/claims', params: { ...queryArg, page: pageParam } }),
      providesTags: ['PaymentClaims'],
    }),
    decideClaim: build.mutation<PaymentClaimView, ClaimDecisionBody>({
      query: (body) => ({ url: '/api/payments/claims/decide', method: 'POST', body }),
      invalidatesTags: (result) => (result ? tagsAfterClaim([result.customer_id], result.status === 'confirmed') : []),
      extraOptions: { successKey: 'gateway.claims.toast.decided' },
    }),
    /** A held order after review: recorded as a payment of its customer, or marked refunded. */
    resolveHeldOrder: build.mutation<PaymentOrderView, HeldOrderBody>({
      query: (body) => ({ url: '/api/payments/orders/resolve', method: 'POST', body }),
      invalidatesTags: (result) => (result ? tagsAfterOrder(result.customer_id !== null ? [result.customer_id] : []) : []),
      extraOptions: { successKey: 'gateway.held.toast.resolved' },
    }),
    /** The price of keys before buying them; a missing price is 409 PRICE_UNAVAILABLE ("Please contact admin for prices."). */
    quoteKeys: build.mutation<KeyQuote, KeyQuoteBody>({
      query: (body) => ({ url: '/api/payments/validate', method: 'POST', body }),
      extraOptions: { quietSuccess: true },
    }),
    buyKeys: build.mutation<PaymentOrderView, KeyOrderBody>({
      query: (body) => ({ url: '/api/payments', method: 'POST', body }),
      invalidatesTags: (result) => (result ? tagsAfterOrder([]) : []),
      extraOptions: { successKey: 'gateway.toast.orderCreated' },
    }),
    createCustomerOrder: build.mutation<PaymentOrderView, CustomerOrderBody>({
      query: (body) => ({ url: '/api/payments/customer_order', method: 'POST', body }),
      invalidatesTags: (result) => (result ? ['PaymentOrders'] : []),
      extraOptions: { successKey: 'gateway.toast.orderCreated' },
    }),
  }),
});

export const {
  useGetPaymentOrdersInfiniteQuery,
  useGetPaymentClaimsInfiniteQuery,
  useDecideClaimMutation,
  useResolveHeldOrderMutation,
  useQuoteKeysMutation,
  useBuyKeysMutation,
  useCreateCustomerOrderMutation,
} = paymentsApi;
