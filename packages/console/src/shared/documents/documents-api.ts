/**
 * Customer documents: the image of each (photo, signature, witness signature, invoice) and their
 * multipart uploads. Used by enrolment, the documents screens and the customer details, so they live here.
 *
 * An image arrives as bytes and is kept in the cache as an object URL (a string, so the store stays
 * serialisable). The URL is revoked when a newer image replaces it and when the cache entry goes.
 */
import type { DocumentStored, DocumentType } from '@kisht/contract/documents';
import { api } from '../api/api.ts';
import { documentTagId } from '../api/cache-tags.ts';
import { keepServerMessage, type WithServerMessage } from '../api/server-message.ts';

export type { DocumentType };

export interface DocumentRef {
  customerId: number;
  documentType: DocumentType;
}

export interface UploadDocumentArgs extends DocumentRef {
  file: Blob;
  fileName: string;
}

export const UPLOAD_PATHS: Record<DocumentType, string> = {
  photo: '/api/customer/update_profile_image',
  signature: '/api/customer/update_customer_signature',
  witness_signature: '/api/customer/update_witness_signature',
  invoice: '/api/customer/update_customer_invoice',
};

const objectUrls = new Map<string, string>();

/** Keeps an image's object URL under a key, revoking the one it replaces (retailer images use it too). */
export function rememberObjectUrl(key: string, blob: Blob): string {
  const previous = objectUrls.get(key);
  if (previous) URL.revokeObjectURL(previous);
  const url = URL.createObjectURL(blob);
  objectUrls.set(key, url);
  return url;
}

export function forgetObjectUrl(key: string): void {
  const url = objectUrls.get(key);
  if (url) URL.revokeObjectURL(url);
  objectUrls.delete(key);
}

/** Image bytes on success; the JSON envelope (or text) on failure, so the error still has its code. */
export async function blobOrError(response: Response): Promise<unknown> {
  if (response.ok) return response.blob();
  const type = response.headers.get('content-type') ?? '';
  return type.includes('json') ? response.json() : response.text();
}

export const documentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCustomerDocument: build.query<string, DocumentRef>({
      query: ({ customerId, documentType }) => ({
        url: '/api/customer/customer_document',
        params: { customer_id: customerId, document_type: documentType },
        responseHandler: blobOrError,
      }),
      transformResponse: (blob: Blob, _meta, { customerId, documentType }) =>
        rememberObjectUrl(documentTagId(customerId, documentType), blob),
      providesTags: (_result, _error, { customerId, documentType }) => [{ type: 'Document', id: documentTagId(customerId, documentType) }],
      async onCacheEntryAdded({ customerId, documentType }, { cacheEntryRemoved }) {
        await cacheEntryRemoved;
        forgetObjectUrl(documentTagId(customerId, documentType));
      },
      // A missing image shows as "not uploaded" on the screen, not as an error toast.
      extraOptions: { quiet: true },
    }),
    uploadDocument: build.mutation<WithServerMessage<DocumentStored>, UploadDocumentArgs>({
      query: ({ customerId, documentType, file, fileName }) => {
        const form = new FormData();
        // Fields before the file: the server reads the customer before it streams the bytes.
        form.append('customer_id', String(customerId));
        form.append('file', file, fileName);
        return { url: UPLOAD_PATHS[documentType], method: 'POST', body: form };
      },
      invalidatesTags: (_result, error, { customerId, documentType }) =>
        error ? [] : [{ type: 'Document', id: documentTagId(customerId, documentType) }, { type: 'Customer', id: customerId }],
      // The screens show the server's message once, after all the uploads of one action.
      transformResponse: (data: DocumentStored, meta) => keepServerMessage(data, meta),
      extraOptions: { quietSuccess: true },
    }),
  }),
});

export const { useGetCustomerDocumentQuery, useUploadDocumentMutation } = documentsApi;
