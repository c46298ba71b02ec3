/**
 * Photos and scans are shrunk in the browser before upload (specification, section 5): at most
 * 1200 x 1200 pixels keeping proportions, quality 0.8, JPEG stays JPEG and PNG stays PNG. The size
 * maths is pure; shrinkImage is the canvas wrapper around it.
 */
import { FILE_SIZE_LIMIT_BYTES, IMAGE_MAX_PX, IMAGE_QUALITY } from '@kisht/domain/constants';

export type ImageType = 'image/jpeg' | 'image/png';

export interface Size {
  width: number;
  height: number;
}

/** The largest size within max x max with the same proportions; never enlarges; at least 1 x 1. */
export function fitWithin(size: Size, max: number = IMAGE_MAX_PX): Size {
  const { width, height } = size;
  if (!(width > 0) || !(height > 0)) throw new RangeError(`An image needs a positive size, got ${width} x ${height}`);
  const scale = Math.min(1, max / width, max / height);
  if (scale === 1) return { width, height };
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** JPEG for JPEG input, PNG for PNG input; null for anything else (not accepted). */
export function outputTypeFor(mime: string): ImageType | null {
  const type = mime.toLowerCase();
  if (type === 'image/jpeg' || type === 'image/jpg' || type === 'image/pjpeg') return 'image/jpeg';
  if (type === 'image/png') return 'image/png';
  return null;
}

/** The upload limit (5 MB), checked before anything is sent. */
export function isWithinUploadLimit(bytes: number): boolean {
  return bytes <= FILE_SIZE_LIMIT_BYTES;
}

/** A file name for the shrunk image: the original stem with the output type's extension. */
export function shrunkFileName(original: string, type: ImageType): string {
  const stem = original.replace(/\.[^./\\]*$/, '') || 'image';
  return `${stem}.${type === 'image/png' ? 'png' : 'jpg'}`;
}

export class UnsupportedImageError extends Error {
  constructor(readonly mime: string) {
    super(`Only JPEG and PNG images are accepted, got ${mime || 'an unknown type'}`);
    this.name = 'UnsupportedImageError';
  }
}

async function decode(file: Blob): Promise<{ source: CanvasImageSource; size: Size; close(): void }> {
  if (typeof createImageBitmap === 'function') {
    try {
      // from-image applies the camera's EXIF rotation, so portrait photos stay upright.
      const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
      return { source: bitmap, size: { width: bitmap.width, height: bitmap.height }, close: () => bitmap.close() };
    } catch {
      // Older WebViews do not know the option: an <img> (which applies EXIF rotation since Chrome 81) does.
    }
  }
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    return { source: img, size: { width: img.naturalWidth, height: img.naturalHeight }, close: () => undefined };
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Re-encodes a JPEG or PNG within 1200 x 1200 at quality 0.8 (this also drops EXIF data such as GPS). */
export async function shrinkImage(file: Blob, max: number = IMAGE_MAX_PX, quality: number = IMAGE_QUALITY): Promise<Blob> {
  const type = outputTypeFor(file.type);
  if (!type) throw new UnsupportedImageError(file.type);
  const image = await decode(file);
  try {
    const target = fitWithin(image.size, max);
    const canvas = document.createElement('canvas');
    canvas.width = target.width;
    canvas.height = target.height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('This browser cannot draw images');
    if (type === 'image/jpeg') {
      // JPEG has no transparency: paint white under it rather than black.
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, target.width, target.height);
    }
    context.imageSmoothingQuality = 'high';
    context.drawImage(image.source, 0, 0, target.width, target.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The image could not be encoded'))), type, quality),
    );
  } finally {
    image.close();
  }
}
