/**
 * What the locked phone shows about paying: the shop's UPI ID is the one its Payment QR screen (or the operator)
 * set, in a `upi://pay` link apps read; and the outcome of the customer's latest "I paid" (open, confirmed, or
 * rejected with the shop's reason) comes with every check-in answer while the phone is locked.
 */
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockScreen } from '@kisht/protocol/messages';
import { startDeviceApp } from './device-fixtures.ts';
import { RAVI, SUNITA } from './harness.ts';
import type { Enrolled } from './phone.ts';
import { runOperatorCommand } from '../src/modules/operator/operator.service.ts';

let ctx: Awaited<ReturnType<typeof startDeviceApp>>;
let sunita = '';

beforeAll(async () => {
  ctx = await startDeviceApp();
  sunita = (await ctx.t.signIn(SUNITA)).token;
});
afterAll(() => ctx.t.stop());

/** A customer of the caller with one instalment due yesterday, its phone enrolled and locked by the retailer. */
async function lockedPhone(token = ctx.ravi): Promise<{ customerId: number; device: Enrolled }> {
  const { f, t } = ctx;
  const customer = await f.customer({ token });
  const res = await f.enrolDevice({ token: await f.qrToken(customer.id, token), imei1: customer.imei1 });
  expect(res.statusCode, res.body).toBe(200);
  await t.db.query(
    `UPDATE emi_instalments SET due_date = (now() AT TIME ZONE 'Asia/Kolkata')::date - 1
      WHERE id = (SELECT id FROM emi_instalments WHERE customer_id = $1 ORDER BY due_date LIMIT 1)`,
    [customer.id],
  );
  const lock = await t.post('/api/device/lock', { customer_id: customer.id }, { token });
  expect(lock.statusCode, lock.body).toBe(200);
  return { customerId: customer.id, device: res.json().data as Enrolled };
}

/** The lock screen the phone's next check-in brings. */
async function screenAtCheckIn(device: Enrolled): Promise<LockScreen> {
  const res = await ctx.f.checkIn(device, { locked: true });
  expect(res.statusCode, res.body).toBe(200);
  const desired = res.json().data.desired as { locked: boolean; lock_screen: LockScreen };
  expect(desired.locked).toBe(true);
  return desired.lock_screen;
}

const uploadQr = async (token: string, link: string) =>
  ctx.t.upload('/api/user/upload_retailer_qr', token, {}, { name: 'qr.png', type: 'image/png', bytes: await QRCode.toBuffer(link, { type: 'png', width: 420, margin: 4 }) });

describe("the shop's UPI ID on the lock screen", () => {
  it('is the one set on Payment QR, then the one the operator sets, in a link UPI apps read', async () => {
    const { device } = await lockedPhone();
    const uploaded = await uploadQr(ctx.ravi, 'upi://pay?pa=sharma.mobiles@okaxis&pn=Sharma%20Mobiles%20%26%20Repairs&cu=INR');
    expect(uploaded.statusCode, uploaded.body).toBe(200);

    const screen = await screenAtCheckIn(device);
    const params = new URLSearchParams(screen.upi!.slice(screen.upi!.indexOf('?') + 1));
    expect(screen.upi).toMatch(/^upi:\/\/pay\?pa=sharma\.mobiles@okaxis&pn=Sharma%20Mobiles%20%26%20Repairs&tn=EMI%20Device%20Owner\d+&am=\d+\.\d\d&cu=INR$/);
    expect(screen.upi).not.toContain('+');
    expect(Number(params.get('am')) * 100).toBe(screen.amount_due);
    // A payment to a person's address carries no reference of ours (apps take one as a merchant payment).
    expect(params.has('tr')).toBe(false);

    // The operator's command writes the same place: the phone and the Payment QR screen both follow it.
    const lines: string[] = [];
    expect(await runOperatorCommand(ctx.t.db, ['upi', RAVI, 'ravi.counter@okicici'], (line) => lines.push(line))).toBe(0);
    expect((await screenAtCheckIn(device)).upi).toMatch(/^upi:\/\/pay\?pa=ravi\.counter@okicici&pn=Ravi%20/);
    const profile = (await ctx.t.get('/api/user', { token: ctx.ravi })).json().data;
    expect(profile).toMatchObject({ upi_id: 'ravi.counter@okicici', upi_name: null });

    expect(await runOperatorCommand(ctx.t.db, ['upi', RAVI, '.bad@ok'], (line) => lines.push(line))).toBe(1);
    expect(await runOperatorCommand(ctx.t.db, ['upi', RAVI, 'none'], (line) => lines.push(line))).toBe(0);
    expect((await screenAtCheckIn(device)).upi).toBeNull();
  });

  it("uses the selling retailer's own UPI ID: a mini-retailer's customers pay the mini-retailer", async () => {
    expect((await uploadQr(sunita, 'upi://pay?pa=sunita.phones@ybl&pn=Sunita%20Phones&cu=INR')).statusCode).toBe(200);
    const { device } = await lockedPhone(sunita);
    expect((await screenAtCheckIn(device)).upi).toMatch(/^upi:\/\/pay\?pa=sunita\.phones@ybl&pn=Sunita%20Phones&/);
  });
});

describe('the outcome of "I paid" on the lock screen', () => {
  const press = (device: Enrolled, body: Record<string, unknown>) =>
    ctx.t.post('/api/device/payment_claim', body, { emm: false, headers: { authorization: ctx.f.basic(device) } });
  const decide = (body: Record<string, unknown>, token = ctx.ravi) => ctx.t.post('/api/payments/claims/decide', body, { token });

  it('comes with the check-in: waiting for the shop, then rejected with its reason', async () => {
    const { device } = await lockedPhone();
    expect((await screenAtCheckIn(device)).claim).toBeNull();

    const claim = (await press(device, { amount_paise: 50_000, reference: 'UTR5566778899' })).json().data;
    expect(await screenAtCheckIn(device)).toMatchObject({ claim: { status: 'open', amount_paise: 50_000, reason: null, at: expect.any(String) } });

    const rejected = await decide({ id: claim.id, decision: 'reject', reason: '  No such payment \u202e in my    account ' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().data).toMatchObject({ status: 'rejected', reason: 'No such payment in my account' });
    expect((await screenAtCheckIn(device)).claim).toEqual({ status: 'rejected', amount_paise: 50_000, reason: 'No such payment in my account', at: rejected.json().data.decided_at });
  });

  it('says confirmed while the phone is still locked; a reason too long is refused; old claims are left out', async () => {
    const { customerId, device } = await lockedPhone();
    const claim = (await press(device, { amount_paise: 10_000 })).json().data;
    expect((await decide({ id: claim.id, decision: 'reject', reason: 'x'.repeat(201) })).statusCode).toBe(400);
    expect((await decide({ id: claim.id, decision: 'confirm', amount_paise: 8_000 })).statusCode).toBe(200);
    expect((await screenAtCheckIn(device)).claim).toMatchObject({ status: 'confirmed', amount_paise: 8_000, reason: null });

    await ctx.t.db.query("UPDATE payment_claims SET created_at = now() - interval '8 days' WHERE customer_id = $1", [customerId]);
    expect((await screenAtCheckIn(device)).claim).toBeNull();
  });
});
