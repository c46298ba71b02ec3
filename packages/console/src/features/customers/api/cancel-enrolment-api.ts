/** Cancelling an enrolment whose phone never enrolled and on which nothing was paid: the customer goes, its key comes back. */
import { api } from '../../../shared/api/api.ts';
import { TAGS_AFTER_ENROLMENT } from '../../../shared/api/cache-tags.ts';

export const cancelEnrolmentApi = api.injectEndpoints({
  endpoints: (build) => ({
    cancelEnrolment: build.mutation<{ customer_id: number; keys_left: number | null }, number>({
      query: (customerId) => ({ url: '/api/customer/cancel_enrolment', method: 'POST', body: { customer_id: customerId } }),
      // The same figures as an enrolment move back; the customer's own entry is dropped, not read again.
      invalidatesTags: (_result, error) => (error ? [] : TAGS_AFTER_ENROLMENT),
    }),
  }),
});

export const { useCancelEnrolmentMutation } = cancelEnrolmentApi;
