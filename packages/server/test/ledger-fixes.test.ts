/** Money edge cases found in review: allocation order, retries, reopened loans, stable receipts, advance EMIs. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { startTestApp, RAVI, ARJUN, MEENA, type TestApp } from './harness.ts';

let t: TestApp;
let ravi: string;
let arjun: string;
let meena: string;
let seq = 1;
const today = todayInIndia();

beforeAll(async () => {
  t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 } });
  [ravi, arjun, meena] = [(await t.signIn(RAVI)).token, (await t.signIn(ARJUN)).token, (await t.signIn(MEENA)).token];
});
afterAll(() => t.stop());

const imei = () => withImeiCheckDigit(`3555555555${String(seq++).padStart(4, '0')}`);

async function enrol(token: string, overrides: Record<string, unknown> = {}) {
  const products = (await t.get('/api/products', { token })).json().data as Array<{ id: number; product_type: number }>;
  const res = await t.post('/api/customer', {
    first_name: 'Ledger', last_name: `Surname${seq}`, mobile: '+919812300088', device_brand: 'Lava', device_model: 'Agni', imei1: imei(), provisioning_type: 0,
    product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 300_000, down_payment_paise: 0, annual_rate_bps: 0, interest_method: 'flat',
    tenure_months: 3, start_date: addDays(today, -40), first_due_date: addDays(today, -10), ...overrides,
  }, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.customer as { id: number; imei1: string; last_name: string };
}
const emis = async (token: string, id: number) => (await t.get(`/api/emi/customer_emi_details?customer_id=${id}`, { token })).json().data;

describe('payments', () => {
  it('go to the oldest due instalment first, even after a due date was moved', async () => {
    const c = await enrol(ravi);
    const [, , third] = (await emis(ravi, c.id)).instalments;
    await t.post('/api/emi/update_emi_details', { customer_id: c.id, instalment_id: third.id, due_date: addDays(today, -100) }, { token: ravi });
    const paid = (await t.post('/api/emi/multiple_emi_paid', { customer_id: c.id, amount_paise: 100_000, method: 'cash' }, { token: ravi })).json().data;
    expect(paid.allocations).toEqual([expect.objectContaining({ instalment_number: 3 })]);
  });

  it('are taken once for a retried request with the same key, even at the same moment', async () => {
    const c = await enrol(ravi);
    const body = { customer_id: c.id, amount_paise: 50_000, method: 'upi', idempotency_key: `retry-${c.id}-abcdef` };
    const answers = await Promise.all([1, 2, 3].map(() => t.post('/api/emi/multiple_emi_paid', body, { token: ravi })));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((r) => r.json().data.payment_id)).size).toBe(1);
    expect((await emis(ravi, c.id)).totals.paid_paise).toBe(50_000);
    // The same key for another customer is refused: no other customer's receipt, nothing paid.
    const other = await enrol(ravi);
    const reused = await t.post('/api/emi/multiple_emi_paid', { ...body, customer_id: other.id }, { token: ravi });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().details).toEqual([expect.objectContaining({ field: 'idempotency_key' })]);
    expect((await emis(ravi, other.id)).totals.paid_paise).toBe(0);
  });

  it('keep on their receipt what was owed at that moment', async () => {
    const c = await enrol(ravi);
    const first = (await t.post('/api/emi/multiple_emi_paid', { customer_id: c.id, amount_paise: 100_000, method: 'cash' }, { token: ravi })).json().data;
    expect(first.outstanding_after_paise).toBe(200_000);
    await t.post('/api/emi/multiple_emi_paid', { customer_id: c.id, amount_paise: 100_000, method: 'cash' }, { token: ravi });
    expect((await t.get(`/api/emi/receipt?payment_id=${first.payment_id}`, { token: ravi })).json().data.outstanding_after_paise).toBe(200_000);
  });

  it("answer 404 for another network's instalment id, and a paid instalment takes no penalty", async () => {
    const mine = await enrol(ravi);
    const theirs = await enrol(meena, { product_id: ((await t.get('/api/products', { token: meena })).json().data as Array<{ id: number; product_type: number }>).find((p) => p.product_type === 0)!.id });
    const foreign = (await emis(meena, theirs.id)).instalments[0].id;
    expect((await t.post('/api/emi/update_emi_status', { customer_id: mine.id, instalment_id: foreign, method: 'cash' }, { token: ravi })).statusCode).toBe(404);
    expect((await t.post('/api/emi/multiple_emi_paid', { customer_id: mine.id, instalment_ids: [foreign], method: 'cash' }, { token: ravi })).statusCode).toBe(404);
    const first = (await emis(ravi, mine.id)).instalments[0];
    await t.post('/api/emi/update_emi_status', { customer_id: mine.id, instalment_id: first.id, method: 'cash' }, { token: ravi });
    expect((await t.post('/api/emi/send_penalty', { customer_id: mine.id, instalment_id: first.id, amount_paise: 100, reason: 'late' }, { token: ravi })).json().code).toBe('NOTHING_DUE');
  });
});

describe('a completed loan that owes again', () => {
  it('is reopened with its IMEIs by a reversal, and a reversal is refused when another loan took the IMEI', async () => {
    const c = await enrol(ravi);
    await t.db.query('UPDATE customers SET install_status = 1 WHERE id = $1', [c.id]);
    const paid = (await t.post('/api/emi/multiple_emi_paid', { customer_id: c.id, amount_paise: 300_000, method: 'cash' }, { token: ravi })).json().data;
    await t.services.dues.rerun(23, today);
    expect((await t.get(`/api/country/getCustomerProfile?customer_id=${c.id}`, { token: ravi })).json().data.install_status).toBe(5);
    const rev = await t.post('/api/emi/reverse_payment', { payment_id: paid.payment_id, reason: 'cheque bounced' }, { token: ravi });
    expect(rev.statusCode).toBe(200);
    expect((await t.get(`/api/country/getCustomerProfile?customer_id=${c.id}`, { token: ravi })).json().data.install_status).toBe(1);
    // The IMEI is taken again: another loan cannot use it.
    expect((await enrol(arjun, { imei1: c.imei1 }).catch(() => null))).toBeNull();

    const d = await enrol(ravi);
    const paidD = (await t.post('/api/emi/multiple_emi_paid', { customer_id: d.id, amount_paise: 300_000, method: 'cash' }, { token: ravi })).json().data;
    await t.services.dues.rerun(23, today);
    await enrol(arjun, { imei1: d.imei1 }); // the freed IMEI goes to a new loan
    const refused = await t.post('/api/emi/reverse_payment', { payment_id: paidD.payment_id, reason: 'entered twice' }, { token: ravi });
    expect(refused.json().code).toBe('IMEI_IN_USE');
    expect((await emis(ravi, d.id)).totals.outstanding_paise).toBe(0);
  });
});

describe('enrolment, search and the dues run', () => {
  it('records advance EMIs as collected at enrolment, with a receipt', async () => {
    const c = await enrol(ravi, { advance_emis: 1, start_date: today, first_due_date: addDays(today, 30) });
    const d = await emis(ravi, c.id);
    expect(d.instalments[0]).toMatchObject({ advance: true, status: 'paid' });
    const history = (await t.get(`/api/emi/payments?customer_id=${c.id}`, { token: ravi })).json().data;
    expect(history).toHaveLength(1);
    expect(history[0].amount_paise).toBe(d.instalments[0].amount_paise);
  });

  it('finds customers by surname too', async () => {
    const c = await enrol(ravi);
    const found = (await t.get(`/api/customer/get_customers_keygen?search=${c.last_name.toLowerCase()}`, { token: ravi })).json().data;
    expect(found.items.map((i: { id: number }) => i.id)).toContain(c.id);
  });

  it('writes automatic penalties into the penalty ledger', async () => {
    const c = await enrol(ravi, { start_date: addDays(today, -60), first_due_date: addDays(today, -20) });
    await t.services.dues.rerun(23, today);
    const rows = await t.db.query<{ source: string; amount_paise: number }>('SELECT source, amount_paise FROM penalty_charges WHERE customer_id = $1', [c.id]);
    expect(rows.rows).toEqual([{ source: 'dues_run', amount_paise: 5000 }]);
  });

  it('refuses impossible pages and dates with 400, not a server error', async () => {
    expect((await t.get('/api/customer/get_customers_keygen?page=100000000', { token: ravi })).statusCode).toBe(400);
    expect((await t.get('/api/customer/get_customers_keygen?from=0000-01-01', { token: ravi })).statusCode).toBe(400);
    expect((await t.post('/api/customer', { first_name: 'A' }, { token: ravi })).statusCode).toBe(400);
  });
});
