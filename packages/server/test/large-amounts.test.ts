/**
 * Loans at the top of what the API takes (Rs 1 crore at 60% flat over 60 months: Rs 4 crore to repay) and
 * instalments whose penalties add up past 2^31 paise: every total is exact and every screen answers, on
 * PGlite and PostgreSQL alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { MAX_PAISE } from '@kisht/contract/customers';
import { runOperatorCommand } from '../src/modules/operator/operator.service.ts';
import { startTestApp, RAVI, type TestApp } from './harness.ts';

let t: TestApp;
let ravi: string;
let seq = 1;
const today = todayInIndia();
const INT4_MAX = 2_147_483_647;

beforeAll(async () => {
  t = await startTestApp();
  ravi = (await t.signIn(RAVI)).token;
  await runOperatorCommand(t.db, ['feature', '23', 'outstanding_amount', 'on'], () => undefined);
});
afterAll(() => t.stop());

async function enrol(overrides: Record<string, unknown>) {
  const products = (await t.get('/api/products', { token: ravi })).json().data as Array<{ id: number; product_type: number }>;
  const res = await t.post('/api/customer', {
    first_name: 'Crore', last_name: `Borrower${seq}`, mobile: '+919812300077', device_brand: 'Apple', device_model: 'iPhone 17 Pro Max', imei1: withImeiCheckDigit(`3566666666${String(seq++).padStart(4, '0')}`),
    provisioning_type: 0, product_id: products.find((p) => p.product_type === 0)!.id, price_paise: MAX_PAISE, down_payment_paise: 0, interest_method: 'flat',
    start_date: addDays(today, -70), first_due_date: addDays(today, -40), ...overrides,
  }, { token: ravi });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.customer as { id: number };
}
const details = async (id: number) => {
  const res = await t.get(`/api/emi/customer_emi_details?customer_id=${id}`, { token: ravi });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { totals: Record<string, number>; instalments: Array<{ id: number; amount_paise: number; penalty_paise: number; paid_paise: number }> };
};

describe('amounts past 2^31 paise', () => {
  it('a Rs 1 crore loan at 60% flat over 60 months: Rs 4 crore owed, paid in four payments, every total exact', async () => {
    const c = await enrol({ annual_rate_bps: 6000, tenure_months: 60 });
    const before = await details(c.id);
    const payable = before.instalments.reduce((s, i) => s + i.amount_paise, 0);
    expect(payable).toBe(4 * MAX_PAISE);
    expect(payable).toBeGreaterThan(INT4_MAX);
    for (let i = 0; i < 4; i++) {
      const res = await t.post('/api/emi/multiple_emi_paid', { customer_id: c.id, amount_paise: MAX_PAISE, method: 'bank' }, { token: ravi });
      expect(res.statusCode, res.body).toBe(200);
    }
    const after = await details(c.id);
    expect(after.instalments.reduce((s, i) => s + i.paid_paise, 0)).toBe(4 * MAX_PAISE);
    expect(Object.values(after.totals).every((v) => Number.isSafeInteger(v))).toBe(true);
    const list = await t.get('/api/customer/get_customers_keygen?search=borrower1', { token: ravi });
    expect(list.statusCode, list.body).toBe(200);
    const outstanding = await t.get('/api/emi/getTotalOutStanding', { token: ravi });
    expect(outstanding.statusCode, outstanding.body).toBe(200);
    const owedNow = after.instalments.reduce((s, i) => s + i.amount_paise + i.penalty_paise - i.paid_paise, 0);
    expect(after.totals.outstanding_paise).toBe(owedNow);
  });

  it('penalties on one instalment past 2^31 paise: charged, listed, totalled, paid', async () => {
    const c = await enrol({ annual_rate_bps: 6000, tenure_months: 1, start_date: addDays(today, -40), first_due_date: addDays(today, -10) });
    const [only] = (await details(c.id)).instalments;
    // Rs 1 lakh at a time, the most one penalty may be: 120 of them, Rs 1.2 crore on a Rs 1.05 crore instalment.
    for (let i = 0; i < 120; i++) {
      const res = await t.post('/api/emi/send_penalty', { customer_id: c.id, instalment_id: only!.id, amount_paise: 10_000_000, reason: 'late, again' }, { token: ravi });
      expect(res.statusCode, res.body).toBe(200);
    }
    const charged = await details(c.id);
    expect(charged.instalments[0]!.penalty_paise).toBe(120 * 10_000_000);
    const owed = charged.instalments[0]!.amount_paise + charged.instalments[0]!.penalty_paise;
    expect(owed).toBeGreaterThan(INT4_MAX);
    for (const path of ['/api/customer/get_customers_keygen?search=borrower2', '/api/emi/getTotalOutStanding', '/api/customer/get_keygen_dashboardV1', `/api/emi/payments?customer_id=${c.id}`]) {
      const res = await t.get(path, { token: ravi });
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    }
    let left = owed;
    while (left > 0) {
      const amount = Math.min(left, MAX_PAISE);
      const res = await t.post('/api/emi/multiple_emi_paid', { customer_id: c.id, amount_paise: amount, method: 'bank' }, { token: ravi });
      expect(res.statusCode, res.body).toBe(200);
      left -= amount;
    }
    const paid = await details(c.id);
    expect(paid.instalments[0]!.paid_paise).toBe(owed);
    expect(paid.totals.outstanding_paise).toBe(0);
    // Every row of the ledger reads back as a number, on either database.
    const rows = (await t.db.query<{ amount_paise: unknown }>('SELECT amount_paise FROM payments WHERE customer_id = $1', [c.id])).rows;
    expect(rows.every((r) => typeof r.amount_paise === 'number')).toBe(true);
    expect(rows.reduce((s, r) => s + (r.amount_paise as number), 0)).toBe(owed);
  });
});
