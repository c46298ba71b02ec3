/**
 * Loan products at enrolment (issue 15, decision 027): the organisation's products, a loan built by one, the
 * copy of its settings and KFS the loan keeps, and refusals in the caller's language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { buildProductSchedule, keyFacts, type LoanProductSettings } from '@kisht/domain/loan-product';
import { startTestApp, RAVI, MEENA, type TestApp } from './harness.ts';
import { runOperatorCommand } from '../src/modules/operator/operator.service.ts';

let t: TestApp;
let ravi: string;
let meena: string;
let seq = 1;
const today = todayInIndia();
type LoanProduct = { id: number; name: string; settings: LoanProductSettings };
let products: LoanProduct[];

beforeAll(async () => {
  t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 } });
  ravi = (await t.signIn(RAVI)).token;
  meena = (await t.signIn(MEENA)).token;
  const res = await t.get('/api/loan_products', { token: ravi });
  expect(res.statusCode, res.body).toBe(200);
  products = res.json().data;
});
afterAll(() => t.stop());

const byName = (name: string) => products.find((p) => p.name.startsWith(name))!;

async function enrol(token: string, loan: Record<string, unknown>, headers: Record<string, string> = {}) {
  const kinds = (await t.get('/api/products', { token })).json().data as Array<{ id: number; product_type: number }>;
  return t.post('/api/customer', {
    first_name: 'Lakshmi', last_name: `Venkataraman${seq}`, mobile: '+919812300066', device_brand: 'Samsung', device_model: 'Galaxy A15', imei1: withImeiCheckDigit(`3577777777${String(seq++).padStart(4, '0')}`),
    provisioning_type: 0, product_id: kinds.find((p) => p.product_type === 0)!.id, price_paise: 30_000_00, down_payment_paise: 0, annual_rate_bps: 1600, interest_method: 'reducing',
    tenure_months: 6, start_date: today, first_due_date: addDays(today, 30), ...loan,
  }, { token, headers });
}
const details = async (id: number) => (await t.get(`/api/emi/customer_emi_details?customer_id=${id}`, { token: ravi })).json().data;

describe('loan products', () => {
  it("lists the organisation's own products, each with its full settings", async () => {
    expect(products.map((p) => p.name)).toEqual(['No-cost EMI (GST on interest)', 'Bank EMI, interest by actual days', 'Weekly pay-as-you-go', '0% scheme']);
    expect(byName('No-cost').settings).toMatchObject({ noCost: true, gstOnInterestBps: 1800, interest: 'reducing' });
    const theirs = (await t.get('/api/loan_products', { token: meena })).json().data as LoanProduct[];
    expect(theirs).toHaveLength(4);
    expect(theirs.some((p) => products.some((mine) => mine.id === p.id))).toBe(false);
  });

  it('builds a no-cost loan: price / n a month, GST on each interest part, the KFS kept with the loan', async () => {
    const product = byName('No-cost');
    const res = await enrol(ravi, { loan_product_id: product.id, annual_rate: '16' });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.customer.id as number;
    const d = await details(id);
    const expected = buildProductSchedule(product.settings, {
      pricePaise: 30_000_00, downPaymentPaise: 0, processingFeePaise: 0, annualRate: '16', periods: 6, advanceInstalments: 0, disbursementDate: today, firstDueDate: addDays(today, 30),
    });
    expect(d.instalments.map((i: { amount_paise: number; tax_paise: number; interest_paise: number; principal_paise: number }) => [i.principal_paise, i.interest_paise, i.tax_paise, i.amount_paise]))
      .toEqual(expected.instalments.map((i) => [i.principalPaise, i.interestPaise, i.taxPaise, i.amountPaise]));
    for (const i of d.instalments) expect(i.amount_paise - i.tax_paise).toBe(5_000_00);
    expect(d.loan_terms.product).toEqual({ id: product.id, name: product.name });
    expect(d.loan_terms.annual_rate).toBe('16');
    expect(d.loan_terms.key_facts.discountPaise).toBe(30_000_00 - expected.financedPaise);
    expect(Number(d.loan_terms.key_facts.apr)).toBeGreaterThan(0);
    // A payment of the first instalment, GST included, settles it.
    const paid = await t.post('/api/emi/multiple_emi_paid', { customer_id: id, amount_paise: d.instalments[0].amount_paise, method: 'upi' }, { token: ravi });
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await details(id)).instalments[0].status).toBe('paid');
    // An edited amount keeps its GST and interest; the rest is principal, and the parts still add up.
    const second = d.instalments[1];
    const edited = await t.post('/api/emi/update_emi_details', { customer_id: id, instalment_id: second.id, amount_paise: 4_000_00 }, { token: ravi });
    expect(edited.statusCode, edited.body).toBe(200);
    const now = (await details(id)).instalments[1];
    expect([now.tax_paise, now.interest_paise, now.principal_paise + now.interest_paise + now.tax_paise]).toEqual([second.tax_paise, second.interest_paise, 4_000_00]);
  });

  it('keeps its schedule and KFS when the product is changed later', async () => {
    const product = byName('Bank EMI');
    const res = await enrol(ravi, { loan_product_id: product.id, annual_rate: '13.99', tenure_months: 12 });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.customer.id as number;
    const before = await details(id);
    await t.db.query(`UPDATE loan_products SET settings = jsonb_set(settings, '{instalmentRounding,multipleOfPaise}', '100') WHERE id = $1`, [product.id]);
    const after = await details(id);
    expect(after.instalments).toEqual(before.instalments);
    expect(after.loan_terms).toEqual(before.loan_terms);
    expect(after.loan_terms.settings.instalmentRounding.multipleOfPaise).toBe(1);
    const kfs = keyFacts(product.settings, { pricePaise: 30_000_00, downPaymentPaise: 0, processingFeePaise: 0, annualRate: '13.99', periods: 12, advanceInstalments: 0, disbursementDate: today, firstDueDate: addDays(today, 30) },
      buildProductSchedule(product.settings, { pricePaise: 30_000_00, downPaymentPaise: 0, processingFeePaise: 0, annualRate: '13.99', periods: 12, advanceInstalments: 0, disbursementDate: today, firstDueDate: addDays(today, 30) }));
    expect(after.loan_terms.key_facts).toEqual(kfs);
    await t.db.query(`UPDATE loan_products SET settings = jsonb_set(settings, '{instalmentRounding,multipleOfPaise}', '1') WHERE id = $1`, [product.id]);
  });

  it('a weekly product: 52 instalments a week apart', async () => {
    const res = await enrol(ravi, { loan_product_id: byName('Weekly').id, tenure_months: 52, first_due_date: addDays(today, 7) });
    expect(res.statusCode, res.body).toBe(200);
    const d = await details(res.json().data.customer.id);
    expect(d.instalments).toHaveLength(52);
    expect(d.instalments[51].due_date).toBe(addDays(today, 7 * 52));
  });

  it("refuses another organisation's product, a rate past 60%, and a loan too small to split, each in the caller's language", async () => {
    const theirs = ((await t.get('/api/loan_products', { token: meena })).json().data as LoanProduct[])[0]!;
    // Another organisation's product decides nothing: its refusal is the only one, whatever the terms.
    const foreign = await enrol(ravi, { loan_product_id: theirs.id, tenure_months: 104 });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().details).toEqual([expect.objectContaining({ field: 'loan_product_id', rule: 'not_your_loan_product' })]);
    // An exact rate without a product is refused, not ignored.
    const stray = await enrol(ravi, { annual_rate: '13.99' });
    expect(stray.statusCode).toBe(400);
    expect(stray.json().details).toEqual([expect.objectContaining({ field: 'annual_rate' })]);
    // A product's refusal of a rate sent in basis points is said on annual_rate_bps.
    const zeroOnly = await enrol(ravi, { loan_product_id: byName('0%').id, annual_rate_bps: 1400 });
    expect(zeroOnly.statusCode).toBe(400);
    expect(zeroOnly.json().details).toEqual([expect.objectContaining({ field: 'annual_rate_bps' })]);
    // Settings stored without one of their parts: a translated 400, not a 500.
    await t.db.query(`UPDATE loan_products SET settings = settings - 'frequency' WHERE id = $1`, [byName('Weekly').id]);
    const broken = await enrol(ravi, { loan_product_id: byName('Weekly').id });
    await t.db.query(`UPDATE loan_products SET settings = jsonb_set(settings, '{frequency}', '{"unit": "week", "every": 1}') WHERE id = $1`, [byName('Weekly').id]);
    expect(broken.statusCode, broken.body).toBe(400);
    expect(broken.json().details).toEqual([expect.objectContaining({ field: 'loan_product_id', rule: 'product_settings' })]);
    const steep = await enrol(ravi, { loan_product_id: byName('Bank EMI').id, annual_rate: '75' }, { cookie: 'i18next=hn' });
    expect(steep.statusCode).toBe(400);
    expect(steep.json().details).toEqual([expect.objectContaining({ field: 'annual_rate' })]);
    expect(steep.json().details[0].message).toMatch(/[\u0900-\u097F]/);
    const tiny = await enrol(ravi, { loan_product_id: byName('0%').id, price_paise: 100_00, annual_rate: '0', tenure_months: 240, first_due_date: addDays(today, 30) });
    expect(tiny.statusCode).toBe(400);
    expect(tiny.json().details).toEqual([expect.objectContaining({ field: 'price_paise' })]);
    const long = await enrol(ravi, { tenure_months: 61 });
    expect(long.statusCode).toBe(400);
    expect(long.json().details).toEqual([expect.objectContaining({ field: 'tenure_months' })]);
    // Nothing was written by any of them.
    const written = await t.db.query('SELECT count(*)::int AS n FROM customers WHERE last_name LIKE $1 AND loan_product_id IS NOT NULL AND price_paise = 10000', ['Venkataraman%']);
    expect(written.rows[0]).toEqual({ n: 0 });
  });
});

describe("the operator's loan product commands", () => {
  it('add a product from the standard one with named settings, refuse a wrong one by name, and retire or change one without touching loans made', async () => {
    const lines: string[] = [];
    const run = (...args: string[]) => runOperatorCommand(t.db, args, (line) => lines.push(line));
    const orgId = String((await t.db.query<{ org_id: number }>('SELECT org_id FROM users WHERE mobile = $1', [RAVI])).rows[0]!.org_id);
    expect(await run('loan-product-add', orgId, 'Fortnightly flat, parts across instalments', 'interest=flat', 'frequency.unit=day', 'frequency.every=14', 'allocation.across=component', 'foreclosureFeeBps=300')).toBe(0);
    const added = ((await t.get('/api/loan_products', { token: ravi })).json().data as LoanProduct[]).find((p) => p.name.startsWith('Fortnightly'))!;
    expect(added.settings).toMatchObject({ interest: 'flat', frequency: { unit: 'day', every: 14 }, allocation: { order: ['penalty', 'interest', 'principal'], across: 'component' }, foreclosureFeeBps: 300, instalmentRounding: { multipleOfPaise: 100, mode: 'half_up' } });

    lines.length = 0;
    expect(await run('loan-product-add', orgId, 'Broken', 'interest=compound')).toBe(1);
    expect(lines.join('\n')).toMatch(/interest: compound/);
    expect(await run('loan-product-add', orgId, 'Broken', 'frequency.fortnight=1')).toBe(1);
    expect(await run('loan-product-add', orgId, 'Fortnightly flat, parts across instalments')).toBe(1);
    expect(((await t.get('/api/loan_products', { token: ravi })).json().data as LoanProduct[]).some((p) => p.name === 'Broken')).toBe(false);

    const loan = await enrol(ravi, { loan_product_id: added.id, annual_rate: '18', tenure_months: 8 });
    expect(loan.statusCode, loan.body).toBe(200);
    const id = loan.json().data.customer.id as number;
    const before = await details(id);
    expect(await run('loan-product-set', String(added.id), 'interest=reducing', 'name=Fortnightly reducing')).toBe(0);
    expect(((await t.get('/api/loan_products', { token: ravi })).json().data as LoanProduct[]).find((p) => p.id === added.id)).toMatchObject({ name: 'Fortnightly reducing', settings: { interest: 'reducing' } });
    expect(await details(id)).toEqual(before);
    expect(await run('loan-product-set', String(added.id), 'active=off')).toBe(0);
    expect(((await t.get('/api/loan_products', { token: ravi })).json().data as LoanProduct[]).some((p) => p.id === added.id)).toBe(false);
    expect(await run('loan-product-set', '999999', 'active=on')).toBe(1);
    lines.length = 0;
    expect(await run('loan-products', orgId)).toBe(0);
    expect(lines.find((l) => l.includes('Fortnightly reducing'))).toMatch(/\(retired\)\t1 loans/);
  });
});
