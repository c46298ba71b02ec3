/**
 * Payments through the gateway, end to end on a real server and database, with only Razorpay replaced by the
 * local fake of its documented API (test/support/fake-razorpay.ts): orders for dues and keys, signed webhooks
 * applied once whatever their number and order, amounts compared with our order, reconciliation when the
 * gateway's webhooks are lost or it is down, and tenancy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { addDays, addMonths } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { startTestApp, RAVI, SUNITA, ARJUN, MEENA, type TestApp } from './harness.ts';
import { deviceFixtures } from './device-fixtures.ts';
import { FAKE_KEY_ID, FAKE_KEY_SECRET, FAKE_WEBHOOK_SECRET, sign, startFakeRazorpay, type FakeRazorpay } from './support/fake-razorpay.ts';

let t: TestApp;
let fake: FakeRazorpay;
let ravi: string;
let sunita: string;
let arjun: string;
let meena: string;
let imeiSeq = 40_000_000;
const today = todayInIndia();
const WEBHOOK = '/api/payments/webhook/razorpay';

beforeAll(async () => {
  fake = await startFakeRazorpay();
  t = await startTestApp({
    limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 },
    env: {
      PAYMENT_GATEWAY: 'razorpay', RAZORPAY_BASE_URL: fake.baseUrl, RAZORPAY_KEY_ID: FAKE_KEY_ID, RAZORPAY_KEY_SECRET: FAKE_KEY_SECRET,
      RAZORPAY_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET, PAYMENT_RECONCILE_SECONDS: '0', PAYMENT_RECONCILE_AFTER_MINUTES: '0',
    },
  });
  // Razorpay posts to our public webhook: no session, no X-EMM header, the exact bytes it signed.
  fake.setSink(async (body, headers) => (await t.app.inject({ method: 'POST', url: WEBHOOK, headers, payload: body })).statusCode);
  [ravi, sunita, arjun, meena] = [(await t.signIn(RAVI)).token, (await t.signIn(SUNITA)).token, (await t.signIn(ARJUN)).token, (await t.signIn(MEENA)).token];
  await t.db.query(`UPDATE organizations SET features = features || '{"payment_gateway": true}' WHERE id = 23`);
});
afterAll(async () => {
  await t.stop();
  await fake.close();
});

/** A 0% loan of Rs 12,000 over 6 months (Rs 2,000 each) started `monthsAgo` months back: that many instalments are due. */
async function enrol(token: string, monthsAgo = 2) {
  const products = (await t.get('/api/products', { token })).json().data as Array<{ id: number; product_type: number }>;
  const start = addMonths(today, -monthsAgo);
  const res = await t.post('/api/customer', {
    first_name: 'Upi', last_name: `Payer${imeiSeq}`, mobile: '+919812300000', device_brand: 'Vivo', device_model: 'Y28',
    imei1: withImeiCheckDigit(`86${String(imeiSeq++).padStart(12, '0')}`), provisioning_type: 0,
    product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 1_400_000, down_payment_paise: 200_000,
    annual_rate_bps: 0, interest_method: 'flat', tenure_months: 6, start_date: start, first_due_date: addMonths(start, 1),
  }, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.customer as { id: number };
}

interface Order { id: string; status: string; amount_paise: number; short_url: string | null; receipt_no: string | null; held_reason: string | null; customer_id: number | null }

async function order(token: string, body: Record<string, unknown>): Promise<Order> {
  const res = await t.post('/api/payments/customer_order', body, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Order;
}

const orderRow = async (id: string) => (await t.db.query<{ status: string; held_reason: string | null; gateway_payment_id: string | null; payment_id: number | null }>('SELECT * FROM payment_orders WHERE id = $1', [id])).rows[0]!;
const ledger = async (customerId: number) => (await t.db.query<{ amount_paise: number; method: string; reference: string | null }>(`SELECT amount_paise, method, reference FROM payments WHERE customer_id = $1 AND kind = 'payment'`, [customerId])).rows;
const outstanding = async (customerId: number) => (await t.get(`/api/emi/customer_emi_details?customer_id=${customerId}`, { token: ravi })).json().data.totals.outstanding_paise as number;
const eventCount = async () => Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM payment_gateway_events')).rows[0]!.n);

describe('an order for what a customer owes', () => {
  it('is opened at the gateway for overdue and due today, with our order id as the reference; a retried key answers the same order', async () => {
    const c = await enrol(ravi, 2);
    const due = (await t.get(`/api/emi/customer_emi_details?customer_id=${c.id}`, { token: ravi })).json().data.instalments
      .filter((i: { due_date: string }) => i.due_date <= today).reduce((s: number, i: { outstanding_paise: number }) => s + i.outstanding_paise, 0) as number;
    expect(due).toBeGreaterThan(0);
    const first = await order(ravi, { customer_id: c.id, idempotency_key: `key-${c.id}-aaaa` });
    expect(first).toMatchObject({ status: 'pending', amount_paise: due, customer_id: c.id, receipt_no: null });
    expect(first.id).toMatch(/^po_[A-Za-z0-9]{20}$/);
    const link = fake.linkFor(first.id);
    expect(link).toMatchObject({ amount: due, currency: 'INR', reference_id: first.id, upi_link: true, notes: { kisht_order_id: first.id } });
    expect(first.short_url).toBe(link.short_url);
    const again = await order(ravi, { customer_id: c.id, idempotency_key: `key-${c.id}-aaaa` });
    expect(again.id).toBe(first.id);
    expect([...fake.links.values()].filter((l) => l.reference_id === first.id)).toHaveLength(1); // no second link for the retry
    const other = await enrol(ravi, 1);
    const reused = await t.post('/api/payments/customer_order', { customer_id: other.id, idempotency_key: `key-${c.id}-aaaa` }, { token: ravi });
    expect([reused.statusCode, reused.json().code]).toEqual([409, 'ORDER_KEY_REUSED']);
  });

  it('sends the link by SMS through the queue when asked', async () => {
    const c = await enrol(ravi, 1);
    const o = await order(ravi, { customer_id: c.id, send_sms: true });
    const sms = (await t.db.query<{ body: string }>(`SELECT body FROM sms_outbox WHERE recipient = '+919812300000' ORDER BY id DESC LIMIT 1`)).rows[0];
    expect(sms?.body).toContain(o.short_url);
  });

  it('refuses with GATEWAY_NOT_CONFIGURED while the organisation switch is off', async () => {
    const c = await enrol(meena, 1); // organisation 46 has not turned the gateway on
    const res = await t.post('/api/payments/customer_order', { customer_id: c.id }, { token: meena });
    expect([res.statusCode, res.json().code]).toEqual([409, 'GATEWAY_NOT_CONFIGURED']);
    expect((await t.post('/api/payments', { product_type: 0, quantity: 1, idempotency_key: 'meena-keys-1' }, { token: meena })).json().code).toBe('GATEWAY_NOT_CONFIGURED');
  });

  it("answers another network's or a sibling's customer as not found, on the order and on the list", async () => {
    const arjuns = await enrol(arjun, 1);
    const ravis = await enrol(ravi, 1);
    for (const [token, id] of [[ravi, arjuns.id], [sunita, ravis.id], [meena, ravis.id]] as const) {
      const res = await t.post('/api/payments/customer_order', { customer_id: id }, { token });
      expect([res.statusCode, res.json().code]).toEqual([404, 'NOT_FOUND']);
      const list = await t.get(`/api/payments/orders?customer_id=${id}`, { token });
      expect([list.statusCode, list.json().code]).toEqual([404, 'NOT_FOUND']);
    }
    await order(ravi, { customer_id: ravis.id });
    const arjunList = (await t.get('/api/payments/orders', { token: arjun })).json().data as { items: Order[] };
    expect(arjunList.items.every((o) => o.customer_id !== ravis.id)).toBe(true);
    const sunitaList = (await t.get('/api/payments/orders', { token: sunita })).json().data as { items: Order[] };
    expect(sunitaList.items.filter((o) => o.customer_id !== null)).toEqual([]);
    const raviList = (await t.get('/api/payments/orders?purpose=emi', { token: ravi })).json().data as { items: Order[]; has_more: boolean; page: number };
    expect(raviList.items.some((o) => o.customer_id === ravis.id)).toBe(true);
    expect(raviList.page).toBe(1);
  });

  it('answers SERVICE_UNAVAILABLE when the gateway is down, and the order it could not open is failed', async () => {
    const c = await enrol(ravi, 1);
    fake.setDown(true);
    try {
      const res = await t.post('/api/payments/customer_order', { customer_id: c.id }, { token: ravi });
      expect([res.statusCode, res.json().code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    } finally {
      fake.setDown(false);
    }
    const rows = (await t.db.query<{ status: string }>('SELECT status FROM payment_orders WHERE customer_id = $1', [c.id])).rows;
    expect(rows).toEqual([{ status: 'failed' }]);
  });
});

describe('webhooks', () => {
  it('credit a paid order once through the EMI ledger, with its receipt', async () => {
    const c = await enrol(ravi, 2);
    const before = await outstanding(c.id);
    const o = await order(ravi, { customer_id: c.id });
    const { paymentId, statuses } = await fake.pay(o.id);
    expect(statuses).toEqual([200, 200, 200]);
    await t.services.payments.drain();
    expect(await orderRow(o.id)).toMatchObject({ status: 'paid', gateway_payment_id: paymentId, held_reason: null });
    expect(await ledger(c.id)).toEqual([{ amount_paise: o.amount_paise, method: 'upi', reference: paymentId }]);
    expect(await outstanding(c.id)).toBe(before - o.amount_paise);
    const listed = (await t.get(`/api/payments/orders?customer_id=${c.id}`, { token: ravi })).json().data.items[0] as Order;
    expect(listed).toMatchObject({ id: o.id, status: 'paid', short_url: null });
    expect(listed.receipt_no).toMatch(/^RCP-/);
    const outcomes = (await t.db.query<{ outcome: string }>('SELECT outcome FROM payment_gateway_events WHERE order_id = $1 ORDER BY id', [o.id])).rows.map((r) => r.outcome);
    expect(outcomes).toEqual(['noted', 'credited', 'duplicate']);
  });

  it('refuse a forged signature with 401 and store nothing', async () => {
    const c = await enrol(ravi, 1);
    const o = await order(ravi, { customer_id: c.id });
    await fake.pay(o.id, { silent: true });
    const link = fake.linkFor(o.id);
    const body = JSON.stringify({ entity: 'event', event: 'payment.captured', payload: { payment: { entity: { id: 'pay_forged000001', amount: o.amount_paise, currency: 'INR', status: 'captured', order_id: link.order_id, notes: { kisht_order_id: o.id } } } } });
    const events = await eventCount();
    const attempts = [
      { 'x-razorpay-signature': sign(body, 'not-the-secret'), 'x-razorpay-event-id': 'evt_forged1' },
      { 'x-razorpay-signature': sign(`${body} `), 'x-razorpay-event-id': 'evt_forged2' }, // signed, then the body changed
      { 'x-razorpay-event-id': 'evt_forged3' },
      { 'x-razorpay-signature': 'zz', 'x-razorpay-event-id': 'evt_forged4' },
    ];
    for (const headers of attempts) {
      const res = await t.app.inject({ method: 'POST', url: WEBHOOK, headers: { 'content-type': 'application/json', ...headers }, payload: body });
      expect([res.statusCode, res.json().code]).toEqual([401, 'SIGNATURE_INVALID']);
    }
    await t.services.payments.drain();
    expect(await eventCount()).toBe(events);
    expect((await orderRow(o.id)).status).toBe('pending');
    expect(await ledger(c.id)).toEqual([]);
  });

  it('the same event ten times in parallel is stored and credited once', async () => {
    const c = await enrol(ravi, 1);
    const o = await order(ravi, { customer_id: c.id });
    await fake.pay(o.id, { events: ['payment.captured'] });
    const { body, headers } = fake.sent.at(-1)!;
    const answers = await Promise.all(Array.from({ length: 10 }, () => t.app.inject({ method: 'POST', url: WEBHOOK, headers, payload: body })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    // The same payment told by ten different events at once is one payment too.
    const link = fake.linkFor(o.id);
    const payment = link.payments[0]!;
    await Promise.all(Array.from({ length: 10 }, (_, i) => fake.send(i % 2 ? 'order.paid' : 'payment_link.paid', link, payment)));
    await t.services.payments.drain();
    expect((await t.db.query('SELECT 1 FROM payment_gateway_events WHERE event_id = $1', [headers['x-razorpay-event-id']])).rows).toHaveLength(1);
    expect(await ledger(c.id)).toHaveLength(1);
    expect((await orderRow(o.id)).status).toBe('paid');
  });

  it('in any order (captured before authorized) credit once', async () => {
    const c = await enrol(ravi, 1);
    const o = await order(ravi, { customer_id: c.id });
    await fake.pay(o.id, { events: ['payment.captured', 'payment_link.paid', 'payment.authorized'] });
    await t.services.payments.drain();
    expect((await orderRow(o.id)).status).toBe('paid');
    expect(await ledger(c.id)).toHaveLength(1);
  });

  it('hold an order paid with a different amount or currency, and credit nothing', async () => {
    const c = await enrol(ravi, 2);
    const before = await outstanding(c.id);
    const short = await order(ravi, { customer_id: c.id, amount_paise: 150_000 });
    await fake.pay(short.id, { amount: 100 });
    const odd = await order(ravi, { customer_id: c.id, amount_paise: 100_000 });
    await fake.pay(odd.id, { currency: 'USD' });
    await t.services.payments.drain();
    expect(await orderRow(short.id)).toMatchObject({ status: 'held', held_reason: 'AMOUNT_MISMATCH', payment_id: null });
    expect(await orderRow(odd.id)).toMatchObject({ status: 'held', held_reason: 'CURRENCY_MISMATCH', payment_id: null });
    expect(await ledger(c.id)).toEqual([]);
    expect(await outstanding(c.id)).toBe(before);
    const listed = (await t.get(`/api/payments/orders?customer_id=${c.id}&status=held`, { token: ravi })).json().data.items as Order[];
    expect(listed.map((o) => o.held_reason).sort()).toEqual(['AMOUNT_MISMATCH', 'CURRENCY_MISMATCH']);
  });

  it('hold a payment the loan can no longer take (paid by hand meanwhile)', async () => {
    const c = await enrol(ravi, 1);
    const o = await order(ravi, { customer_id: c.id });
    const paid = await t.post('/api/emi/multiple_emi_paid', { customer_id: c.id, amount_paise: 1_200_000, method: 'cash' }, { token: ravi });
    expect(paid.statusCode, paid.body).toBe(200);
    await fake.pay(o.id);
    await t.services.payments.drain();
    expect(await orderRow(o.id)).toMatchObject({ status: 'held', held_reason: 'EXCEEDS_DUE' });
    expect(await ledger(c.id)).toHaveLength(1);
  });
});

describe('reconciliation', () => {
  it('catches up a payment whose webhooks were lost, once the gateway answers again', async () => {
    const c = await enrol(ravi, 1);
    const o = await order(ravi, { customer_id: c.id });
    const { paymentId } = await fake.pay(o.id, { silent: true });
    fake.setDown(true);
    try {
      const stats = await t.services.payments.reconcile();
      expect(stats.unreachable).toBeGreaterThan(0);
      expect((await orderRow(o.id)).status).toBe('pending');
    } finally {
      fake.setDown(false);
    }
    await t.services.payments.reconcile();
    expect(await orderRow(o.id)).toMatchObject({ status: 'paid', gateway_payment_id: paymentId });
    expect(await ledger(c.id)).toHaveLength(1);
    // The webhooks arriving late change nothing.
    const link = fake.linkFor(o.id);
    await fake.send('payment.captured', link, link.payments[0]!);
    await t.services.payments.drain();
    expect(await ledger(c.id)).toHaveLength(1);
  });

  it('expires an order past its time that nobody paid', async () => {
    const c = await enrol(ravi, 1);
    const o = await order(ravi, { customer_id: c.id });
    await t.db.query(`UPDATE payment_orders SET expires_at = now() - interval '1 minute' WHERE id = $1`, [o.id]);
    await t.services.payments.reconcile();
    expect((await orderRow(o.id)).status).toBe('expired');
  });
});

describe('keys bought through the gateway', () => {
  it("quotes the parent's price, or PRICE_UNAVAILABLE with the admin message", async () => {
    const none = await t.post('/api/payments/validate', { product_type: 11, quantity: 2 }, { token: sunita });
    expect([none.statusCode, none.json().code, none.json().message]).toEqual([409, 'PRICE_UNAVAILABLE', 'Please contact admin for prices.']);
    expect((await t.post('/api/points/scheme', { product_type: 0, price_paise: 15_000 }, { token: ravi })).statusCode).toBe(200);
    const quote = await t.post('/api/payments/validate', { product_type: 0, quantity: 10 }, { token: sunita });
    expect(quote.json().data).toMatchObject({ product_type: 0, quantity: 10, unit_price_paise: 15_000, amount_paise: 150_000, seller_name: 'Ravi Mobiles' });
    // At the top of the network the operator sells, at the organisation's list price.
    expect((await t.post('/api/payments/validate', { product_type: 0, quantity: 2 }, { token: ravi })).json().data).toMatchObject({ seller_id: null, unit_price_paise: 29_900, amount_paise: 59_800 });
  });

  it('credits 10 keys once when the payment is confirmed; they show once in the balance and the history', async () => {
    const balance = async (token: string) => ((await t.get('/api/points/balance_types', { token })).json().data as Array<{ product_type: number; balance: number }>).find((b) => b.product_type === 0)!.balance;
    const [mine, parents] = [await balance(sunita), await balance(ravi)];
    const res = await t.post('/api/payments', { product_type: 0, quantity: 10, idempotency_key: 'sunita-keys-0001' }, { token: sunita });
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json().data as Order & { quantity: number };
    expect(o).toMatchObject({ status: 'pending', amount_paise: 150_000, quantity: 10 });
    expect((await t.post('/api/payments', { product_type: 0, quantity: 10, idempotency_key: 'sunita-keys-0001' }, { token: sunita })).json().data.id).toBe(o.id);
    expect(await balance(sunita)).toBe(mine); // nothing before the money arrives
    const { paymentId } = await fake.pay(o.id, { events: ['payment.captured', 'order.paid', 'payment_link.paid'] });
    await t.services.payments.drain();
    expect(await balance(sunita)).toBe(mine + 10);
    expect(await balance(ravi)).toBe(parents - 10);
    const history = (await t.get('/api/retailer/transaction/top_up_history', { token: sunita })).json().data.items as Array<{ change: number; price_paise: number | null; transfer_id: string | null }>;
    const row = await orderRow(o.id) as unknown as { transfer_id: string; gateway_payment_id: string };
    expect(row.gateway_payment_id).toBe(paymentId);
    expect(history.filter((h) => h.transfer_id === row.transfer_id)).toEqual([expect.objectContaining({ change: 10, price_paise: 15_000 })]);
  });
});

describe('a phone the dues policy locked', () => {
  it('unlocks by itself once the gateway payment clears what is overdue', async () => {
    const f = deviceFixtures(t, () => ravi);
    const { customer: c, phone } = await f.phone();
    await t.db.query(`UPDATE emi_instalments SET due_date = due_date - (SELECT min(due_date) FROM emi_instalments WHERE customer_id = $1) + $2::date WHERE customer_id = $1`, [c.id, addDays(today, -10)]);
    await t.db.query('UPDATE organizations SET auto_lock_days_overdue = 7, auto_unlock_when_paid = true WHERE id = 23');
    try {
      await t.db.query(`INSERT INTO customer_events (org_id, account_id, customer_id, type, event_date, payload)
        SELECT org_id, account_id, id, 'emi_overdue', $2, '{"days_past_due": 10, "overdue_paise": 100000}' FROM customers WHERE id = $1`, [c.id, today]);
      await t.services.policies.handleEvents();
      const lock = await phone.next();
      expect(lock).toMatchObject({ type: 'lock' });
      await phone.ack(lock, 'done');
      await expect.poll(async () => (await f.profile(c.id)).lock_status).toBe(1);
      const o = await order(ravi, { customer_id: c.id });
      await fake.pay(o.id);
      await t.services.payments.drain();
      expect((await orderRow(o.id)).status).toBe('paid');
      const unlock = await phone.next();
      expect(unlock).toMatchObject({ type: 'unlock' });
      await phone.ack(unlock, 'done');
      await expect.poll(async () => (await f.profile(c.id)).lock_status).toBe(0);
    } finally {
      await t.db.query('UPDATE organizations SET auto_lock_days_overdue = 0, auto_unlock_when_paid = false WHERE id = 23');
      await phone.close();
    }
  });
});
