/**
 * Customer and retailer images on disk, outside anything the server serves statically. Names are generated
 * (never the uploader's), folders are per organisation (customer_profile, customer_signature,
 * customer_invoice_attachment, retailer_profile, retailer_signature, retailer_qr, warranty_claim_photo, ad_creative), and every path is checked to stay inside the store. What is stored is
 * never the uploaded file itself: the image is decoded and encoded again (normaliseImage), so only real
 * pixels land on disk, without EXIF (GPS, camera, owner), and no larger than the document needs.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type SharpModule from 'sharp';
import type { Metadata } from 'sharp';
import type { DocumentType } from '@kisht/contract/documents';
import type { MemberImageType } from '@kisht/contract/network';

/** What an image is stored as: a customer document, a retailer's own photo, signature or payment QR, or a warranty claim's photo. */
export type ImageSlot = DocumentType | `member_${MemberImageType}` | 'warranty_photo' | 'ad_creative';

/**
 * The image library, loaded on the first upload rather than at start (it is a tenth of the server's start-up
 * time and most starts never see an image). Each upload is decoded once; keeping decoded images in memory
 * would only hold on to customers' photos, so its cache is off.
 */
let imageLibrary: Promise<{ default: typeof SharpModule }> | undefined;
function loadSharp(): Promise<{ default: typeof SharpModule }> {
  imageLibrary ??= import('sharp').then((module) => {
    module.default.cache(false);
    return module;
  });
  return imageLibrary;
}

export type ImageKind = { contentType: 'image/jpeg'; extension: 'jpg' } | { contentType: 'image/png'; extension: 'png' };

/** What the bytes are, whatever the file name or declared type says; null for anything but JPEG or PNG. */
export function sniffImage(bytes: Buffer): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { contentType: 'image/jpeg', extension: 'jpg' };
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return { contentType: 'image/png', extension: 'png' };
  return null;
}

/** What an upload may be: pixels declared by its header, and the longest side kept per document type. */
export const IMAGE_LIMITS = {
  /** About a 48-megapixel camera's full frame; anything bigger is refused before it is decoded. */
  maxInputPixels: 50_000_000,
  longestSide: {
    photo: 2048, invoice: 2048, signature: 1024, witness_signature: 1024, member_photo: 1024, member_signature: 1024,
    // A printed UPI QR photographed on a phone still reads at this size.
    member_payment_qr: 1600,
    warranty_photo: 2048,
    // An offer's picture, as the specification asks: at most 1200 x 1200, quality 0.8.
    ad_creative: 1200,
  } satisfies Record<ImageSlot, number>,
  jpegQuality: 85,
  jpegQualityOf: { ad_creative: 80 } as Partial<Record<ImageSlot, number>>,
  timeoutSeconds: 20,
};

export type NormalisedImage = { ok: true; bytes: Buffer; width: number; height: number } | { ok: false; reason: 'invalid' | 'too_large' };

/**
 * Decodes the upload as the format its first bytes claim and encodes it again in that format: turned
 * upright by its EXIF orientation, then stripped of every metadata block, and shrunk to the document's
 * longest side. Anything that does not decode as that format (a disguised or broken file, a polyglot's
 * other half) is `invalid`; a header declaring more pixels than allowed (a decompression bomb) is
 * `too_large`, refused before any pixel is decoded.
 */
export async function normaliseImage(bytes: Buffer, kind: ImageKind, type: ImageSlot): Promise<NormalisedImage> {
  const { default: sharp } = await loadSharp();
  const options = { limitInputPixels: IMAGE_LIMITS.maxInputPixels, failOn: 'error', sequentialRead: true } as const;
  let header: Metadata;
  try {
    header = await sharp(bytes, options).metadata();
  } catch (error) {
    return { ok: false, reason: tooManyPixels(error) ? 'too_large' : 'invalid' };
  }
  if (header.format !== (kind.extension === 'jpg' ? 'jpeg' : 'png') || !header.width || !header.height) return { ok: false, reason: 'invalid' };
  if (header.width * header.height > IMAGE_LIMITS.maxInputPixels) return { ok: false, reason: 'too_large' };
  const side = IMAGE_LIMITS.longestSide[type];
  try {
    const pipeline = sharp(bytes, options)
      .timeout({ seconds: IMAGE_LIMITS.timeoutSeconds })
      .rotate()
      .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true });
    const encoded = kind.extension === 'jpg' ? pipeline.jpeg({ quality: IMAGE_LIMITS.jpegQualityOf[type] ?? IMAGE_LIMITS.jpegQuality, mozjpeg: true }) : pipeline.png({ compressionLevel: 9 });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { ok: true, bytes: data, width: info.width, height: info.height };
  } catch (error) {
    return { ok: false, reason: tooManyPixels(error) ? 'too_large' : 'invalid' };
  }
}

/** libvips refuses an image over limitInputPixels from its header, before decoding it. */
const tooManyPixels = (error: unknown) => /exceeds pixel limit/i.test(String(error));

const FOLDER: Record<ImageSlot, string> = {
  photo: 'customer_profile',
  signature: 'customer_signature',
  witness_signature: 'customer_signature',
  invoice: 'customer_invoice_attachment',
  member_photo: 'retailer_profile',
  member_signature: 'retailer_signature',
  member_payment_qr: 'retailer_qr',
  warranty_photo: 'warranty_claim_photo',
  ad_creative: 'ad_creative',
};

export function createFileStore(root: string) {
  const base = path.resolve(root);
  function inside(relative: string): string {
    const full = path.resolve(base, relative);
    if (!full.startsWith(base + path.sep)) throw new Error('path escapes the file store');
    return full;
  }
  return {
    /** Writes the bytes under a fresh name and returns the path relative to the store; `ownerId` is the customer's or the user's. */
    async save(orgId: number, ownerId: number, type: ImageSlot, kind: ImageKind, bytes: Buffer): Promise<string> {
      const relative = path.join(String(orgId), FOLDER[type], `${ownerId}-${type}-${randomBytes(8).toString('hex')}.${kind.extension}`);
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

/** The text of the QR code in an image (already normalised), or null when none can be read. */
export async function readQrCode(bytes: Buffer): Promise<string | null> {
  const [{ default: sharp }, { default: jsQR }] = await Promise.all([loadSharp(), import('jsqr')]);
  const { data, info } = await sharp(bytes, { failOn: 'error' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const found = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height);
  return found?.data ?? null;
}
