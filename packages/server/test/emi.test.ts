import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { addDays, addMonths } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { startTestApp, RAVI, SUNITA, MEENA, type TestApp } from './harness.ts';
import { runOperatorCommand } from '../src/modules/operator/operator.service.ts';

let t: TestApp;
let ravi: Awaited<ReturnType<TestApp['signIn']>>;
let sunita: Awaited<ReturnType<TestApp['signIn']>>;
let meena: Awaited<ReturnType<TestApp['signIn']>>;
let imeiSeq = 20_000_000;
const today = todayInIndia();

beforeAll(async () => {
  t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 } });
  [ravi, sunita, meena] = [await t.signIn(RAVI), await t.signIn(SUNITA), await t.signIn(MEENA)];
});
afterAll(() => t.stop());

/** A 0% loan of Rs 12,000 over 6 months (Rs 2,000 each), started `monthsAgo` months back. */
async function enrol(token: string, monthsAgo: number) {
  const products = (await t.get('/api/products', { token })).json().data as Array<{ id: number; product_type: number }>;
  const start = addMonths(today, -monthsAgo);
  const res = await t.post('/api/customer', {
    first_name: 'Ravi', last_name: `Customer${imeiSeq}`, mobile: '+919812300000', device_brand: 'Vivo', device_model: 'Y28',
    imei1: withImeiCheckDigit(`86${String(imeiSeq++).padStart(12, '0')}`), provisioning_type: 0,
    product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 1_400_000, down_payment_paise: 200_000,
    annual_rate_bps: 0, interest_method: 'flat', tenure_months: 6, start_date: start, first_due_date: addMonths(start, 1),
  }, { token });
  expect(res.statusCode).toBe(200);
  return res.json().data.customer as { id: number };
}

async function details(token: string, customerId: number) {
  return (await t.get(`/api/emi/customer_emi_details?customer_id=${customerId}`, { token })).json().data as {
    instalments: Array<{ id: number; number: number; status: string; outstanding_paise: number; paid_paise: number; days_past_due: number }>;
    totals: { payable_paise: number; paid_paise: number; outstanding_paise: number; overdue_paise: number };
  };
}

