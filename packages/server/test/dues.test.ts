import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { startTestApp, RAVI, type TestApp } from './harness.ts';
import { deviceFixtures } from './device-fixtures.ts';
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
  // Organisation 23 locks phones 7 days overdue: crossing that is one of the changes worth an overdue notice.
  await t.db.query('UPDATE organizations SET auto_lock_days_overdue = 7 WHERE id = 23');
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
/** The overdue notices of a day, by customer. */
async function overdueOn(day: string): Promise<Map<number, { days_past_due: number; overdue_paise: number }>> {
  const rows = (await t.db.query<{ customer_id: number; payload: { days_past_due: number; overdue_paise: number } }>(
    `SELECT customer_id, payload FROM customer_events WHERE type = 'emi_overdue' AND event_date = $1`, [day],
  )).rows;
  return new Map(rows.map((r) => [r.customer_id, r.payload]));
}

describe('the daily dues run', () => {
  it('applies penalties past the grace days, completes paid loans, marks maturing ones and emits events, once a day', async () => {
    const late = await enrol(addDays(today, -10)); // past org 23's 3 grace days: Rs 50 flat penalty
    const grace = await enrol(addDays(today, -1)); // still within grace
    const quiet = await enrol(addDays(today, -5)); // overdue, but neither new today nor past the lock threshold
    const soon = await enrol(addDays(today, 2)); // a reminder
    const paid = await enrol(addDays(today, 5));
    const maturing = await enrol(addDays(today, -45));
    await t.post('/api/emi/multiple_emi_paid', { customer_id: paid.id, amount_paise: 300_000, method: 'cash' }, { token });
    await t.post('/api/emi/multiple_emi_paid', { customer_id: maturing.id, amount_paise: 100_000, method: 'cash' }, { token });
    await t.db.query('UPDATE customers SET install_status = 1 WHERE id = $1', [maturing.id]); // the device is installed

    const first = await t.services.dues.runDue(today);
    expect(first.get(23)).toMatchObject({ penalties: 3, completed: 1, maturing: 1, overdue: 3 });

    expect(await row('SELECT penalty_paise FROM emi_instalments WHERE customer_id = $1 AND number = 1', [late.id])).toEqual({ penalty_paise: 5000 });
    expect(await row('SELECT penalty_paise FROM emi_instalments WHERE customer_id = $1 AND number = 1', [grace.id])).toEqual({ penalty_paise: 0 });
    expect(await row('SELECT install_status FROM customers WHERE id = $1', [paid.id])).toEqual({ install_status: 5 });
    expect(await row('SELECT install_status FROM customers WHERE id = $1', [maturing.id])).toEqual({ install_status: 6 });
    const events = (await t.db.query<{ customer_id: number; type: string; payload: Record<string, number> }>('SELECT customer_id, type, payload FROM customer_events ORDER BY id')).rows;
    expect(events.filter((e) => e.type === 'emi_reminder').map((e) => e.customer_id)).toContain(soon.id);
    // Overdue notices on a first run: the loans past the lock threshold, and those at their first overdue day.
    const overdue = await overdueOn(today);
    expect(overdue.get(late.id)).toEqual({ days_past_due: 10, overdue_paise: 105_000 });
    expect(overdue.get(grace.id)).toEqual({ days_past_due: 1, overdue_paise: 100_000 });
    expect(overdue.get(maturing.id)).toMatchObject({ overdue_paise: 105_000 }); // its second instalment, a month after the first
    expect(overdue.has(quiet.id)).toBe(false);
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
    // Each organisation's day is claimed in its own transaction, so wait for the scheduler's first run to finish
    // rather than for the first claim to appear.
    let firstRun!: (value: unknown) => void;
    const finished = new Promise((resolve) => { firstRun = resolve; });
    const service = {
      runDue: async () => { const result = await t.services.dues.runDue(tomorrow); firstRun(result); return result; },
      rerun: t.services.dues.rerun,
    };
    const stop = startDuesScheduler(service, 50, (error) => { throw error; });
    await finished;
    stop();
    const runs = (await t.db.query<{ org_id: number }>('SELECT org_id FROM dues_runs WHERE run_date = $1 ORDER BY org_id', [tomorrow])).rows;
    expect(runs.map((r) => r.org_id)).toEqual([23, 46]);
  });

  it('sends an overdue notice when a loan changes, not every day: the first overdue day, then the lock threshold, which locks the phone', async () => {
    const f = deviceFixtures(t, () => token);
    const { customer: owner, phone } = await f.phone({ first_due_date: addDays(today, 1) });
    const quiet = (await t.db.query<{ id: number }>(`SELECT id FROM customers WHERE first_due_date = $1 AND last_name LIKE 'Case%'`, [addDays(today, -5)])).rows[0]!.id;

    // Its first overdue day: a notice, and no lock yet (1 day of 7). The quiet loan of the first test reaches 7 days on the same day.
    const day2 = addDays(today, 2);
    await t.services.dues.runDue(day2);
    expect((await overdueOn(day2)).get(owner.id)).toEqual({ days_past_due: 1, overdue_paise: 100_000 });
    expect((await overdueOn(day2)).get(quiet)).toMatchObject({ days_past_due: 7 });
    expect(await t.services.policies.handleEvents()).toMatchObject({ locks: 0 });

    // The next day these loans did not change: no notice for them; only loans with an instalment due the day before get one.
    const day3 = addDays(today, 3);
    await t.services.dues.runDue(day3);
    const fellDue = (await t.db.query<{ customer_id: number }>(
      'SELECT DISTINCT customer_id FROM emi_instalments WHERE due_date = $1 AND loan_active AND paid_paise < amount_paise + penalty_paise ORDER BY 1', [day2],
    )).rows.map((r) => r.customer_id);
    expect([...(await overdueOn(day3)).keys()].sort((a, b) => a - b)).toEqual(fellDue);
    expect(fellDue).not.toContain(owner.id);
    expect(fellDue).not.toContain(quiet);

    // Days missed in between are caught up: by the next run the loan has crossed the threshold, and the phone is locked.
    const day8 = addDays(today, 8);
    await t.services.dues.runDue(day8);
    expect((await overdueOn(day8)).get(owner.id)).toEqual({ days_past_due: 7, overdue_paise: 105_000 });
    expect(await t.services.policies.handleEvents()).toMatchObject({ locks: 1 });
    const lock = await phone.next();
    expect(lock).toMatchObject({ type: 'lock' });
    await phone.ack(lock, 'done');
    await expect.poll(async () => (await f.profile(owner.id)).lock_status).toBe(1);

    // The retailer unlocks it; the loan stays overdue but nothing changes, so the policy does not lock it again.
    expect((await t.post('/api/device/unlock', { customer_id: owner.id }, { token })).statusCode).toBe(200);
    const unlock = await phone.next();
    await phone.ack(unlock, 'done');
    await expect.poll(async () => (await f.profile(owner.id)).lock_status).toBe(0);
    const day9 = addDays(today, 9);
    await t.services.dues.runDue(day9);
    expect((await overdueOn(day9)).has(owner.id)).toBe(false);
    expect(await t.services.policies.handleEvents()).toMatchObject({ locks: 0 });
    expect((await f.profile(owner.id)).lock_status).toBe(0);
    await phone.close();
  });

  it('notices a new lock threshold once for every loan already past it', async () => {
    // Every loan 5 days overdue or more, and those whose instalment fell due since the previous run (day 9).
    const owed = (await t.db.query<{ customer_id: number }>(
      `SELECT DISTINCT customer_id FROM emi_instalments WHERE org_id = 23 AND loan_active AND paid_paise < amount_paise + penalty_paise
          AND (due_date <= $1::date - 5 OR due_date = $1::date - 1)`,
      [addDays(today, 10)],
    )).rows.map((r) => r.customer_id).sort((a, b) => a - b);
    expect(owed.length).toBeGreaterThan(0);
    await t.db.query('UPDATE organizations SET auto_lock_days_overdue = 5 WHERE id = 23');
    try {
      await t.services.dues.runDue(addDays(today, 10));
      expect([...(await overdueOn(addDays(today, 10))).keys()].sort((a, b) => a - b)).toEqual(owed);
      expect((await t.services.dues.runDue(addDays(today, 11))).get(23)).toMatchObject({ overdue: 0 });
    } finally {
      await t.db.query('UPDATE organizations SET auto_lock_days_overdue = 7 WHERE id = 23');
    }
  });

  it('charges a percentage penalty on what is overdue on the instalment, not on the whole instalment', async () => {
    const day = addDays(today, 12);
    const partPaid = await enrol(addDays(day, -10)); // Rs 1,000 a month
    const unpaid = await enrol(addDays(day, -10));
    await t.post('/api/emi/multiple_emi_paid', { customer_id: partPaid.id, amount_paise: 90_000, method: 'cash' }, { token });
    await t.db.query(`UPDATE organizations SET penalty_kind = 'percent', penalty_value = 200 WHERE id = 23`); // 2%
    try {
      await t.services.dues.runDue(day);
      // Rs 100 still owed: 2% is Rs 2, not the Rs 20 of the whole instalment; the unpaid one pays on all Rs 1,000.
      expect(await row('SELECT penalty_paise FROM emi_instalments WHERE customer_id = $1 AND number = 1', [partPaid.id])).toEqual({ penalty_paise: 200 });
      expect(await row('SELECT penalty_paise FROM emi_instalments WHERE customer_id = $1 AND number = 1', [unpaid.id])).toEqual({ penalty_paise: 2_000 });
      expect(await row(`SELECT amount_paise FROM penalty_charges WHERE customer_id = $1 AND source = 'dues_run'`, [partPaid.id])).toEqual({ amount_paise: 200 });
    } finally {
      await t.db.query(`UPDATE organizations SET penalty_kind = 'flat', penalty_value = 5000 WHERE id = 23`);
    }
  });
});
