import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { startTestApp, RAVI, SUNITA, ARJUN, MEENA, type TestApp } from './harness.ts';

let t: TestApp;
let ravi: Awaited<ReturnType<TestApp['signIn']>>;
let sunita: Awaited<ReturnType<TestApp['signIn']>>;
let arjun: Awaited<ReturnType<TestApp['signIn']>>;
let meena: Awaited<ReturnType<TestApp['signIn']>>;
let dpcProduct: number;

beforeAll(async () => {
  t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 } });
  [ravi, sunita, arjun, meena] = [await t.signIn(RAVI), await t.signIn(SUNITA), await t.signIn(ARJUN), await t.signIn(MEENA)];
  const products = (await t.get('/api/products', { token: ravi.token })).json().data as Array<{ id: number; product_type: number }>;
  dpcProduct = products.find((p) => p.product_type === 0)!.id;
});
afterAll(() => t.stop());

let imeiSeq = 10_000_000;
const nextImei = () => withImeiCheckDigit(`35${String(imeiSeq++).padStart(12, '0')}`);

function customerBody(overrides: Record<string, unknown> = {}) {
  return {
    first_name: 'Asha', last_name: 'Verma', mobile: '+919123456780', device_brand: 'Samsung', device_model: 'Galaxy A15',
    imei1: nextImei(), provisioning_type: 0, product_id: dpcProduct, price_paise: 1_500_000, down_payment_paise: 300_000,
    processing_fee_paise: 50_000, annual_rate_bps: 1800, interest_method: 'reducing', tenure_months: 6,
    start_date: '2026-11-21', first_due_date: '2026-12-21', id_type: 'AADHAAR', id_number: '2345 6789 0123',
    ...overrides,
  };
}

async function dpcProductOf(token: string): Promise<number> {
  const products = (await t.get('/api/products', { token })).json().data as Array<{ id: number; product_type: number }>;
  return products.find((p) => p.product_type === 0)!.id;
}

async function keysLeft(token: string, productType = 0): Promise<number> {
  const list = (await t.get('/api/user/license_balance', { token })).json().data as Array<{ product_type: number; balance: number }>;
  return list.find((b) => b.product_type === productType)?.balance ?? 0;
}