describe('collecting instalments', () => {
  it('shows overdue, due and paid instalments with totals', async () => {
    const c = await enrol(ravi.token, 2);
    const d = await details(ravi.token, c.id);
    expect(d.instalments).toHaveLength(6);
    expect(d.totals).toEqual({ payable_paise: 1_200_000, paid_paise: 0, outstanding_paise: 1_200_000, overdue_paise: d.instalments.filter((i) => i.status === 'overdue').length * 200_000 });
    expect(d.instalments[0]!.status).toBe('overdue');
    expect(d.instalments[0]!.days_past_due).toBeGreaterThan(27);
    expect(d.instalments[5]!.status).toBe('due');
    const viaPost = await t.post('/api/country/get_emi_details', { customer_id: c.id }, { token: ravi.token });
    expect(viaPost.json().data.totals).toEqual(d.totals);
  });

  it('pays two instalments at once with one receipt, and the outstanding drops by both', async () => {
    const c = await enrol(ravi.token, 2);
    const before = await details(ravi.token, c.id);
    const [first, second] = before.instalments;
    const res = await t.post('/api/emi/multiple_emi_paid', { customer_id: c.id, instalment_ids: [first!.id, second!.id], method: 'upi', reference: 'UPI-778812' }, { token: ravi.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Payment recorded.');
    const receipt = res.json().data;
    expect(receipt).toMatchObject({ kind: 'payment', amount_paise: 400_000, method: 'upi', outstanding_after_paise: 800_000 });
    expect(receipt.receipt_no).toMatch(/^RCP-\d{8}$/);
    expect(receipt.allocations.map((a: { instalment_number: number }) => a.instalment_number)).toEqual([1, 2]);
    const after = await details(ravi.token, c.id);
    expect(after.totals.outstanding_paise).toBe(before.totals.outstanding_paise - 400_000);
    expect(after.instalments.slice(0, 2).every((i) => i.status === 'paid')).toBe(true);
    const again = await t.get(`/api/emi/receipt?payment_id=${receipt.payment_id}`, { token: ravi.token });
    expect(again.json().data.receipt_no).toBe(receipt.receipt_no);
  });

  it('allocates a part payment oldest due first and refuses more than is owed', async () => {
    const c = await enrol(ravi.token, 1);
    const res = await t.post('/api/emi/multiple_emi_paid', { customer_id: c.id, amount_paise: 250_000, method: 'cash' }, { token: ravi.token });
    expect(res.json().data.allocations).toEqual([
      expect.objectContaining({ instalment_number: 1, amount_paise: 200_000 }),
      expect.objectContaining({ instalment_number: 2, amount_paise: 50_000 }),
    ]);
    const d = await details(ravi.token, c.id);
    expect(d.instalments[1]!.status).toBe('partial');
    const tooMuch = await t.post('/api/emi/multiple_emi_paid', { customer_id: c.id, amount_paise: 2_000_000, method: 'cash' }, { token: ravi.token });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().code).toBe('PAYMENT_TOO_LARGE');
    expect((await details(ravi.token, c.id)).totals.paid_paise).toBe(250_000);
    const single = await t.post('/api/emi/update_emi_status', { customer_id: c.id, instalment_id: d.instalments[1]!.id, method: 'cash' }, { token: ravi.token });
    expect(single.json().data.amount_paise).toBe(150_000);
    const paidAgain = await t.post('/api/emi/update_emi_status', { customer_id: c.id, instalment_id: d.instalments[1]!.id, method: 'cash' }, { token: ravi.token });
    expect(paidAgain.json().code).toBe('NOTHING_DUE');
  });

  it('corrects a payment with a reversal entry; the ledger itself cannot be edited', async () => {
    const c = await enrol(ravi.token, 1);
    const paid = (await t.post('/api/emi/multiple_emi_paid', { customer_id: c.id, amount_paise: 200_000, method: 'cash' }, { token: ravi.token })).json().data;
    const rev = await t.post('/api/emi/reverse_payment', { payment_id: paid.payment_id, reason: 'entered twice' }, { token: ravi.token });
    expect(rev.statusCode).toBe(200);
    expect(rev.json().data).toMatchObject({ kind: 'reversal', amount_paise: -200_000, reference: paid.receipt_no, note: 'entered twice' });
    expect((await details(ravi.token, c.id)).totals.paid_paise).toBe(0);
    expect((await t.post('/api/emi/reverse_payment', { payment_id: paid.payment_id, reason: 'again' }, { token: ravi.token })).json().code).toBe('ALREADY_REVERSED');
    const history = (await t.get(`/api/emi/payments?customer_id=${c.id}`, { token: ravi.token })).json().data;
    expect(history.map((p: { kind: string; reversed: boolean }) => [p.kind, p.reversed])).toEqual([['reversal', false], ['payment', true]]);
    expect((await t.get(`/api/emi/payments?customer_id=${c.id}`, { token: meena.token })).statusCode).toBe(404);
    await expect(t.db.query('UPDATE payments SET amount_paise = 1 WHERE id = $1', [paid.payment_id])).rejects.toThrow(/append-only/);
    await expect(t.db.query('DELETE FROM payment_allocations WHERE payment_id = $1', [paid.payment_id])).rejects.toThrow(/append-only/);
  });

  it('never takes a double payment from two taps at once', async () => {
    const c = await enrol(ravi.token, 0);
    const first = (await details(ravi.token, c.id)).instalments[0]!;
    const answers = await Promise.all([1, 2, 3].map(() => t.post('/api/emi/update_emi_status', { customer_id: c.id, instalment_id: first.id, method: 'cash' }, { token: ravi.token })));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect((await details(ravi.token, c.id)).totals.paid_paise).toBe(200_000);
  });
});

describe('upcoming dues and outstanding', () => {
  it('counts overdue, today and the next days, and lists them', async () => {
    const fresh = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 } });
    const r = await fresh.signIn(RAVI);
    const products = (await fresh.get('/api/products', { token: r.token })).json().data as Array<{ id: number; product_type: number }>;
    const body = (overrides: Record<string, unknown>) => ({
      first_name: 'Due', last_name: 'Soon', mobile: '+919812300001', device_brand: 'Vivo', device_model: 'Y28', provisioning_type: 0,
      product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 600_000, down_payment_paise: 0, annual_rate_bps: 0,
      interest_method: 'flat', tenure_months: 3, ...overrides,
    });
    // One loan with its first instalment due today, one due in 3 days, one 10 days overdue.
    await fresh.post('/api/customer', body({ imei1: withImeiCheckDigit('35000000000001'), start_date: addDays(today, -30), first_due_date: today }), { token: r.token });
    await fresh.post('/api/customer', body({ imei1: withImeiCheckDigit('35000000000002'), start_date: addDays(today, -1), first_due_date: addDays(today, 3) }), { token: r.token });
    await fresh.post('/api/customer', body({ imei1: withImeiCheckDigit('35000000000003'), start_date: addDays(today, -40), first_due_date: addDays(today, -10) }), { token: r.token });
    const counts = (await fresh.get('/api/emi/upcoming_emi_counts?days=7', { token: r.token })).json().data;
    expect(counts).toEqual({ overdue: 1, today: 1, next_days: 1, days: 7 });
    const overdue = (await fresh.get('/api/emi/getUpcomingEmi?filter=overdue', { token: r.token })).json().data;
    expect(overdue.items).toHaveLength(1);
    expect(overdue.items[0].due_date).toBe(addDays(today, -10));
    const next = (await fresh.get('/api/emi/getUpcomingEmi?filter=next&days=7', { token: r.token })).json().data;
    expect(next.items.map((i: { due_date: string }) => i.due_date)).toEqual([addDays(today, 3)]);
    await fresh.stop();
  });

  it('gives the outstanding total only where the organisation switched it on', async () => {
    const off = await t.get('/api/emi/getTotalOutStanding', { token: ravi.token });
    expect(off.statusCode).toBe(403);
    expect(off.json().code).toBe('FEATURE_OFF');
    await runOperatorCommand(t.db, ['feature', '23', 'outstanding_amount', 'on'], () => undefined);
    const on = (await t.get('/api/emi/getTotalOutStanding', { token: ravi.token })).json().data;
    const expected = await t.db.query<{ s: string }>(`SELECT sum(e.amount_paise + e.penalty_paise - e.paid_paise)::bigint::text AS s FROM emi_instalments e JOIN customers c ON c.id = e.customer_id JOIN users u ON u.id = c.account_id WHERE u.mobile = $1`, [RAVI]);
    expect(on.outstanding_paise).toBe(Number(expected.rows[0]!.s));
    // A phone whose agent was uninstalled still owes its loan: the total keeps it.
    const gone = await enrol(ravi.token, 3);
    const owed = (await details(ravi.token, gone.id)).totals.outstanding_paise;
    await t.db.query('UPDATE customers SET install_status = 3 WHERE id = $1', [gone.id]);
    const after = (await t.get('/api/emi/getTotalOutStanding', { token: ravi.token })).json().data;
    expect(after.outstanding_paise).toBe(on.outstanding_paise + owed);
    expect((await t.get('/api/emi/getTotalOutStanding', { token: meena.token })).statusCode).toBe(403);
  });
});

