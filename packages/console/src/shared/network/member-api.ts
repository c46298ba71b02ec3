/**
 * A network member's profile, images and key prices: read by the network screens, the payment QR screen and
 * the pricing screen, so they live here (features do not import each other).
 */
import type { BalanceType, MemberImageStored, MemberImageType, MemberProfile } from '@kisht/contract/network';
import { api } from '../api/api.ts';
import { blobOrError, forgetObjectUrl, rememberObjectUrl } from '../documents/documents-api.ts';

export interface MemberImageRef {
  /** Left out for the caller's own. */
  userId?: number;
  imageType: MemberImageType;
}
export const IMAGE_UPLOAD_PATHS: Record<MemberImageType, string> = {
  photo: '/api/user/update_profile_image',
  signature: '/api/user/update_retailer_signature',
  payment_qr: '/api/user/upload_retailer_qr',
};
export const memberImageKey = ({ userId, imageType }: MemberImageRef) => `member:${userId ?? 'me'}:${imageType}`;

export const memberApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** A member below the caller, or the caller itself without an id. */
    getMember: build.query<MemberProfile, number | undefined>({
      query: (userId) => (userId === undefined ? '/api/user' : { url: '/api/user/getRetailerProfile', params: { user_id: userId } }),
      providesTags: ['Network'],
    }),
    /** A retailer's image as an object URL (kept in the cache as a string; revoked when replaced or dropped). */
    getMemberImage: build.query<string, MemberImageRef>({
      query: ({ userId, imageType }) => ({ url: '/api/user/image', params: { ...(userId !== undefined ? { user_id: userId } : {}), image_type: imageType }, responseHandler: blobOrError }),
      transformResponse: (blob: Blob, _meta, ref) => rememberObjectUrl(memberImageKey(ref), blob),
      providesTags: (_result, _error, ref) => [{ type: 'MemberImage', id: memberImageKey(ref) }],
      async onCacheEntryAdded(ref, { cacheEntryRemoved }) {
        await cacheEntryRemoved;
        forgetObjectUrl(memberImageKey(ref));
      },
      // A missing image shows as "not uploaded", not as an error toast.
      extraOptions: { quiet: true },
    }),
    uploadMemberImage: build.mutation<MemberImageStored, MemberImageRef & { file: Blob; fileName: string }>({
      query: ({ userId, imageType, file, fileName }) => {
        const form = new FormData();
        // Fields before the file: the server reads the member before it streams the bytes.
        if (userId !== undefined) form.append('user_id', String(userId));
        form.append('file', file, fileName);
        return { url: IMAGE_UPLOAD_PATHS[imageType], method: 'POST', body: form };
      },
      invalidatesTags: (_result, error, ref) => (error ? [] : [{ type: 'MemberImage', id: memberImageKey(ref) }, 'Network']),
    }),
    /** Each product type with the caller's balance, the price per key its parent charges it and its own price to its children. */
    getBalanceTypes: build.query<BalanceType[], void>({
      query: () => '/api/points/balance_types',
      providesTags: ['Balance'],
    }),
  }),
});

export const { useGetMemberQuery, useGetMemberImageQuery, useUploadMemberImageMutation, useGetBalanceTypesQuery } = memberApi;
