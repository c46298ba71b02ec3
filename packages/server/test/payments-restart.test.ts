/**
 * A webhook answered 2xx is applied even when the node stops before applying it: the event is in the database
 * before the answer, and the next node to start (here: the same data, a new server) applies it once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { addMonths } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { buildApp, type BuiltApp } from '../src/app.ts';
import { startTestApp, RAVI, type TestApp } from './harness.ts';
import { FAKE_KEY_ID, FAKE_KEY_SECRET, FAKE_WEBHOOK_SECRET, startFakeRazorpay, type FakeRazorpay } from './support/fake-razorpay.ts';

let t: TestApp;
let fake: FakeRazorpay;
let restarted: BuiltApp | undefined;
const WEBHOOK = '/api/payments/webhook/razorpay';

beforeAll(async () => {
  fake = await startFakeRazorpay();
  t = await startTestApp({
    limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 },
    // This node stores events and never applies them: as if it died right after answering.
    env: {
      PAYMENT_GATEWAY: 'razorpay', RAZORPAY_BASE_URL: fake.baseUrl, RAZORPAY_KEY_ID: FAKE_KEY_ID, RAZORPAY_KEY_SECRET: FAKE_KEY_SECRET,
      RAZORPAY_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET, PAYMENT_EVENTS_SECONDS: '0', PAYMENT_RECONCILE_SECONDS: '0',
    },
  });
  await t.db.query(`UPDATE organizations SET features = features || '{"payment_gateway": true}' WHERE id = 23`);
});
afterAll(async () => {
  await restarted?.close();
  await t.stop();
  await fake.close();
});

it('applies once after a restart the events a stopped node answered 2xx and stored', async () => {
  const { token } = await t.signIn(RAVI);
  const today = todayInIndia();
  const products = (await t.get('/api/products', { token })).json().data as Array<{ id: number; product_type: number }>;
  const start = addMonths(today, -1);
  const enrolled = await t.post('/api/customer', {
    first_name: 'Restart', last_name: 'Payer', mobile: '+919812300000', device_brand: 'Vivo', device_model: 'Y28',
    imei1: withImeiCheckDigit('86777000000001'), provisioning_type: 0, product_id: products.find((p) => p.product_type === 0)!.id,
    price_paise: 1_400_000, down_payment_paise: 200_000, annual_rate_bps: 0, interest_method: 'flat', tenure_months: 6, start_date: start, first_due_date: addMonths(start, 1),
  }, { token });
  expect(enrolled.statusCode, enrolled.body).toBe(200);
  const customerId = enrolled.json().data.customer.id as number;
  const created = await t.post('/api/payments/customer_order', { customer_id: customerId }, { token });
  expect(created.statusCode, created.body).toBe(200);
  const orderId = created.json().data.id as string;

  fake.setSink(async (body, headers) => (await t.app.inject({ method: 'POST', url: WEBHOOK, headers, payload: body })).statusCode);
  const { statuses } = await fake.pay(orderId);
  expect(statuses).toEqual([200, 200, 200]);
  const stored = async () => (await t.db.query<{ applied: boolean }>('SELECT applied_at IS NOT NULL AS applied FROM payment_gateway_events ORDER BY id')).rows;
  expect(await stored()).toEqual([{ applied: false }, { applied: false }, { applied: false }]);
  const payments = async () => (await t.db.query(`SELECT 1 FROM payments WHERE customer_id = $1 AND kind = 'payment'`, [customerId])).rows.length;
  expect(await payments()).toBe(0);

  // The node stops; a new one starts on the same database with its worker on.
  await t.close();
  restarted = await buildApp({ ...t.config, PAYMENT_EVENTS_SECONDS: 5 }, { db: t.db, secret: t.secret });
  await expect.poll(async () => (await t.db.query<{ status: string }>('SELECT status FROM payment_orders WHERE id = $1', [orderId])).rows[0]!.status, { timeout: 10_000 }).toBe('paid');
  expect(await payments()).toBe(1);
  // Razorpay retries what it thinks was lost: still one payment.
  const again = fake.sent[1]!;
  const res = await restarted.app.inject({ method: 'POST', url: WEBHOOK, headers: again.headers, payload: again.body });
  expect([res.statusCode, res.json().data.stored]).toEqual([200, false]);
  await restarted.services.payments.drain();
  expect(await payments()).toBe(1);
  expect((await stored()).every((e) => e.applied)).toBe(true);
});
