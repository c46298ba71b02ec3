/**
 * The retailer network: the subtree list, profiles, adding and editing members, key transfers and decisions,
 * the key history and its CSV, and the caller's price per key. A member's profile, images and key balances
 * are in shared/network/member-api.ts (the payment QR and pricing screens read them too).
 */
import type {
  AddMemberBody, BalanceType, MemberImageStored, HistoryPage, HistoryQuery, KeyTransfer, MemberProfile, NetworkList, NetworkQuery, SchemeBody, TransferBody, UpdateMemberBody,
} from '@kisht/contract/network';
import { api } from '../../../shared/api/api.ts';
import type { CacheTag } from '../../../shared/api/cache-tags.ts';
import { nextPageParam, PAGE_SIZE } from '../../../shared/api/paging.ts';
import { IMAGE_UPLOAD_PATHS, memberImageKey } from '../../../shared/network/member-api.ts';

export type NetworkFilter = Pick<NetworkQuery, 'search' | 'user_type' | 'status'>;
export type HistoryFilter = Pick<HistoryQuery, 'user_id' | 'product_type' | 'from' | 'to'>;

/** A key movement changes balances everywhere they show: lists, profiles, histories, the dashboard's stock. */
const TAGS_AFTER_KEYS: CacheTag[] = ['Network', 'KeyHistory', 'Balance', 'Dashboard'];

/** Drops the filters left empty, so they are not sent as `?search=`. */
const present = <T extends object>(filter: T) => Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;

export const networkApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMembers: build.infiniteQuery<NetworkList, NetworkFilter, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (lastPage, allPages) => nextPageParam(lastPage, allPages) },
      query: ({ queryArg, pageParam }) => ({ url: '/api/country/getUsers', params: { ...present(queryArg), page: pageParam, limit: PAGE_SIZE } }),
      providesTags: ['Network'],
    }),
    addMember: build.mutation<MemberProfile, AddMemberBody>({
      query: (body) => ({ url: '/api/country/addUsers', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Network']),
    }),
    /** One row of a bulk add: no toast, the screen lists each row's outcome. */
    addMemberQuietly: build.mutation<MemberProfile, AddMemberBody>({
      query: (body) => ({ url: '/api/country/addUsers', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Network']),
      extraOptions: { quiet: true },
    }),
    updateMember: build.mutation<MemberProfile, UpdateMemberBody>({
      query: (body) => ({ url: '/api/country/updateUsers', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Network']),
    }),
    transferKeys: build.mutation<KeyTransfer, TransferBody>({
      query: (body) => ({ url: '/api/keys/transfer', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : TAGS_AFTER_KEYS),
    }),
    decideRequest: build.mutation<KeyTransfer, { transfer_id: string; decision: 'approve' | 'reject' }>({
      query: (body) => ({ url: '/api/keys/decide', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : TAGS_AFTER_KEYS),
    }),
    getKeyHistory: build.infiniteQuery<HistoryPage, HistoryFilter, number>({
      infiniteQueryOptions: { initialPageParam: 1, getNextPageParam: (lastPage, allPages) => nextPageParam(lastPage, allPages) },
      query: ({ queryArg, pageParam }) => ({ url: '/api/retailer/transaction/top_up_history', params: { ...present(queryArg), page: pageParam, limit: PAGE_SIZE } }),
      providesTags: ['KeyHistory'],
    }),
    /** The history as CSV text (the screen saves it as a file). */
    exportKeyHistory: build.mutation<string, HistoryFilter>({
      query: (filter) => ({ url: '/api/retailer/transaction/top_up_history/export', params: present(filter), responseHandler: 'text' }),
      extraOptions: { quietSuccess: true },
    }),
    /** The photo sent with a new member: the add's own message is the one shown. */
    uploadNewMemberPhoto: build.mutation<MemberImageStored, { userId: number; file: Blob; fileName: string }>({
      query: ({ userId, file, fileName }) => {
        const form = new FormData();
        form.append('user_id', String(userId));
        form.append('file', file, fileName);
        return { url: IMAGE_UPLOAD_PATHS.photo, method: 'POST', body: form };
      },
      invalidatesTags: (_result, error, { userId }) => (error ? [] : [{ type: 'MemberImage', id: memberImageKey({ userId, imageType: 'photo' }) }, 'Network']),
      extraOptions: { quietSuccess: true },
    }),
    setScheme: build.mutation<BalanceType[], SchemeBody>({
      query: (body) => ({ url: '/api/points/scheme', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Balance']),
    }),
  }),
});

export const {
  useGetMembersInfiniteQuery,
  useAddMemberMutation,
  useAddMemberQuietlyMutation,
  useUpdateMemberMutation,
  useTransferKeysMutation,
  useDecideRequestMutation,
  useGetKeyHistoryInfiniteQuery,
  useExportKeyHistoryMutation,
  useSetSchemeMutation,
  useUploadNewMemberPhotoMutation,
} = networkApi;