describe('another network', () => {
  it("can neither read nor pay, reverse or see receipts of this network's customers", async () => {
    const c = await enrol(ravi.token, 1);
    const d = await details(ravi.token, c.id);
    const paid = (await t.post('/api/emi/multiple_emi_paid', { customer_id: c.id, amount_paise: 100_000, method: 'cash' }, { token: ravi.token })).json().data;
    const attempts = [
      await t.get(`/api/emi/customer_emi_details?customer_id=${c.id}`, { token: meena.token }),
      await t.post('/api/country/get_emi_details', { customer_id: c.id }, { token: meena.token }),
      await t.post('/api/emi/update_emi_status', { customer_id: c.id, instalment_id: d.instalments[0]!.id, method: 'cash' }, { token: meena.token }),
      await t.post('/api/emi/multiple_emi_paid', { customer_id: c.id, amount_paise: 100, method: 'cash' }, { token: meena.token }),
      await t.post('/api/emi/reverse_payment', { payment_id: paid.payment_id, reason: 'not mine' }, { token: meena.token }),
      await t.get(`/api/emi/receipt?payment_id=${paid.payment_id}`, { token: meena.token }),
    ];
    for (const res of attempts) {
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('Customer');
    }
    expect((await details(ravi.token, c.id)).totals.paid_paise).toBe(100_000);
    // A mini-retailer of the same network sees only its own customers' money.
    expect((await t.get(`/api/emi/receipt?payment_id=${paid.payment_id}`, { token: sunita.token })).statusCode).toBe(404);
  });
});
