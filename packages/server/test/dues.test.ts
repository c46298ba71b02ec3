import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { startTestApp, RAVI, type TestApp } from './harness.ts';
import { startDuesScheduler } from '../src/modules/dues/dues.service.ts';

let t: TestApp;
let token: string;
let productId: number;
const today = todayInIndia();
let seq = 1;

beforeAll(async () => {
  t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 } });
  token = (await t.signIn(RAVI)).token;
  const products = (await t.get('/api/products', { token })).json().data as Array<{ id: number; product_type: number }>;
  productId = products.find((p) => p.product_type === 0)!.id;
});
afterAll(() => t.stop());

/** Rs 3,000 at 0% over 3 months, first instalment due on `firstDue`. */
async function enrol(firstDue: string, imei = withImeiCheckDigit(`3533333333${String(seq++).padStart(4, '0')}`)) {
  const res = await t.post('/api/customer', {
    first_name: 'Dues', last_name: `Case${seq}`, mobile: '+919812300055', device_brand: 'Nokia', device_model: 'G42', imei1: imei,
    provisioning_type: 0, product_id: productId, price_paise: 300_000, down_payment_paise: 0, annual_rate_bps: 0, interest_method: 'flat',
    tenure_months: 3, start_date: addDays(firstDue, -30), first_due_date: firstDue,
  }, { token });
  expect(res.statusCode).toBe(200);
  return res.json().data.customer as { id: number; imei1: string };
}

const row = async (sql: string, params: unknown[]) => (await t.db.query<Record<string, unknown>>(sql, params)).rows[0]!;

describe('the daily dues run', () => {
  it('applies penalties past the grace days, completes paid loans, marks maturing ones and emits events, once a day', async () => {
    const late = await enrol(addDays(today, -10)); // past org 23's 3 grace days: Rs 50 flat penalty
    const grace = await enrol(addDays(today, -1)); // still within grace
    const soon = await enrol(addDays(today, 2)); // a reminder
    const paid = await enrol(addDays(today, 5));
    const maturing = await enrol(addDays(today, -45));
    await t.post('/api/emi/multiple_emi_paid', { customer_id: paid.id, amount_paise: 300_000, method: 'cash' }, { token });
    await t.post('/api/emi/multiple_emi_paid', { customer_id: maturing.id, amount_paise: 100_000, method: 'cash' }, { token });
    await t.db.query('UPDATE customers SET install_status = 1 WHERE id = $1', [maturing.id]); // the device is installed

    const first = await t.services.dues.runDue(today);
    expect(first.get(23)).toMatchObject({ penalties: 2, completed: 1, maturing: 1 });

    expect(await row('SELECT penalty_paise FROM emi_instalments WHERE customer_id = $1 AND number = 1', [late.id])).toEqual({ penalty_paise: 5000 });
    expect(await row('SELECT penalty_paise FROM emi_instalments WHERE customer_id = $1 AND number = 1', [grace.id])).toEqual({ penalty_paise: 0 });
    expect(await row('SELECT install_status FROM customers WHERE id = $1', [paid.id])).toEqual({ install_status: 5 });
    expect(await row('SELECT install_status FROM customers WHERE id = $1', [maturing.id])).toEqual({ install_status: 6 });
    const events = (await t.db.query<{ customer_id: number; type: string; payload: Record<string, number> }>('SELECT customer_id, type, payload FROM customer_events ORDER BY id')).rows;
    expect(events.filter((e) => e.type === 'emi_reminder').map((e) => e.customer_id)).toContain(soon.id);
    const overdue = events.find((e) => e.type === 'emi_overdue' && e.customer_id === late.id)!;
    expect(overdue.payload.days_past_due).toBe(10);
    expect(overdue.payload.overdue_paise).toBe(105_000);
    expect(events.some((e) => e.type === 'loan_completed' && e.customer_id === paid.id)).toBe(true);

    // The EMI view shows the penalty; the completed loan's IMEI is free for a new loan.
    const details = (await t.get(`/api/emi/customer_emi_details?customer_id=${late.id}`, { token })).json().data;
    expect(details.instalments[0]).toMatchObject({ penalty_paise: 5000, outstanding_paise: 105_000, status: 'overdue' });
    expect((await enrol(addDays(today, 30), paid.imei1)).imei1).toBe(paid.imei1);

    // Safe to run twice: the day is claimed, and a forced rerun changes nothing already done.
    const eventCount = (await row('SELECT count(*)::int AS n FROM customer_events', [])).n;
    expect((await t.services.dues.runDue(today)).size).toBe(0);
    const again = await t.services.dues.rerun(23, today);
    expect(again).toMatchObject({ penalties: 0, completed: 0, maturing: 0, reminders: 0, overdue: 0 });
    expect(await row('SELECT penalty_paise FROM emi_instalments WHERE customer_id = $1 AND number = 1', [late.id])).toEqual({ penalty_paise: 5000 });
    expect((await row('SELECT count(*)::int AS n FROM customer_events', [])).n).toBe(eventCount);
  });

  it('is started by a scheduler that survives restarts by asking the database what has run', async () => {
    const tomorrow = addDays(today, 1);
    const service = { runDue: () => t.services.dues.runDue(tomorrow), rerun: t.services.dues.rerun };
    const stop = startDuesScheduler(service, 50, (error) => { throw error; });
    for (let i = 0; i < 50 && !(await row('SELECT count(*)::int AS n FROM dues_runs WHERE run_date = $1', [tomorrow])).n; i++) await new Promise((r) => setTimeout(r, 50));
    stop();
    const runs = (await t.db.query<{ org_id: number }>('SELECT org_id FROM dues_runs WHERE run_date = $1 ORDER BY org_id', [tomorrow])).rows;
    expect(runs.map((r) => r.org_id)).toEqual([23, 46]);
  });
});
