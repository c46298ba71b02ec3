/**
 * A retailer's own images: photo, signature and payment QR, for the caller itself or a member below it (a
 * parent, a sibling or another branch is NOT_FOUND). Images are sniffed and re-encoded like customer documents;
 * a payment QR is kept only if it holds a UPI payment link, whose address and name are kept with it.
 */
import type { MemberImageStored, MemberImageType } from '@kisht/contract/network';
import { parseUpiLink } from '@kisht/domain/upi';
import { AppError } from '../../errors.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import { normaliseImage, readQrCode, sniffImage, type FileStore } from '../documents/file-store.ts';
import type { Notify } from '../events/events.bus.ts';
import type { MemberImageColumn, NetworkRepository, NodeRow } from './network.repository.ts';

const COLUMN: Record<MemberImageType, MemberImageColumn> = { photo: 'photo_path', signature: 'signature_path', payment_qr: 'payment_qr_path' };

export function createMemberImagesService(deps: { network: NetworkRepository; files: FileStore; notify?: Notify }) {
  const { network, files } = deps;

  /** The caller (no id, or its own) or a member below it. */
  async function whose(caller: RequestAuth, userId: number | null): Promise<NodeRow> {
    const me = await network.node(caller.userId);
    if (!me) throw new AppError('NOT_FOUND');
    if (userId === null || userId === me.id) return me;
    const node = await network.nodeUnder(me.path, userId);
    if (!node) throw new AppError('NOT_FOUND');
    return node;
  }

  return {
    async store(caller: RequestAuth, userId: number | null, type: MemberImageType, bytes: Buffer): Promise<MemberImageStored> {
      const member = await whose(caller, userId);
      const kind = sniffImage(bytes);
      if (!kind) throw new AppError('UNSUPPORTED_FILE');
      const image = await normaliseImage(bytes, kind, `member_${type}`);
      if (!image.ok) throw new AppError(image.reason === 'too_large' ? 'IMAGE_TOO_LARGE' : 'IMAGE_INVALID');
      let upi: { vpa: string; name: string | null } | undefined;
      if (type === 'payment_qr') {
        upi = parseUpiLink((await readQrCode(image.bytes)) ?? '') ?? undefined;
        if (!upi) throw new AppError('QR_NOT_UPI');
      }
      const relative = await files.save(member.org_id, member.id, `member_${type}`, kind, image.bytes);
      let previous: string | null;
      try {
        previous = await network.setImage(member.id, COLUMN[type], relative, upi);
      } catch (error) {
        await files.remove(relative); // nothing points at it: leave no stray file behind
        throw error;
      }
      if (previous) await files.remove(previous);
      deps.notify?.({ type: 'network', user_ids: [member.id] });
      return { user_id: member.id, image_type: type, content_type: kind.contentType, bytes: image.bytes.length, upi_id: upi?.vpa ?? null, upi_name: upi?.name ?? null };
    },

    async read(caller: RequestAuth, userId: number | null, type: MemberImageType): Promise<{ contentType: string; bytes: Buffer }> {
      const member = await whose(caller, userId);
      const relative = await network.imagePath(member.id, COLUMN[type]);
      if (!relative) throw new AppError('NOT_FOUND');
      const bytes = await files.read(relative).catch(() => null);
      const kind = bytes ? sniffImage(bytes) : null;
      if (!bytes || !kind) throw new AppError('NOT_FOUND');
      return { contentType: kind.contentType, bytes };
    },
  };
}
export type MemberImagesService = ReturnType<typeof createMemberImagesService>;