describe('enrolment', () => {
  it('creates the customer, its schedule and takes one key, all at once', async () => {
    const before = await keysLeft(ravi.token);
    const res = await t.post('/api/customer', customerBody(), { token: ravi.token });
    expect(res.statusCode).toBe(200);
    const { customer, keys_left } = res.json().data;
    expect(keys_left).toBe(before - 1);
    expect(await keysLeft(ravi.token)).toBe(before - 1);
    expect(customer).toMatchObject({ first_name: 'Asha', install_status: 0, lock_status: 0, id_number_masked: 'XXXXXXXX0123', product_type: 0 });
    expect(JSON.stringify(customer)).not.toContain('234567890123');
    const schedule = await t.db.query<{ n: number; total: number }>('SELECT count(*)::int AS n, sum(amount_paise)::int AS total FROM emi_instalments WHERE customer_id = $1', [customer.id]);
    expect(schedule.rows[0]!.n).toBe(6);
    expect(schedule.rows[0]!.total).toBeGreaterThan(1_200_000);
    expect(customer.emi_paise % 100).toBe(0);
  });

  it('refuses a bad IMEI check digit, bad identity numbers and impossible loans, naming the fields', async () => {
    const good = nextImei();
    const badImei = good.slice(0, 14) + String((Number(good[14]) + 1) % 10);
    const res = await t.post('/api/customer', customerBody({ imei1: badImei, id_number: '1111', down_payment_paise: 1_500_000 }), { token: ravi.token });
    expect(res.statusCode).toBe(400);
    const fields = (res.json().details as Array<{ field: string }>).map((d) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['imei1', 'id_number', 'down_payment_paise']));
    // The same problems come back worded in the retailer's language.
    const inHindi = await t.post('/api/customer', customerBody({ imei1: badImei }), { token: ravi.token, headers: { cookie: 'i18next=hn' } });
    const imeiProblem = (inHindi.json().details as Array<{ field: string; message: string; rule: string }>).find((d) => d.field === 'imei1')!;
    expect(imeiProblem.rule).toBe('imei_invalid');
    expect(imeiProblem.message).toMatch(/[\u0900-\u097F]/);
  });

  it('refuses, in the retailer\'s language, a loan too small for its instalments, writing nothing and taking no key', async () => {
    // Rs 1.50 financed over 3 months would round each EMI to nothing: instalments of Rs 0, 0 and 1.50.
    const before = await keysLeft(ravi.token);
    const imei = nextImei();
    const tiny = customerBody({ imei1: imei, price_paise: 150, down_payment_paise: 0, annual_rate_bps: 0, interest_method: 'flat', tenure_months: 3 });
    const res = await t.post('/api/customer', tiny, { token: ravi.token, headers: { cookie: 'i18next=hn' } });
    expect(res.statusCode).toBe(400);
    const problem = (res.json().details as Array<{ field: string; message: string; rule: string }>).find((d) => d.rule === 'financed_below_tenure')!;
    expect(problem.field).toBe('tenure_months');
    expect(problem.message).toMatch(/[\u0900-\u097F]/);
    expect(await keysLeft(ravi.token)).toBe(before);
    expect((await t.db.query('SELECT 1 FROM customers WHERE imei1 = $1', [imei])).rows).toHaveLength(0);
  });

  it('keeps an IMEI to one active loan, and a failed enrolment takes no key', async () => {
    const imei = nextImei();
    expect((await t.post('/api/customer', customerBody({ imei1: imei }), { token: ravi.token })).statusCode).toBe(200);
    const before = await keysLeft(ravi.token);
    const again = await t.post('/api/customer', customerBody({ imei1: nextImei(), imei2: imei }), { token: ravi.token });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('IMEI_IN_USE');
    expect(await keysLeft(ravi.token)).toBe(before);
    // Another network cannot take it either.
    const zen = await dpcProductOf(meena.token);
    expect((await t.post('/api/customer', customerBody({ imei1: imei, product_id: zen }), { token: meena.token })).json().code).toBe('IMEI_IN_USE');
  });

  it('needs a key of the product type; with none, nothing is created', async () => {
    const lite = ((await t.get('/api/products', { token: arjun.token })).json().data as Array<{ id: number; product_type: number }>).find((p) => p.product_type === 11)!;
    const count = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM customers')).rows[0]!.n;
    const before = await count();
    const res = await t.post('/api/customer', customerBody({ product_id: lite.id }), { token: arjun.token });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('NO_LICENSE_KEY');
    expect(await count()).toBe(before);
  });

  it('never overdraws the key balance under concurrent enrolments', async () => {
    const left = await keysLeft(arjun.token);
    const attempts = left + 4;
    const answers = await Promise.all(Array.from({ length: attempts }, () => t.post('/api/customer', customerBody(), { token: arjun.token })));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(left);
    expect(answers.filter((r) => r.json().code === 'NO_LICENSE_KEY')).toHaveLength(4);
    expect(await keysLeft(arjun.token)).toBe(0);
    const ledger = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM license_ledger l JOIN users u ON u.id = l.user_id WHERE u.mobile = $1 AND l.reason = 'enrolment'`, [ARJUN]);
    expect(ledger.rows[0]!.n).toBe(left);
  });

  it("refuses another organisation's product and financier ids", async () => {
    const zenProducts = (await t.get('/api/products', { token: meena.token })).json().data as Array<{ id: number }>;
    const res = await t.post('/api/customer', customerBody({ product_id: zenProducts[0]!.id }), { token: ravi.token });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([expect.objectContaining({ field: 'product_id' })]);
  });

  it("asks the financier flow for the financier's own references", async () => {
    const financiers = (await t.post('/api/customer/financer_list', undefined, { token: ravi.token })).json().data as Array<{ id: number; code: string; required_fields: string[] }>;
    const hdb = financiers.find((f) => f.code === 'HDB')!;
    expect(hdb.required_fields).toEqual(['loan_reference', 'agreement_number']);
    const missing = await t.post('/api/customer/create-customer-hdb', customerBody({ financier_id: hdb.id, financier_reference: { loan_reference: 'HDB-991' } }), { token: ravi.token });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toEqual([expect.objectContaining({ field: 'financier_reference.agreement_number' })]);
    const done = await t.post('/api/customer/create-customer-hdb', customerBody({ financier_id: hdb.id, financier_reference: { loan_reference: 'HDB-991', agreement_number: 'AG-12' } }), { token: ravi.token });
    expect(done.statusCode).toBe(200);
    expect(done.json().data.customer.financier_reference).toEqual({ loan_reference: 'HDB-991', agreement_number: 'AG-12' });
  });
});

describe('customer list and profile', () => {
  it('finds customers by IMEI, mobile and name start, with a total for paging', async () => {
    const imei = nextImei();
    const created = (await t.post('/api/customer', customerBody({ first_name: 'Zoya', last_name: 'Khan', mobile: '+919988776655', imei1: imei }), { token: ravi.token })).json().data.customer;
    const find = async (search: string) => (await t.get(`/api/customer/get_customers_keygen?search=${encodeURIComponent(search)}`, { token: ravi.token })).json().data;
    expect((await find(imei)).items.map((c: { id: number }) => c.id)).toEqual([created.id]);
    expect((await find('9988776655')).items[0].id).toBe(created.id);
    expect((await find('zoya k')).items[0].id).toBe(created.id);
    expect((await find('%')).total).toBe(0);
    const page = (await t.get('/api/customer/get_customers_keygen?page=1&limit=2', { token: ravi.token })).json().data;
    expect(page.items).toHaveLength(2);
    expect(page.total).toBeGreaterThan(2);
    const next = (await t.get('/api/customer/get_customers_keygen?page=2&limit=2', { token: ravi.token })).json().data;
    expect(next.items[0].id).not.toBe(page.items[0].id);
  });

  it('filters by status (all included) and lock state', async () => {
    const all = (await t.get('/api/customer/get_customers_keygen?status=all&limit=100', { token: ravi.token })).json().data.total;
    const inactive = (await t.get('/api/customer/get_customers_keygen?status=inactive&limit=100', { token: ravi.token })).json().data.total;
    const installed = (await t.get('/api/customer/get_customers_keygen?status=install', { token: ravi.token })).json().data.total;
    expect(all).toBe(inactive + installed);
    expect((await t.get('/api/customer/get_customers_keygen?lock_status=1', { token: ravi.token })).json().data.total).toBe(0);
    expect((await t.get('/api/customer/get_customers_keygen?status=bogus', { token: ravi.token })).statusCode).toBe(400);
  });

  it("shows a mini-retailer only its own customers and its retailer the whole network", async () => {
    const mine = (await t.post('/api/customer', customerBody(), { token: sunita.token })).json().data.customer;
    const sunitaList = (await t.get('/api/customer/get_customers_keygen?limit=100', { token: sunita.token })).json().data;
    expect(sunitaList.items.map((c: { id: number }) => c.id)).toEqual([mine.id]);
    const raviList = (await t.get('/api/customer/get_customers_keygen?limit=100', { token: ravi.token })).json().data;
    expect(raviList.items.map((c: { id: number }) => c.id)).toContain(mine.id);
    const raviCustomer = raviList.items.find((c: { retailer_id: number }) => c.retailer_id === ravi.userId);
    expect((await t.get(`/api/country/getCustomerProfile?customer_id=${raviCustomer.id}`, { token: sunita.token })).statusCode).toBe(404);
  });

  it("reveals nothing of another network: profile and list answer as if the id did not exist", async () => {
    const own = (await t.post('/api/customer', customerBody({ product_id: await dpcProductOf(meena.token) }), { token: meena.token })).json().data.customer;
    const res = await t.get(`/api/country/getCustomerProfile?customer_id=${own.id}`, { token: ravi.token });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('Verma');
    const missing = await t.get('/api/country/getCustomerProfile?customer_id=999999', { token: ravi.token });
    expect(missing.json()).toEqual(res.json());
    const list = (await t.get(`/api/customer/get_customers_keygen?limit=100&retailer_id=${meena.userId}`, { token: ravi.token })).json().data;
    expect(list.total).toBe(0);
    expect((await t.get(`/api/customer/get_customers_keygen?search=${own.imei1}`, { token: ravi.token })).json().data.total).toBe(0);
  });
});
