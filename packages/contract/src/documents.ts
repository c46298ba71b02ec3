/** Customer documents: photo, signature, witness signature and invoice images, uploaded as multipart. */
import { Type, type Static } from 'typebox';
import { Id } from './fields.ts';

export const DOCUMENT_TYPES = ['photo', 'signature', 'witness_signature', 'invoice'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DocumentQuery = Type.Object({
  customer_id: Id,
  document_type: Type.Unsafe<DocumentType>({ type: 'string', enum: [...DOCUMENT_TYPES] }),
});
export type DocumentQuery = Static<typeof DocumentQuery>;

/**
 * The upload form (multipart/form-data), as the OpenAPI document shows it. The server reads it part by part
 * (documents.routes.ts), so this schema documents the body rather than validating it.
 */
export const DocumentUpload = Type.Object({
  customer_id: Id,
  file: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'A JPEG or PNG image of at most 5 MB' }),
}, { description: 'multipart/form-data: the customer_id field, then one file part' });

export const DocumentStored = Type.Object({ customer_id: Type.Integer(), document_type: Type.String(), content_type: Type.String(), bytes: Type.Integer() });
export type DocumentStored = Static<typeof DocumentStored>;
