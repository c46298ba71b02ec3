/**
 * Customer document uploads (multipart: customer_id and one JPEG or PNG file of at most 5 MB) and reads.
 * The content is sniffed, not trusted; the file lands outside the web root under a generated name.
 */
import type { MultipartFile } from '@fastify/multipart';
import { Type } from 'typebox';
import { FILE_SIZE_LIMIT_BYTES } from '@kisht/domain/constants';
import type { App } from '../../shared/types.ts';
import { ErrorReply, Ok } from '../../contract/envelope.ts';
import { DocumentQuery, DocumentStored, type DocumentType } from '../../contract/documents.ts';
import { ok } from '../../shared/reply.ts';
import { authOf } from '../../plugins/route-config.ts';
import { AppError } from '../../errors.ts';
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
      schema: { tags, security, summary: `${summary}: multipart with customer_id and file (JPEG or PNG, at most 5 MB)`, consumes: ['multipart/form-data'], response: { 200: Ok(DocumentStored), ...errors } },
    }, async (request) => {
      let customerId: number | null = null;
      let file: Buffer | null = null;
      const parts = request.parts({ limits: { fileSize: FILE_SIZE_LIMIT_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 64 } });
      for await (const part of parts) {
        if (part.type === 'file') file = await (part as MultipartFile).toBuffer();
        else if (part.fieldname === 'customer_id') customerId = Number(part.value);
      }
      if (!customerId || !Number.isInteger(customerId) || customerId < 1 || !file) {
        throw new AppError('VALIDATION_FAILED', { details: [{ field: customerId ? 'file' : 'customer_id', message: 'is required', rule: 'required' }] });
      }
      return ok(request, await documents.store(authOf(request), customerId, type, file), 'DOCUMENT_SAVED');
    });
  }

  app.get('/api/customer/customer_document', {
    schema: { tags, security, summary: 'One document image of a customer of your network', querystring: DocumentQuery, produces: ['image/jpeg', 'image/png'], response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'JPEG or PNG bytes' }), ...errors } },
  }, async (request, reply) => {
    const image = await documents.read(authOf(request), request.query.customer_id, request.query.document_type);
    return reply
      .type(image.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'private, max-age=300')
      .header('content-disposition', `inline; filename="${request.query.document_type}.${image.contentType === 'image/png' ? 'png' : 'jpg'}"`)
      .send(image.bytes);
  });
}
