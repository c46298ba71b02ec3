/**
 * Extended warranty (decision 021): the plans with their rules (kept 5 s like every plan query), selling one, the
 * sales list 20 at a time, one sale, its certificate in a language, revoking it; claim photos, claims and their
 * moves; and a financed customer's plans for the customer details screen. A sale, a revoke, a claim and a move all
 * go out as the `warranty` event too, so other sessions follow (shared/api/server-events.ts).
 */
import type { Language } from '@kisht/domain/constants';
import type {
  CustomerPlans, RaiseClaimBody, RevokeWarrantyBody, SellWarrantyBody, TransitionClaimBody, WarrantyCertificate, WarrantyClaim, WarrantyPage,
  WarrantyPhotoStored, WarrantyPlan, WarrantySale, WarrantySold,
} from '@kisht/contract/warranty';
import { api, CACHE_FOR } from '../../../shared/api/api.ts';
import type { CacheTag } from '../../../shared/api/cache-tags.ts';
import { nextPageParam, PAGE_SIZE } from '../../../shared/api/paging.ts';
import { blobOrError, forgetObjectUrl, rememberObjectUrl } from '../../../shared/documents/documents-api.ts';
import type { SalesListArg } from '../hooks/sales.ts';

const BASE = '/api/customer/extended_warranty';

/** A sale or a revoke moves a key (used, or given back): the sales, the key stock and its history, the dashboard's stock. */
const TAGS_AFTER_SALE: CacheTag[] = ['Warranty', 'Balance', 'Network', 'KeyHistory', 'Dashboard'];

export interface CertificateArg {
  saleId: number;
  /** null: the server's choice (the linked customer's language, else the retailer's). */
  lng: Language | null;
}

export interface ClaimPhotoArg {
  saleId: number;
  file: Blob;
  fileName: string;
}

const photoKey = (photoId: number) => `warranty-photo:${photoId}`;

export const warrantyApi = api.injectEndpoints({
  endpoints: (build) => ({
    getWarrantyPlans: build.query<WarrantyPlan[], void>({
      query: () => '/api/customer/get_plans_warranty',
      keepUnusedDataFor: CACHE_FOR.plans,
    }),
    /** Success toast: the server's message; the screen then shows the sale with its certificate. */
    sellWarranty: build.mutation<WarrantySold, SellWarrantyBody>({
      query: (body) => ({ url: BASE, method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : TAGS_AFTER_SALE),
    }),
    getWarrantySales: build.infiniteQuery<WarrantyPage, SalesListArg, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (lastPage, allPages) => nextPageParam(lastPage, allPages) },
      query: ({ queryArg, pageParam }) => ({ url: BASE, params: { ...queryArg, page: pageParam, limit: PAGE_SIZE } }),
      providesTags: ['Warranty'],
    }),
    getWarrantySale: build.query<WarrantySale, number>({
      query: (saleId) => ({ url: `${BASE}/readById`, params: { sale_id: saleId } }),
      providesTags: ['Warranty'],
      // A sale that is not there shows as such on the screen, not as a toast too.
      extraOptions: { quiet: true },
    }),
    revokeWarranty: build.mutation<WarrantySale, RevokeWarrantyBody>({
      query: (body) => ({ url: `${BASE}/revoke`, method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : TAGS_AFTER_SALE),
    }),
    getWarrantyCertificate: build.query<WarrantyCertificate, CertificateArg>({
      query: ({ saleId, lng }) => ({ url: `${BASE}/certificate`, params: lng ? { sale_id: saleId, lng } : { sale_id: saleId } }),
      providesTags: ['Warranty'],
      extraOptions: { quiet: true },
    }),
    /** One photo for a claim on the sale, uploaded as soon as it is picked (a refused claim keeps its photos for the next try). */
    uploadClaimPhoto: build.mutation<WarrantyPhotoStored, ClaimPhotoArg>({
      query: ({ saleId, file, fileName }) => {
        const form = new FormData();
        // The sale before the file: the server checks it before it streams the bytes.
        form.append('sale_id', String(saleId));
        form.append('file', file, fileName);
        return { url: `${BASE}/claims/photo`, method: 'POST', body: form };
      },
      // The claim says the outcome once; a refused photo still shows its error.
      extraOptions: { quietSuccess: true },
    }),
    /** A stored claim photo as an object URL (fetched with the session headers), revoked when the cache entry goes. */
    getClaimPhoto: build.query<string, number>({
      query: (photoId) => ({ url: `${BASE}/claims/photo`, params: { photo_id: photoId }, responseHandler: blobOrError }),
      transformResponse: (blob: Blob, _meta, photoId) => rememberObjectUrl(photoKey(photoId), blob),
      async onCacheEntryAdded(photoId, { cacheEntryRemoved }) {
        await cacheEntryRemoved;
        forgetObjectUrl(photoKey(photoId));
      },
      extraOptions: { quiet: true },
    }),
    raiseClaim: build.mutation<WarrantyClaim, RaiseClaimBody>({
      query: (body) => ({ url: `${BASE}/claims`, method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Warranty']),
    }),
    getWarrantyClaims: build.query<WarrantyClaim[], number>({
      query: (saleId) => ({ url: `${BASE}/claims`, params: { sale_id: saleId } }),
      providesTags: ['Warranty'],
    }),
    transitionClaim: build.mutation<WarrantyClaim, TransitionClaimBody>({
      query: (body) => ({ url: `${BASE}/claims/transition`, method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Warranty']),
    }),
    getCustomerPlans: build.query<CustomerPlans, number>({
      query: (customerId) => ({ url: '/api/customer/plans', params: { customer_id: customerId } }),
      providesTags: ['Warranty', 'Antihacking'],
    }),
  }),
});

export const {
  useGetWarrantyPlansQuery,
  useSellWarrantyMutation,
  useGetWarrantySalesInfiniteQuery,
  useGetWarrantySaleQuery,
  useRevokeWarrantyMutation,
  useGetWarrantyCertificateQuery,
  useUploadClaimPhotoMutation,
  useGetClaimPhotoQuery,
  useRaiseClaimMutation,
  useGetWarrantyClaimsQuery,
  useTransitionClaimMutation,
  useGetCustomerPlansQuery,
} = warrantyApi;
