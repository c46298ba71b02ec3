/** Customer documents: photo, signature, witness signature and invoice images, uploaded as multipart. */
import { Type, type Static } from 'typebox';

export const DOCUMENT_TYPES = ['photo', 'signature', 'witness_signature', 'invoice'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DocumentQuery = Type.Object({
  customer_id: Type.Integer({ minimum: 1 }),
  document_type: Type.Unsafe<DocumentType>({ type: 'string', enum: [...DOCUMENT_TYPES] }),
});
export type DocumentQuery = Static<typeof DocumentQuery>;

export const DocumentStored = Type.Object({ customer_id: Type.Integer(), document_type: Type.String(), content_type: Type.String(), bytes: Type.Integer() });
export type DocumentStored = Static<typeof DocumentStored>;
