/**
 * What the dues run reads instead of joining customers (each instalment's organisation and "active loan" flag,
 * each customer's last due date) follows every writer, through the real routes and the phone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import type { TestApp } from './harness.ts';
import { startDeviceApp, type deviceFixtures } from './device-fixtures.ts';

let t: TestApp;
let ravi: string;
let f: ReturnType<typeof deviceFixtures>;
const today = todayInIndia();

beforeAll(async () => {
  ({ t, ravi, f } = await startDeviceApp());
});
afterAll(() => t.stop());

/** The loan as the dues run sees it: install status, the flags on its instalments, its stored and real last due dates. */
async function loan(customerId: number) {
  return (await t.db.query<{ install_status: number; org_ok: boolean; active: boolean[]; last_due_date: string; last: string }>(
    `SELECT c.install_status, bool_and(e.org_id = c.org_id) AS org_ok, array_agg(DISTINCT e.loan_active) AS active,
            to_char(c.last_due_date, 'YYYY-MM-DD') AS last_due_date, to_char(max(e.due_date), 'YYYY-MM-DD') AS last
       FROM customers c JOIN emi_instalments e ON e.customer_id = c.id WHERE c.id = $1 GROUP BY c.id`,
    [customerId],
  )).rows[0]!;
}

const post = (url: string, body: Record<string, unknown>) => t.post(url, body, { token: ravi });
const owed = async (customerId: number) => (await t.get(`/api/emi/customer_emi_details?customer_id=${customerId}`, { token: ravi })).json().data.totals.outstanding_paise as number;

describe('the loan fields the dues run reads', () => {
  it('follow enrolment, the phone, EMI edits, completion, a reversal and an uninstall', async () => {
    const { customer: c, phone } = await f.phone({ first_due_date: addDays(today, 10) });
    // Enrolled, then installed by its phone (0, then 1): active, in organisation 23, ending with its third instalment.
    expect(await loan(c.id)).toEqual({ install_status: 1, org_ok: true, active: [true], last_due_date: expect.any(String), last: expect.any(String) });
    const enrolled = await loan(c.id);
    expect(enrolled.last_due_date).toBe(enrolled.last);

    // An added instalment takes the loan's fields and moves the end date; moving its due date back moves it back.
    expect((await post('/api/emi/add_emi_details', { customer_id: c.id, due_date: addDays(today, 200), amount_paise: 5_000 })).statusCode).toBe(200);
    expect(await loan(c.id)).toMatchObject({ org_ok: true, active: [true], last_due_date: addDays(today, 200) });
    const added = (await t.get(`/api/emi/customer_emi_details?customer_id=${c.id}`, { token: ravi })).json().data.instalments.at(-1) as { id: number };
    expect((await post('/api/emi/update_emi_details', { customer_id: c.id, instalment_id: added.id, due_date: addDays(today, 150) })).statusCode).toBe(200);
    expect(await loan(c.id)).toMatchObject({ last_due_date: addDays(today, 150), last: addDays(today, 150) });

    // Paid in full, the dues run completes it (5): its instalments leave the run.
    const paid = (await post('/api/emi/multiple_emi_paid', { customer_id: c.id, amount_paise: await owed(c.id), method: 'cash' })).json().data as { payment_id: number };
    await t.services.dues.rerun(23, today);
    expect(await loan(c.id)).toMatchObject({ install_status: 5, active: [false] });

    // A reversal reopens it: active again.
    expect((await post('/api/emi/reverse_payment', { payment_id: paid.payment_id, reason: 'cheque bounced' })).statusCode).toBe(200);
    expect(await loan(c.id)).toMatchObject({ install_status: 1, active: [true] });

    // Uninstalled through its phone (3): inactive, so a later run charges it nothing though it is long overdue.
    const otp = (await post('/api/auth/send-otp-to-user', { purpose: 'UNINSTALL', mobile: c.mobile })).json().data.request_id as string;
    const uninstall = await post('/api/device/uninstall', { customer_id: c.id, request_id: otp, otp: await t.latestOtp(c.mobile), latitude: 'Bypassed', longitude: 'Bypassed' });
    expect(uninstall.statusCode, uninstall.body).toBe(200);
    await phone.ack(await phone.next(), 'done');
    await expect.poll(async () => (await loan(c.id)).install_status).toBe(3);
    expect(await loan(c.id)).toMatchObject({ active: [false] });
    await t.services.dues.rerun(23, addDays(today, 90));
    expect((await t.db.query('SELECT 1 FROM emi_instalments WHERE customer_id = $1 AND penalty_paise > 0', [c.id])).rows).toEqual([]);
    await phone.close();
  });

  it('go with a cancelled enrolment, and an instalment with penalty lines cannot be deleted', async () => {
    const cancelled = await f.customer();
    expect((await loan(cancelled.id)).active).toEqual([true]);
    expect((await post('/api/customer/cancel_enrolment', { customer_id: cancelled.id })).statusCode).toBe(200);
    expect((await t.db.query('SELECT 1 FROM emi_instalments WHERE customer_id = $1', [cancelled.id])).rows).toEqual([]);

    const charged = await f.customer({ first_due_date: addDays(today, 5) });
    const first = (await t.get(`/api/emi/customer_emi_details?customer_id=${charged.id}`, { token: ravi })).json().data.instalments[0] as { id: number };
    expect((await post('/api/emi/send_penalty', { customer_id: charged.id, instalment_id: first.id, amount_paise: 2_000, reason: 'late' })).statusCode).toBe(200);
    await expect(t.db.query('DELETE FROM emi_instalments WHERE id = $1', [first.id])).rejects.toThrow(/penalty charges/);
    expect((await post('/api/customer/cancel_enrolment', { customer_id: charged.id })).statusCode).not.toBe(200);
  });

  it('agree with the customers for every loan in the database', async () => {
    const disagree = await t.db.query(
      `SELECT c.id FROM customers c JOIN emi_instalments e ON e.customer_id = c.id
        GROUP BY c.id
       HAVING bool_or(e.org_id <> c.org_id OR e.loan_active <> (c.install_status NOT IN (3, 5))) OR c.last_due_date IS DISTINCT FROM max(e.due_date)`,
    );
    expect(disagree.rows).toEqual([]);
    expect((await t.db.query('SELECT count(*)::int AS n FROM emi_instalments')).rows[0]).not.toEqual({ n: 0 });
  });
});
