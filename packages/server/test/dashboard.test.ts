import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { startTestApp, RAVI, SUNITA, MEENA, type TestApp } from './harness.ts';
import { DEMO_KEYS } from '../src/db/seed.ts';

let t: TestApp;
const today = todayInIndia();
let seq = 1;

beforeAll(async () => {
  t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 } });
});
afterAll(() => t.stop());

async function enrol(token: string, firstDue: string) {
  const products = (await t.get('/api/products', { token })).json().data as Array<{ id: number; product_type: number }>;
  const res = await t.post('/api/customer', {
    first_name: 'Dash', last_name: `Board${seq}`, mobile: '+919812300077', device_brand: 'Realme', device_model: 'C55',
    imei1: withImeiCheckDigit(`3522222222${String(seq++).padStart(4, '0')}`), provisioning_type: 0,
    product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 300_000, down_payment_paise: 0, annual_rate_bps: 0,
    interest_method: 'flat', tenure_months: 3, start_date: addDays(firstDue, -30), first_due_date: firstDue,
  }, { token });
  return res.json().data.customer as { id: number };
}

describe('dashboard', () => {
  it("counts the network's customers, keys, dues and today's collections, and moves when a payment comes in", async () => {
    const ravi = await t.signIn(RAVI);
    const sunita = await t.signIn(SUNITA);
    const meena = await t.signIn(MEENA);
    const a = await enrol(ravi.token, today);
    await enrol(ravi.token, addDays(today, -5));
    await enrol(sunita.token, addDays(today, 10));
    await enrol(meena.token, today);

    const before = (await t.get('/api/customer/get_keygen_dashboardV1?days=7', { token: ravi.token })).json().data;
    expect(before.total_customers).toBe(3);
    expect(before.customers_by_status).toHaveLength(7);
    expect(before.customers_by_status[0]).toEqual({ install_status: 0, count: 3 });
    expect(before.lock).toEqual({ locked: 0, unlocked: 3 });
    expect(before.emis).toEqual({ due_today: 1, due_today_paise: 100_000, overdue: 1, overdue_paise: 100_000 });
    expect(before.collections).toHaveLength(7);
    expect(before.collections.at(-1)).toEqual({ date: today, amount_paise: 0 });
    // Two of the demo DPC keys went to the DPC customers above.
    const demoDpcKeys = DEMO_KEYS[RAVI]!.find(([type]) => type === 0)![1];
    expect(before.keys_left.find((k: { product_type: number }) => k.product_type === 0).balance).toBe(demoDpcKeys - 2);

    const instalments = (await t.get(`/api/emi/customer_emi_details?customer_id=${a.id}`, { token: ravi.token })).json().data.instalments;
    await t.post('/api/emi/multiple_emi_paid', { customer_id: a.id, instalment_ids: [instalments[0].id, instalments[1].id], method: 'cash' }, { token: ravi.token });
    const after = (await t.get('/api/customer/get_keygen_dashboardV1?days=7', { token: ravi.token })).json().data;
    expect(after.collections.at(-1)).toEqual({ date: today, amount_paise: 200_000 });
    expect(after.emis.due_today).toBe(0);

    // A mini-retailer sees its own figures; another network sees only its own.
    const mini = (await t.get('/api/customer/get_keygen_dashboardV1', { token: sunita.token })).json().data;
    expect(mini.total_customers).toBe(1);
    expect(mini.collections).toHaveLength(30);
    const zen = (await t.get('/api/customer/get_keygen_dashboardV1', { token: meena.token })).json().data;
    expect(zen.total_customers).toBe(1);
    expect(zen.collections.every((c: { amount_paise: number }) => c.amount_paise === 0)).toBe(true);
  });
});
