/**
 * Offers to customers' phones (send_advertisement, decision 029): the picture, making a campaign, the campaigns
 * with their results, one campaign's phones, stopping one, the organisation's rules, and the customers to choose
 * from. The `campaign` stream event (a campaign started, phones reached or opened, finished) invalidates the
 * `Campaign` tag, so an open screen's progress and results move by themselves (shared/api/server-events.ts).
 */
import type { AdCreative, AdSettings, Campaign, CampaignBody, CampaignList, CampaignTargets } from '@kisht/contract/ads';
import type { CustomerList, CustomerListQuery } from '@kisht/contract/customers';
import { api } from '../../../shared/api/api.ts';
import { nextMorePage, nextPageParam, PAGE_SIZE } from '../../../shared/api/paging.ts';
import { blobOrError, forgetObjectUrl, rememberObjectUrl } from '../../../shared/documents/documents-api.ts';
import type { TargetFilter } from '../hooks/campaign-outcomes.ts';

/** The customer list's filters, as the audience picker and the filter audience's count read it. */
export type AudienceQuery = Pick<CustomerListQuery, 'status' | 'search' | 'lock_status'>;

export interface CreativeArg {
  file: Blob;
  fileName: string;
}

export interface TargetsArg {
  campaignId: number;
  state: TargetFilter;
}

/** Campaigns and phones per page. */
export const CAMPAIGN_PAGE_SIZE = 10;
export const TARGET_PAGE_SIZE = 50;

/** Only the server's own picture address is fetched with the session (a campaign's image_url). */
export const isCreativeImagePath = (url: string) => url.startsWith('/api/ads/creative_image?');

const imageKey = (url: string) => `ad-creative:${url}`;

export const adsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The picture, uploaded as soon as it is picked; the campaign names it. The campaign's toast says the outcome once. */
    uploadCreative: build.mutation<AdCreative, CreativeArg>({
      query: ({ file, fileName }) => {
        const form = new FormData();
        form.append('file', file, fileName);
        return { url: '/api/ads/creative', method: 'POST', body: form };
      },
      extraOptions: { quietSuccess: true },
    }),
    /** A stored picture as an object URL (fetched with the session headers), revoked when the cache entry goes. */
    getCreativeImage: build.query<string, string>({
      query: (url) => ({ url, responseHandler: blobOrError }),
      transformResponse: (blob: Blob, _meta, url) => rememberObjectUrl(imageKey(url), blob),
      async onCacheEntryAdded(url, { cacheEntryRemoved }) {
        await cacheEntryRemoved;
        forgetObjectUrl(imageKey(url));
      },
      extraOptions: { quiet: true },
    }),
    getAdSettings: build.query<AdSettings, void>({
      query: () => '/api/ads/settings',
      // The rules card says it could not load them; no toast over the form.
      extraOptions: { quiet: true },
    }),
    /** Success toast: the server's message (CAMPAIGN_CREATED); the screen then shows the campaign's progress. */
    createCampaign: build.mutation<Campaign, CampaignBody>({
      query: (body) => ({ url: '/api/ads/campaigns', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Campaign']),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) void dispatch(adsApi.util.upsertQueryData('getCampaign', data.id, data));
      },
    }),
    /** Newest first; the server says whether more pages follow. */
    getCampaigns: build.infiniteQuery<CampaignList, void, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (lastPage) => nextMorePage(lastPage) },
      query: ({ pageParam }) => ({ url: '/api/ads/campaigns', params: { page: pageParam, limit: CAMPAIGN_PAGE_SIZE } }),
      providesTags: ['Campaign'],
      extraOptions: { quiet: true },
    }),
    getCampaign: build.query<Campaign, number>({
      query: (campaignId) => ({ url: '/api/ads/campaign', params: { campaign_id: campaignId } }),
      providesTags: ['Campaign'],
      // A campaign that is not there shows as such on the screen, not as a toast too.
      extraOptions: { quiet: true },
    }),
    /** One campaign's phones with what became of each offer, under a state filter. */
    getCampaignTargets: build.infiniteQuery<CampaignTargets, TargetsArg, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (lastPage) => nextMorePage(lastPage) },
      query: ({ queryArg, pageParam }) => ({
        url: '/api/ads/campaign_targets',
        params: { campaign_id: queryArg.campaignId, ...(queryArg.state === 'all' ? {} : { state: queryArg.state }), page: pageParam, limit: TARGET_PAGE_SIZE },
      }),
      providesTags: ['Campaign'],
      extraOptions: { quiet: true },
    }),
    /** Success toast: CAMPAIGN_CANCELLED; a campaign that has gone out already answers CAMPAIGN_FINISHED. */
    cancelCampaign: build.mutation<Campaign, { campaign_id: number }>({
      query: (body) => ({ url: '/api/ads/campaign_cancel', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Campaign']),
    }),
    /** The customer list under the audience's filters (the same route and pages as the customer list). */
    getAudienceCustomers: build.infiniteQuery<CustomerList, AudienceQuery, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (lastPage, allPages) => nextPageParam(lastPage, allPages) },
      query: ({ queryArg, pageParam }) => ({ url: '/api/customer/get_customers_keygen', params: { ...queryArg, page: pageParam, limit: PAGE_SIZE } }),
      providesTags: ['CustomerList'],
    }),
  }),
});

export const {
  useUploadCreativeMutation,
  useGetCreativeImageQuery,
  useGetAdSettingsQuery,
  useCreateCampaignMutation,
  useGetCampaignsInfiniteQuery,
  useGetCampaignQuery,
  useGetCampaignTargetsInfiniteQuery,
  useCancelCampaignMutation,
  useGetAudienceCustomersInfiniteQuery,
} = adsApi;
