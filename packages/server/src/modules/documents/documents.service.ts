/** Storing and reading customer images, for customers of the caller's network only. */
import { AppError } from '../../errors.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import type { DocumentStored, DocumentType } from '@kisht/contract/documents';
import type { CustomersService } from '../customers/customers.service.ts';
import type { CustomersRepository } from '../customers/customers.repository.ts';
import type { OrgRepository } from '../config/org.repository.ts';
import { normaliseImage, sniffImage, type FileStore } from './file-store.ts';

const COLUMN = { photo: 'photo_path', signature: 'signature_path', witness_signature: 'witness_signature_path', invoice: 'invoice_path' } as const;

export function createDocumentsService(deps: { customers: CustomersService; repository: CustomersRepository; orgs: OrgRepository; files: FileStore }) {
  const { customers, repository, files } = deps;
  return {
    async store(caller: RequestAuth, customerId: number, type: DocumentType, bytes: Buffer): Promise<DocumentStored> {
      const customer = await customers.visible(caller, customerId);
      if (type === 'witness_signature' && !(await deps.orgs.findById(caller.orgId))?.features.witness_signature) throw new AppError('FEATURE_OFF');
      const kind = sniffImage(bytes);
      if (!kind) throw new AppError('UNSUPPORTED_FILE');
      // Only the decoded and re-encoded pixels are kept: never the upload's own bytes, EXIF or trailing data.
      const image = await normaliseImage(bytes, kind, type);
      if (!image.ok) throw new AppError(image.reason === 'too_large' ? 'IMAGE_TOO_LARGE' : 'IMAGE_INVALID');
      const relative = await files.save(caller.orgId, customer.id, type, kind, image.bytes);
      let previous: string | null;
      try {
        previous = await repository.setDocument(caller.accountId, customer.id, COLUMN[type], relative);
      } catch (error) {
        await files.remove(relative); // nothing points at it: leave no stray file behind
        throw error;
      }
      if (previous) await files.remove(previous);
      return { customer_id: customer.id, document_type: type, content_type: kind.contentType, bytes: image.bytes.length };
    },

    async read(caller: RequestAuth, customerId: number, type: DocumentType): Promise<{ contentType: string; bytes: Buffer }> {
      const customer = await customers.visible(caller, customerId);
      if (type === 'witness_signature' && !(await deps.orgs.findById(caller.orgId))?.features.witness_signature) throw new AppError('NOT_FOUND');
      const relative = customer[COLUMN[type]];
      if (!relative) throw new AppError('NOT_FOUND');
      const bytes = await files.read(relative).catch(() => null);
      const kind = bytes ? sniffImage(bytes) : null;
      if (!bytes || !kind) throw new AppError('NOT_FOUND');
      return { contentType: kind.contentType, bytes };
    },
  };
}
export type DocumentsService = ReturnType<typeof createDocumentsService>;
