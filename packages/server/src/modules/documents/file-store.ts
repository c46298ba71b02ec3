/**
 * Customer images on disk, outside anything the server serves statically. Names are generated (never
 * the uploader's), folders are per organisation (customer_profile, customer_signature,
 * customer_invoice_attachment), and every path is checked to stay inside the store.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { DocumentType } from '../../contract/documents.ts';

export type ImageKind = { contentType: 'image/jpeg'; extension: 'jpg' } | { contentType: 'image/png'; extension: 'png' };

/** What the bytes are, whatever the file name or declared type says; null for anything but JPEG or PNG. */
export function sniffImage(bytes: Buffer): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { contentType: 'image/jpeg', extension: 'jpg' };
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return { contentType: 'image/png', extension: 'png' };
  return null;
}

const FOLDER: Record<DocumentType, string> = {
  photo: 'customer_profile',
  signature: 'customer_signature',
  witness_signature: 'customer_signature',
  invoice: 'customer_invoice_attachment',
};

export function createFileStore(root: string) {
  const base = path.resolve(root);
  function inside(relative: string): string {
    const full = path.resolve(base, relative);
    if (!full.startsWith(base + path.sep)) throw new Error('path escapes the file store');
    return full;
  }
  return {
    /** Writes the bytes under a fresh name and returns the path relative to the store. */
    async save(orgId: number, customerId: number, type: DocumentType, kind: ImageKind, bytes: Buffer): Promise<string> {
      const relative = path.join(String(orgId), FOLDER[type], `${customerId}-${type}-${randomBytes(8).toString('hex')}.${kind.extension}`);
      const full = inside(relative);
      await mkdir(path.dirname(full), { recursive: true });
      await writeFile(full, bytes, { mode: 0o600 });
      return relative;
    },
    read(relative: string): Promise<Buffer> {
      return readFile(inside(relative));
    },
    async remove(relative: string): Promise<void> {
      await rm(inside(relative), { force: true });
    },
  };
}
export type FileStore = ReturnType<typeof createFileStore>;
