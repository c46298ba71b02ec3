/**
 * Customer document uploads (multipart: customer_id and one JPEG or PNG file of at most 5 MB) and reads.
 * The content is sniffed, not trusted; the file lands outside the web root under a generated name.
 */
import { Type } from 'typebox';
import type { App } from '../../shared/types.ts';
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import { DocumentQuery, DocumentStored, DocumentUpload, type DocumentType } from '@kisht/contract/documents';
import { ok, sendStoredImage } from '../../shared/reply.ts';
import { readUpload } from '../../shared/multipart.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import type { DocumentsService } from './documents.service.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 413: ErrorReply, 415: ErrorReply, 511: ErrorReply };
const tags = ['documents'];
const security = [{ bearer: [] }];

const UPLOADS: Array<[string, DocumentType, string]> = [
  ['/api/customer/update_profile_image', 'photo', "Upload the customer's profile photo"],
  ['/api/customer/update_customer_signature', 'signature', "Upload the customer's signature"],
  ['/api/customer/update_witness_signature', 'witness_signature', "Upload the witness's signature (where the organisation uses it)"],
  ['/api/customer/update_customer_invoice', 'invoice', 'Upload the purchase invoice image'],
];

export async function documentsRoutes(app: App, opts: { documents: DocumentsService }) {
  const { documents } = opts;

  for (const [url, type, summary] of UPLOADS) {
    app.post(url, {
      config: { callers: SIGNED_IN, scope: 'account' },
      schema: { tags, security, summary: `${summary}: multipart with customer_id and file (JPEG or PNG, at most 5 MB)`, consumes: ['multipart/form-data'], body: DocumentUpload, response: { 200: Ok(DocumentStored), ...errors } },
      // The body schema is for the OpenAPI document: the body streams, and readUpload checks it part by part.
      validatorCompiler: () => () => true,
    }, async (request) => {
      const { id, file } = await readUpload(request, 'customer_id');
      return ok(request, await documents.store(authOf(request), id!, type, file), 'DOCUMENT_SAVED');
    });
  }

  app.get('/api/customer/customer_document', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: 'One document image of a customer of your network', querystring: DocumentQuery, produces: ['image/jpeg', 'image/png'], response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'JPEG or PNG bytes' }), ...errors } },
  }, async (request, reply) => {
    const image = await documents.read(authOf(request), request.query.customer_id, request.query.document_type);
    return sendStoredImage(reply, image, request.query.document_type);
  });
}
