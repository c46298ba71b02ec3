/**
 * A retailer's own images: photo, signature and payment QR, for itself or a member below it. The payment QR is
 * decoded on the server and kept only if it holds a UPI payment link; disguised files are refused; a member
 * never reaches its parent's, a sibling's or another branch's images.
 */
import QRCode from 'qrcode';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, ARJUN, RAVI, SUNITA, type TestApp } from './harness.ts';

let t: TestApp;
let ravi: { token: string; userId: number };
let sunita: { token: string; userId: number };
let arjun: { token: string; userId: number };

const png = (bytes: Buffer) => ({ name: 'image.png', type: 'image/png', bytes });
/** A QR code holding `text`, photographed a little small on a grey counter: drawn into a larger noisy frame. */
async function qrPhoto(text: string): Promise<Buffer> {
  const code = await QRCode.toBuffer(text, { type: 'png', width: 420, margin: 4 });
  return sharp({ create: { width: 900, height: 1200, channels: 3, background: { r: 190, g: 190, b: 185 } } })
    .composite([{ input: code, left: 240, top: 390 }])
    .png()
    .toBuffer();
}

beforeAll(async () => {
  t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 } });
  ravi = await t.signIn(RAVI);
  sunita = await t.signIn(SUNITA);
  arjun = await t.signIn(ARJUN);
});
afterAll(() => t.stop());

describe('payment QR', () => {
  it('reads the UPI address and name from the QR, keeps the image, and shows them on the profile', async () => {
    const res = await t.upload('/api/user/upload_retailer_qr', ravi.token, {}, png(await qrPhoto('upi://pay?pa=sharma.mobiles@okaxis&pn=Sharma%20Mobiles%20%26%20Repairs&cu=INR')));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ user_id: ravi.userId, image_type: 'payment_qr', upi_id: 'sharma.mobiles@okaxis', upi_name: 'Sharma Mobiles & Repairs' });
    const profile = (await t.get('/api/user', { token: ravi.token })).json().data;
    expect(profile).toMatchObject({ upi_id: 'sharma.mobiles@okaxis', upi_name: 'Sharma Mobiles & Repairs' });
    const image = await t.get('/api/user/image?image_type=payment_qr', { token: ravi.token });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect((await sharp(image.rawPayload).metadata()).height).toBeLessThanOrEqual(1600);
  });

  it('refuses a QR that is not a UPI payment link, and a picture with no QR, keeping the one it had', async () => {
    for (const bytes of [await qrPhoto('https://example.com/pay?pa=sharma@okaxis'), await qrPhoto('upi://pay?pn=NoAddress'), await sharp({ create: { width: 300, height: 300, channels: 3, background: '#ffffff' } }).png().toBuffer()]) {
      const res = await t.upload('/api/user/upload_retailer_qr', ravi.token, {}, png(bytes));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('QR_NOT_UPI');
    }
    expect((await t.get('/api/user', { token: ravi.token })).json().data.upi_id).toBe('sharma.mobiles@okaxis');
  });

  it('refuses a disguised file (415) and a broken image (400)', async () => {
    const text = await t.upload('/api/user/update_profile_image', ravi.token, {}, { name: 'photo.png', type: 'image/png', bytes: Buffer.from('<svg onload="alert(1)"></svg>') });
    expect(text.statusCode).toBe(415);
    const cut = await t.upload('/api/user/update_profile_image', ravi.token, {}, png((await qrPhoto('x')).subarray(0, 200)));
    expect(cut.statusCode).toBe(400);
    expect(cut.json().code).toBe('IMAGE_INVALID');
  });
});

describe("a member's images", () => {
  it('a parent uploads and reads its mini-retailer\'s signature; the mini-retailer reads its own', async () => {
    const signature = await sharp({ create: { width: 600, height: 200, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const res = await t.upload('/api/user/update_retailer_signature', ravi.token, { user_id: sunita.userId }, png(signature));
    expect(res.statusCode, res.body).toBe(200);
    expect((await t.get(`/api/user/image?image_type=signature&user_id=${sunita.userId}`, { token: ravi.token })).statusCode).toBe(200);
    expect((await t.get('/api/user/image?image_type=signature', { token: sunita.token })).statusCode).toBe(200);
    expect((await t.get(`/api/user/getRetailerProfile?user_id=${sunita.userId}`, { token: ravi.token })).json().data.has_signature).toBe(true);
    // Nothing uploaded yet: not found.
    expect((await t.get('/api/user/image?image_type=photo', { token: sunita.token })).statusCode).toBe(404);
  });

  it("never reaches a parent's, another branch's or another network's images", async () => {
    const image = png(await sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } }).png().toBuffer());
    // Sunita (mini-retailer) on Ravi (her parent); Arjun (another retailer) on Ravi and on Sunita.
    for (const [who, target] of [[sunita, ravi], [arjun, ravi], [arjun, sunita]] as const) {
      expect((await t.upload('/api/user/update_profile_image', who.token, { user_id: target.userId }, image)).statusCode).toBe(404);
      expect((await t.get(`/api/user/image?image_type=payment_qr&user_id=${target.userId}`, { token: who.token })).statusCode).toBe(404);
    }
  });
});
