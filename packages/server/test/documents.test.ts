import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createEmmAuthSession } from '@kisht/domain/emm-auth';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { FILE_SIZE_LIMIT_BYTES } from '@kisht/domain/constants';
import { startTestApp, RAVI, MEENA, CONSOLE_HEADERS, type TestApp } from './harness.ts';
import { runOperatorCommand } from '../src/modules/operator/operator.service.ts';

const uploads = mkdtempSync(path.join(tmpdir(), 'kisht-uploads-'));
let t: TestApp;
let ravi: Awaited<ReturnType<TestApp['signIn']>>;
let meena: Awaited<ReturnType<TestApp['signIn']>>;
let customerId: number;

// Real images: uploads are decoded and encoded again, so bytes that only look like an image are refused.
const JPEG = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } }).jpeg().toBuffer();
const PNG = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#ffffff' } }).png().toBuffer();

function multipart(fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }) {
  const boundary = `----kisht${Date.now()}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    chunks.push(file.bytes, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(url: string, token: string, fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }) {
  const { body, contentType } = multipart(fields, file);
  return t.app.inject({
    method: 'POST', url, payload: body,
    headers: { ...CONSOLE_HEADERS, 'content-type': contentType, authorization: `Bearer ${token}`, 'x-emm-auth-session': await createEmmAuthSession(url, JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).org) },
  });
}

beforeAll(async () => {
  t = await startTestApp({ env: { UPLOAD_DIR: uploads }, limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 } });
  ravi = await t.signIn(RAVI);
  meena = await t.signIn(MEENA);
  const products = (await t.get('/api/products', { token: ravi.token })).json().data as Array<{ id: number; product_type: number }>;
  customerId = (await t.post('/api/customer', {
    first_name: 'Photo', last_name: 'Test', mobile: '+919812300009', device_brand: 'Oppo', device_model: 'A78', imei1: withImeiCheckDigit('35111111111111'),
    provisioning_type: 0, product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 900_000, down_payment_paise: 0,
    annual_rate_bps: 0, interest_method: 'flat', tenure_months: 3, first_due_date: '2030-01-05', start_date: '2029-12-05',
  }, { token: ravi.token })).json().data.customer.id;
});
afterAll(async () => {
  await t.stop();
  rmSync(uploads, { recursive: true, force: true });
});

describe('customer documents', () => {
  it('stores a JPEG photo and a PNG signature outside the web root and serves them back to the network', async () => {
    const photo = await upload('/api/customer/update_profile_image', ravi.token, { customer_id: String(customerId) }, { name: 'me.jpg', type: 'image/jpeg', bytes: JPEG });
    expect(photo.statusCode).toBe(200);
    expect(photo.json().data).toEqual({ customer_id: customerId, document_type: 'photo', content_type: 'image/jpeg', bytes: expect.any(Number) });
    const sign = await upload('/api/customer/update_customer_signature', ravi.token, { customer_id: String(customerId) }, { name: 'sign.png', type: 'image/png', bytes: PNG });
    expect(sign.statusCode).toBe(200);
    const back = await t.get(`/api/customer/customer_document?customer_id=${customerId}&document_type=photo`, { token: ravi.token });
    expect(back.statusCode).toBe(200);
    expect(back.headers['content-type']).toBe('image/jpeg');
    expect(back.headers['x-content-type-options']).toBe('nosniff');
    // What is served is what was stored: the upload encoded again, still the same picture.
    const stored = readdirSync(path.join(uploads, '23', 'customer_profile'));
    expect(stored).toHaveLength(1);
    expect(Buffer.compare(back.rawPayload, readFileSync(path.join(uploads, '23', 'customer_profile', stored[0]!)))).toBe(0);
    expect(await sharp(back.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 64, height: 48 });
    const profile = (await t.get(`/api/country/getCustomerProfile?customer_id=${customerId}`, { token: ravi.token })).json().data;
    expect(profile).toMatchObject({ has_photo: true, has_signature: true, has_invoice: false });
  });

  it('replaces a document and removes the old file', async () => {
    await upload('/api/customer/update_customer_invoice', ravi.token, { customer_id: String(customerId) }, { name: 'a.jpg', type: 'image/jpeg', bytes: JPEG });
    await upload('/api/customer/update_customer_invoice', ravi.token, { customer_id: String(customerId) }, { name: 'b.png', type: 'image/png', bytes: PNG });
    expect(readdirSync(path.join(uploads, '23', 'customer_invoice_attachment'))).toHaveLength(1);
    expect((await t.get(`/api/customer/customer_document?customer_id=${customerId}&document_type=invoice`, { token: ravi.token })).headers['content-type']).toBe('image/png');
  });

  it('refuses disguised files whatever their name and declared type', async () => {
    for (const bytes of [Buffer.from('<html><script>alert(1)</script></html>'), Buffer.from('%PDF-1.4 ...'), Buffer.from('GIF89a......')]) {
      const res = await upload('/api/customer/update_profile_image', ravi.token, { customer_id: String(customerId) }, { name: 'photo.jpg', type: 'image/jpeg', bytes });
      expect(res.statusCode).toBe(415);
      expect(res.json().code).toBe('UNSUPPORTED_FILE');
    }
  });

  it('refuses files over 5 MB and keeps nothing of them', async () => {
    const big = Buffer.concat([JPEG.subarray(0, 4), Buffer.alloc(FILE_SIZE_LIMIT_BYTES, 1)]);
    const before = readdirSync(path.join(uploads, '23', 'customer_profile')).length;
    const res = await upload('/api/customer/update_profile_image', ravi.token, { customer_id: String(customerId) }, { name: 'big.jpg', type: 'image/jpeg', bytes: big });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
    expect(readdirSync(path.join(uploads, '23', 'customer_profile'))).toHaveLength(before);
  });

  it('needs the customer id and the file', async () => {
    expect((await upload('/api/customer/update_profile_image', ravi.token, {}, { name: 'a.jpg', type: 'image/jpeg', bytes: JPEG })).statusCode).toBe(400);
    expect((await upload('/api/customer/update_profile_image', ravi.token, { customer_id: '../../etc' }, { name: 'a.jpg', type: 'image/jpeg', bytes: JPEG })).statusCode).toBe(400);
    expect((await upload('/api/customer/update_profile_image', ravi.token, { customer_id: String(customerId) })).statusCode).toBe(400);
  });

  it("keeps another network out: no upload, no read", async () => {
    expect((await upload('/api/customer/update_profile_image', meena.token, { customer_id: String(customerId) }, { name: 'x.jpg', type: 'image/jpeg', bytes: JPEG })).statusCode).toBe(404);
    expect((await t.get(`/api/customer/customer_document?customer_id=${customerId}&document_type=photo`, { token: meena.token })).statusCode).toBe(404);
  });

  it('takes a witness signature only where the organisation uses witnesses', async () => {
    const off = await upload('/api/customer/update_witness_signature', ravi.token, { customer_id: String(customerId) }, { name: 'w.png', type: 'image/png', bytes: PNG });
    expect(off.statusCode).toBe(403);
    await runOperatorCommand(t.db, ['feature', '23', 'witness_signature', 'on'], () => undefined);
    expect((await upload('/api/customer/update_witness_signature', ravi.token, { customer_id: String(customerId) }, { name: 'w.png', type: 'image/png', bytes: PNG })).statusCode).toBe(200);
  });
});
