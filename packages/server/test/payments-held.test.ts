/**
 * Held gateway orders after review (decision 015): listed with their reason and what the gateway reported, then
 * recorded through the ledger once (the amount received, or as corrected) or marked refunded; only within the
 * caller's scope, so another network's or a sibling's order id answers 404 like one that does not exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { addMonths } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { startTestApp, RAVI, SUNITA, ARJUN, MEENA, type TestApp } from './harness.ts';
import { FAKE_KEY_ID, FAKE_KEY_SECRET, FAKE_WEBHOOK_SECRET, startFakeRazorpay, type FakeRazorpay } from './support/fake-razorpay.ts';

let t: TestApp;
let fake: FakeRazorpay;
let ravi: string;
let sunita: string;
let arjun: string;
let meena: string;
let imeiSeq = 41_000_000;
const today = todayInIndia();

beforeAll(async () => {
  fake = await startFakeRazorpay();
  t = await startTestApp({
    limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 },
    env: {
      PAYMENT_GATEWAY: 'razorpay', RAZORPAY_BASE_URL: fake.baseUrl, RAZORPAY_KEY_ID: FAKE_KEY_ID, RAZORPAY_KEY_SECRET: FAKE_KEY_SECRET,
      RAZORPAY_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET, PAYMENT_RECONCILE_SECONDS: '0', PAYMENT_RECONCILE_AFTER_MINUTES: '0',
    },
  });
  fake.setSink(async (body, headers) => (await t.app.inject({ method: 'POST', url: '/api/payments/webhook/razorpay', headers, payload: body })).statusCode);
  [ravi, sunita, arjun, meena] = [(await t.signIn(RAVI)).token, (await t.signIn(SUNITA)).token, (await t.signIn(ARJUN)).token, (await t.signIn(MEENA)).token];
  await t.db.query(`UPDATE organizations SET features = features || '{"payment_gateway": true}' WHERE id = 23`);
});
afterAll(async () => {
  await t.stop();
  await fake.close();
});

/** A 0% loan of Rs 12,000 over 6 months, two instalments of Rs 2,000 due. */
async function enrol(token: string) {
  const products = (await t.get('/api/products', { token })).json().data as Array<{ id: number; product_type: number }>;
  const start = addMonths(today, -2);
  const res = await t.post('/api/customer', {
    first_name: 'Held', last_name: `Payer${imeiSeq}`, mobile: '+919812300000', device_brand: 'Vivo', device_model: 'Y28',
    imei1: withImeiCheckDigit(`86${String(imeiSeq++).padStart(12, '0')}`), provisioning_type: 0,
    product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 1_400_000, down_payment_paise: 200_000,
    annual_rate_bps: 0, interest_method: 'flat', tenure_months: 6, start_date: start, first_due_date: addMonths(start, 1),
  }, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.customer as { id: number };
}

/** An order for `amount` paid at the gateway as `paid` says, applied: held. */
async function heldOrder(token: string, customerId: number, amount: number, paid: { amount?: number; currency?: string }) {
  const res = await t.post('/api/payments/customer_order', { customer_id: customerId, amount_paise: amount }, { token });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().data.id as string;
  await fake.pay(id, paid);
  await t.services.payments.drain();
  return id;
}

const resolve = (body: Record<string, unknown>, token = ravi) => t.post('/api/payments/orders/resolve', body, { token });
const ledger = async (customerId: number) =>
  (await t.db.query<{ amount_paise: number; method: string; reference: string | null }>(`SELECT amount_paise, method, reference FROM payments WHERE customer_id = $1 AND kind = 'payment'`, [customerId])).rows;

describe('a held gateway order', () => {
  it('is listed with its reason and what was received, and is recorded through the ledger once', async () => {
    const c = await enrol(ravi);
    const id = await heldOrder(ravi, c.id, 150_000, { amount: 120_000 });
    const held = (await t.get('/api/payments/orders?status=held', { token: ravi })).json().data.items as Array<Record<string, unknown>>;
    expect(held.find((o) => o.id === id)).toMatchObject({ status: 'held', held_reason: 'AMOUNT_MISMATCH', amount_paise: 150_000, received_paise: 120_000, received_currency: 'INR', resolved_at: null });
    const gatewayPayment = (await t.db.query<{ gateway_payment_id: string }>('SELECT gateway_payment_id FROM payment_orders WHERE id = $1', [id])).rows[0]!.gateway_payment_id;

    // Two reviewers at once: one records, the other finds it resolved.
    const answers = await Promise.all([resolve({ id, action: 'record' }), resolve({ id, action: 'record' })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().code).toBe('ORDER_NOT_HELD');
    const recorded = answers.find((a) => a.statusCode === 200)!.json().data;
    expect(recorded).toMatchObject({ id, status: 'paid', held_reason: 'AMOUNT_MISMATCH', received_paise: 120_000, receipt_no: expect.stringMatching(/^RCP-/), resolved_at: expect.any(String) });
    expect(await ledger(c.id)).toEqual([{ amount_paise: 120_000, method: 'upi', reference: gatewayPayment }]);
    for (const action of ['record', 'refund']) expect((await resolve({ id, action })).json().code).toBe('ORDER_NOT_HELD');
    expect(await ledger(c.id)).toHaveLength(1);
  });

  it('paid in another currency needs the amount received in rupees, or is marked refunded and credits nothing', async () => {
    const c = await enrol(ravi);
    const odd = await heldOrder(ravi, c.id, 100_000, { currency: 'USD' });
    const noAmount = await resolve({ id: odd, action: 'record' });
    expect(noAmount.statusCode).toBe(400);
    expect(noAmount.json().details[0]).toMatchObject({ field: 'amount_paise' });
    const corrected = await resolve({ id: odd, action: 'record', amount_paise: 80_000 });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(await ledger(c.id)).toEqual([expect.objectContaining({ amount_paise: 80_000 })]);

    const short = await heldOrder(ravi, c.id, 50_000, { amount: 100 });
    const refunded = await resolve({ id: short, action: 'refund' });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json().data).toMatchObject({ status: 'refunded', held_reason: 'AMOUNT_MISMATCH', receipt_no: null });
    expect(await ledger(c.id)).toHaveLength(1);
    expect((await t.get('/api/payments/orders?status=refunded', { token: ravi })).json().data.items.map((o: { id: string }) => o.id)).toContain(short);
  });

  it("answers 404 to another network, a sibling's mini-retailer and an unknown id, changing nothing", async () => {
    const c = await enrol(ravi);
    const id = await heldOrder(ravi, c.id, 150_000, { amount: 1_000 });
    for (const token of [sunita, arjun, meena]) {
      for (const action of ['record', 'refund']) {
        const res = await resolve({ id, action }, token);
        expect(res.statusCode, `${action}`).toBe(404);
        expect(res.json().code).toBe('NOT_FOUND');
        expect(res.body).not.toContain('Held');
      }
    }
    expect((await resolve({ id: 'po_AAAAAAAAAAAAAAAAAAAA', action: 'refund' })).statusCode).toBe(404);
    expect((await resolve({ id: 'not-an-order', action: 'refund' })).statusCode).toBe(400);
    expect((await t.db.query('SELECT status FROM payment_orders WHERE id = $1', [id])).rows[0]).toEqual({ status: 'held' });
    expect(await ledger(c.id)).toEqual([]);

    // A mini-retailer's own customer's held order is hers to resolve (and her parent's).
    const hers = await enrol(sunita);
    const herOrder = await heldOrder(sunita, hers.id, 150_000, { amount: 2_000 });
    expect((await resolve({ id: herOrder, action: 'record' }, sunita)).statusCode).toBe(200);
    expect((await resolve({ id: herOrder, action: 'refund' }, ravi)).json().code).toBe('ORDER_NOT_HELD');
  });
});
