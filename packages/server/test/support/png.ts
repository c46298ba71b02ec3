/** Test PNGs built byte by byte: a real image of one colour, or a header with whatever pixel data a test wants. */
import { crc32, deflateSync } from 'node:zlib';

/**
 * An 8-bit RGB PNG whose header says `width` x `height`, with `pixels` as its compressed image data (the truth or
 * not: a decompression bomb's shape declares a large image over almost no data).
 */
export function pngOf(width: number, height: number, pixels: Buffer): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

/** A real PNG of one colour (uploads are decoded and encoded again, so the bytes must be an image). */
export function solidPng(width: number, height: number, rgb: [number, number, number] = [200, 40, 40]): Buffer {
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  return pngOf(width, height, deflateSync(Buffer.concat(Array.from({ length: height }, () => row))));
}
