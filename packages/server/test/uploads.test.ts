/** Uploaded images are decoded and encoded again: EXIF (GPS) gone, sides capped, disguised files and bombs refused with nothing written. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmmAuthSession } from '@kisht/domain/emm-auth';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { startTestApp, RAVI, CONSOLE_HEADERS, type TestApp } from './harness.ts';
import { pngOf } from './support/png.ts';

const root = mkdtempSync(path.join(tmpdir(), 'kisht-uploads-'));
let t: TestApp;
let token: string;
let customerId: number;

type Upload = { name: string; type: string; bytes: Buffer };

async function upload(url: string, file: Upload, cookie?: string) {
  const boundary = `----kishtuploads${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="customer_id"\r\n\r\n${customerId}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const org = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { org: number }).org;
  return t.app.inject({
    method: 'POST', url, payload: body,
    headers: {
      ...CONSOLE_HEADERS, 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}`,
      'x-emm-auth-session': await createEmmAuthSession(url, org), ...(cookie ? { cookie } : {}),
    },
  });
}

/** Every file under the store, with its path relative to it. */
function storedFiles(): string[] {
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as Array<{ isFile(): boolean; parentPath: string; name: string }>)
    .filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name))).sort();
}
const newestFile = (before: string[]) => storedFiles().filter((f) => !before.includes(f));

/** A noisy photo (so the encoder has something to keep), with GPS and camera EXIF. */
async function cameraJpeg(width: number, height: number, orientation = 1): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .withExifMerge({
      IFD0: { Make: 'SecretCam', Model: 'Spy 9000', Artist: 'Ravi Kumar' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '26/1 54/1 3/1', GPSLongitudeRef: 'E', GPSLongitude: '75/1 47/1 12/1' },
    })
    .withMetadata({ orientation })
    .toBuffer();
}

/** A PNG whose header declares `width` x `height` with almost no data behind it (a decompression bomb's shape). */
function declaredPng(width: number, height: number): Buffer {
  return pngOf(width, height, Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]));
}

