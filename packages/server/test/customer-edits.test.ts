import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { startTestApp, RAVI, MEENA, type TestApp } from './harness.ts';

let t: TestApp;
let ravi: string;
let meena: string;
let seq = 1;
const today = todayInIndia();

beforeAll(async () => {
  t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 } });
  ravi = (await t.signIn(RAVI)).token;
  meena = (await t.signIn(MEENA)).token;
});
afterAll(() => t.stop());

const imei = () => withImeiCheckDigit(`3544444444${String(seq++).padStart(4, '0')}`);

async function enrol(token: string, firstDue = addDays(today, -5)) {
  const products = (await t.get('/api/products', { token })).json().data as Array<{ id: number; product_type: number }>;
  return (await t.post('/api/customer', {
    first_name: 'Edit', last_name: 'Me', mobile: '+919812300066', device_brand: 'Poco', device_model: 'M6', imei1: imei(), provisioning_type: 0,
    product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 300_000, down_payment_paise: 0, annual_rate_bps: 0,
    interest_method: 'flat', tenure_months: 3, start_date: addDays(firstDue, -30), first_due_date: firstDue, id_type: 'PAN', id_number: 'ABCDE1234F',
  }, { token })).json().data.customer as { id: number; imei1: string };
}

describe('editing a customer', () => {
  it('changes personal details with the same checks as enrolment', async () => {
    const c = await enrol(ravi);
    const res = await t.post('/api/customer/update_customer_detailsV3', { customer_id: c.id, first_name: ' Edited ', email: 'edit@example.com', id_number: 'PQRSX9876Z' }, { token: ravi });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ first_name: 'Edited', email: 'edit@example.com', id_number_masked: 'XXXXXX876Z' });
    const bad = await t.post('/api/customer/update_customer_detailsV3', { customer_id: c.id, id_number: '123' }, { token: ravi });
    expect(bad.json().details).toEqual([expect.objectContaining({ field: 'id_number' })]);
    expect((await t.post('/api/customer/update_customer_detailsV3', { customer_id: c.id, first_name: 'X' }, { token: meena })).statusCode).toBe(404);
  });

  it('moves IMEIs only to free, valid ones', async () => {
    const a = await enrol(ravi);
    const b = await enrol(ravi);
    const taken = await t.post('/api/customer/customerRegistrationByKegenUpdateV3', { customer_id: b.id, imei1: a.imei1 }, { token: ravi });
    expect(taken.json().code).toBe('IMEI_IN_USE');
    const fresh = imei();
    const moved = await t.post('/api/customer/customerRegistrationByKegenUpdateV3', { customer_id: b.id, imei1: fresh, device_model: 'M6 Pro' }, { token: ravi });
    expect(moved.json().data).toMatchObject({ imei1: fresh, device_model: 'M6 Pro' });
    // The old IMEI is free again.
    expect((await t.post('/api/customer/customerRegistrationByKegenUpdateV3', { customer_id: a.id, imei2: b.imei1 }, { token: ravi })).statusCode).toBe(200);
    const wrong = fresh.slice(0, 14) + String((Number(fresh[14]) + 1) % 10);
    expect((await t.post('/api/customer/customerRegistrationByKegenUpdateV3', { customer_id: a.id, imei1: wrong }, { token: ravi })).statusCode).toBe(400);
  });
});

describe('EMI add, edit, penalty and alerts', () => {
  it('edits an unpaid instalment, adds one, charges a penalty and queues an alert', async () => {
    const c = await enrol(ravi);
    const before = (await t.get(`/api/emi/customer_emi_details?customer_id=${c.id}`, { token: ravi })).json().data;
    const second = before.instalments[1];
    const edited = await t.post('/api/emi/update_emi_details', { customer_id: c.id, instalment_id: second.id, due_date: addDays(second.due_date, 7), amount_paise: 120_000 }, { token: ravi });
    expect(edited.json().data.instalments[1]).toMatchObject({ due_date: addDays(second.due_date, 7), amount_paise: 120_000 });
    const added = await t.post('/api/emi/add_emi_details', { customer_id: c.id, due_date: addDays(today, 120), amount_paise: 5_000 }, { token: ravi });
    expect(added.json().data.instalments).toHaveLength(4);
    const penalised = await t.post('/api/emi/send_penalty', { customer_id: c.id, instalment_id: before.instalments[0].id, amount_paise: 2_500, reason: 'paid late' }, { token: ravi });
    expect(penalised.json().data.instalments[0]).toMatchObject({ penalty_paise: 2_500, outstanding_paise: 102_500 });
    await expect(t.db.query('DELETE FROM penalty_charges')).rejects.toThrow(/append-only/);
    const alert = await t.post('/api/emi/send_emialert', { customer_id: c.id }, { token: ravi });
    expect(alert.json().data).toMatchObject({ status: 'queued', amount_paise: 102_500 });
    expect((await t.get(`/api/emi/emi_alerts?customer_id=${c.id}`, { token: ravi })).json().data).toHaveLength(1);
  });

  it("refuses to shrink an instalment below what was paid, and another network's ids", async () => {
    const c = await enrol(ravi);
    const first = (await t.get(`/api/emi/customer_emi_details?customer_id=${c.id}`, { token: ravi })).json().data.instalments[0];
    await t.post('/api/emi/update_emi_status', { customer_id: c.id, instalment_id: first.id, amount_paise: 60_000, method: 'cash' }, { token: ravi });
    expect((await t.post('/api/emi/update_emi_details', { customer_id: c.id, instalment_id: first.id, amount_paise: 50_000 }, { token: ravi })).statusCode).toBe(400);
    for (const [url, body] of [
      ['/api/emi/update_emi_details', { customer_id: c.id, instalment_id: first.id, amount_paise: 90_000 }],
      ['/api/emi/add_emi_details', { customer_id: c.id, due_date: today, amount_paise: 100 }],
      ['/api/emi/send_penalty', { customer_id: c.id, instalment_id: first.id, amount_paise: 100, reason: 'nope' }],
      ['/api/emi/send_emialert', { customer_id: c.id }],
    ] as const) {
      expect((await t.post(url, body, { token: meena })).statusCode, url).toBe(404);
    }
    expect((await t.get(`/api/emi/emi_alerts?customer_id=${c.id}`, { token: meena })).statusCode).toBe(404);
  });
});
