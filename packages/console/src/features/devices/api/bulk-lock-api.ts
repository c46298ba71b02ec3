/** Multiple lock/unlock: the customers to choose from, starting a batch, its progress and the retry. */
import type { CustomerList, CustomerListQuery } from '@kisht/contract/customers';
import type { Batch, BatchBody } from '@kisht/contract/devices';
import { api } from '../../../shared/api/api.ts';
import { nextPageParam, PAGE_SIZE } from '../../../shared/api/paging.ts';
import { tagsAfterDeviceChange } from '../../../shared/api/cache-tags.ts';
import { batchProgress } from '../hooks/batch-progress.ts';

export type CandidateQuery = Pick<CustomerListQuery, 'status' | 'search' | 'lock_status'>;

export const bulkLockApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLockCandidates: build.infiniteQuery<CustomerList, CandidateQuery, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (lastPage, allPages) => nextPageParam(lastPage, allPages) },
      query: ({ queryArg, pageParam }) => ({ url: '/api/customer/get_customers_keygen', params: { ...queryArg, page: pageParam, limit: PAGE_SIZE } }),
      providesTags: ['CustomerList'],
    }),
    startBatch: build.mutation<Batch, BatchBody>({
      query: (body) => ({ url: '/api/device/multiple_lock_unlock', method: 'POST', body }),
      extraOptions: { successKey: 'bulkLock.toast.started' },
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) void dispatch(bulkLockApi.util.upsertQueryData('getBatch', data.id, data));
      },
    }),
    getBatch: build.query<Batch, string>({
      query: (batchId) => ({ url: '/api/device/multiple_lock_unlock', params: { batch_id: batchId } }),
      providesTags: (_result, _error, batchId) => [{ type: 'Batch', id: batchId }],
      extraOptions: { quiet: true },
      async onQueryStarted(_batchId, { dispatch, queryFulfilled, getCacheEntry }) {
        const previous = getCacheEntry().data;
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        // Phones changed state: lists, profiles and the dashboard show the new lock statuses once the batch settles.
        if (data && previous && batchProgress(previous).running && !batchProgress(data).running) dispatch(api.util.invalidateTags(tagsAfterDeviceChange()));
      },
    }),
    retryBatch: build.mutation<Batch, { batch_id: string }>({
      query: (body) => ({ url: '/api/device/multiple_lock_unlock/retry', method: 'POST', body }),
      extraOptions: { successKey: 'bulkLock.toast.retried' },
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) void dispatch(bulkLockApi.util.upsertQueryData('getBatch', data.id, data));
      },
    }),
  }),
});

export const { useGetLockCandidatesInfiniteQuery, useStartBatchMutation, useGetBatchQuery, useRetryBatchMutation } = bulkLockApi;