beforeAll(async () => {
  t = await startTestApp({ env: { UPLOAD_DIR: root } });
  token = (await t.signIn(RAVI)).token;
  const products = (await t.get('/api/products', { token })).json().data as Array<{ id: number; product_type: number }>;
  const created = await t.post('/api/customer', {
    first_name: 'Upload', last_name: 'Check', mobile: '+919812300088', device_brand: 'Vivo', device_model: 'Y28', imei1: withImeiCheckDigit('35222222222222'),
    provisioning_type: 0, product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 900_000, down_payment_paise: 0,
    annual_rate_bps: 0, interest_method: 'flat', tenure_months: 3, first_due_date: '2030-01-05', start_date: '2029-12-05',
  }, { token });
  expect(created.statusCode, created.body).toBe(200);
  customerId = created.json().data.customer.id;
});
afterAll(async () => {
  await t.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('what is stored', () => {
  it('a camera JPEG comes back without EXIF or GPS, upright, and no longer than 2048 px', async () => {
    const original = await cameraJpeg(3000, 2000, 6); // orientation 6: the camera was turned a quarter
    const metaIn = await sharp(original).metadata();
    expect(metaIn.orientation).toBe(6);
    expect(metaIn.exif?.includes(Buffer.from('SecretCam'))).toBe(true);
    expect(metaIn.exif?.includes(Buffer.from('GPS')) || metaIn.exif?.includes(Buffer.from('N\0'))).toBe(true);

    const before = storedFiles();
    const res = await upload('/api/customer/update_profile_image', { name: 'IMG_0001.jpg', type: 'image/jpeg', bytes: original });
    expect(res.statusCode, res.body).toBe(200);
    const [file] = newestFile(before);
    const stored = readFileSync(path.join(root, file!));
    expect(res.json().data).toMatchObject({ content_type: 'image/jpeg', bytes: stored.length });

    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation ?? 1).toBe(1);
    // Turned upright before the orientation tag went: 3000x2000 lying down is 2000x3000 standing, capped at 2048.
    expect([meta.width, meta.height]).toEqual([1365, 2048]);
    for (const secret of ['SecretCam', 'Spy 9000', 'Ravi Kumar', 'GPS']) expect(stored.includes(Buffer.from(secret)), secret).toBe(false);

    const served = await t.get(`/api/customer/customer_document?customer_id=${customerId}&document_type=photo`, { token });
    expect(served.statusCode).toBe(200);
    expect(Buffer.compare(served.rawPayload, stored)).toBe(0);
  });

  it('caps a signature at 1024 px, keeps it a PNG, and never enlarges a small image', async () => {
    const wide = await sharp({ create: { width: 3000, height: 600, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
    const before = storedFiles();
    expect((await upload('/api/customer/update_customer_signature', { name: 'sign.png', type: 'image/png', bytes: wide })).statusCode).toBe(200);
    const signature = await sharp(readFileSync(path.join(root, newestFile(before)[0]!))).metadata();
    expect([signature.format, signature.width, signature.height, signature.hasAlpha]).toEqual(['png', 1024, 205, true]);

    const small = await cameraJpeg(320, 200);
    const again = storedFiles();
    expect((await upload('/api/customer/update_customer_invoice', { name: 'bill.jpg', type: 'image/jpeg', bytes: small })).statusCode).toBe(200);
    const invoice = await sharp(readFileSync(path.join(root, newestFile(again)[0]!))).metadata();
    expect([invoice.width, invoice.height, invoice.exif]).toEqual([320, 200, undefined]);
  });

  it('keeps only the pixels of a polyglot: a real JPEG with a page appended', async () => {
    const page = Buffer.from('<html><script>alert(document.cookie)</script></html>');
    const polyglot = Buffer.concat([await cameraJpeg(200, 200), page]);
    const before = storedFiles();
    expect((await upload('/api/customer/update_profile_image', { name: 'x.jpg', type: 'image/jpeg', bytes: polyglot })).statusCode).toBe(200);
    const stored = readFileSync(path.join(root, newestFile(before)[0]!));
    expect(stored.includes(Buffer.from('<script>'))).toBe(false);
  });
});

describe('what is refused, with nothing written', () => {
  const photoPath = async () => (await t.db.query<{ photo_path: string | null }>('SELECT photo_path FROM customers WHERE id = $1', [customerId])).rows[0]!.photo_path;

  const disguised: Array<[string, Buffer, number, string]> = [
    ['an HTML page named .jpg', Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>'), 415, 'UNSUPPORTED_FILE'],
    ['an SVG named .jpg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>'), 415, 'UNSUPPORTED_FILE'],
    ['a PDF named .jpg', Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n%%EOF'), 415, 'UNSUPPORTED_FILE'],
    ['text behind JPEG magic bytes', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<html><script>alert(1)</script></html>'), Buffer.from([0xff, 0xd9])]), 400, 'IMAGE_INVALID'],
    ['noise behind PNG magic bytes', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(600, 1)]), 400, 'IMAGE_INVALID'],
    ['a decompression bomb (a PNG declaring 30000 x 30000)', declaredPng(30_000, 30_000), 400, 'IMAGE_TOO_LARGE'],
  ];

  for (const [what, bytes, status, code] of disguised) {
    it(`refuses ${what}`, async () => {
      const before = storedFiles();
      const kept = await photoPath();
      const res = await upload('/api/customer/update_profile_image', { name: 'photo.jpg', type: 'image/jpeg', bytes });
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().code).toBe(code);
      expect(storedFiles()).toEqual(before);
      expect(await photoPath()).toBe(kept);
    });
  }

  it('a PNG sent as image/jpeg is judged by its bytes (kept as a PNG), and a JPEG whose pixels do not fit is refused', async () => {
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#123456' } }).png().toBuffer();
    const res = await upload('/api/customer/update_profile_image', { name: 'photo.jpg', type: 'image/jpeg', bytes: png });
    expect(res.json().data?.content_type).toBe('image/png');

    // A real JPEG header declaring 10000 x 10000 (100 MP): refused before decoding.
    const huge = await cameraJpeg(16, 16);
    const sof = huge.indexOf(Buffer.from([0xff, 0xc0]));
    expect(sof).toBeGreaterThan(0);
    const bomb = Buffer.from(huge);
    bomb.writeUInt16BE(10_000, sof + 5);
    bomb.writeUInt16BE(10_000, sof + 7);
    const before = storedFiles();
    const refused = await upload('/api/customer/update_profile_image', { name: 'big.jpg', type: 'image/jpeg', bytes: bomb });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('IMAGE_TOO_LARGE');
    expect(storedFiles()).toEqual(before);
  });

  it('says why in the caller\'s language', async () => {
    const res = await upload('/api/customer/update_profile_image', { name: 'photo.jpg', type: 'image/jpeg', bytes: declaredPng(30_000, 30_000) }, 'i18next=hn');
    expect(res.json().code).toBe('IMAGE_TOO_LARGE');
    expect(res.json().message).toMatch(/[\u0900-\u097F]/);
    const en = await upload('/api/customer/update_profile_image', { name: 'photo.jpg', type: 'image/jpeg', bytes: declaredPng(30_000, 30_000) });
    expect(en.json().message).not.toBe(res.json().message);
  });
});
