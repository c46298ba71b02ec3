/** Multiple lock/unlock, schedules that survive restarts, and the dues run's device policies. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { createEmmAuthSession } from '@kisht/domain/emm-auth';
import { CONSOLE_HEADERS, RAVI, SUNITA, startTestApp, type TestApp } from './harness.ts';
import { deviceFixtures, startDeviceApp } from './device-fixtures.ts';
import { runOperatorCommand } from '../src/modules/operator/operator.service.ts';
import { buildApp, type BuiltApp } from '../src/app.ts';

let t: TestApp;
let ravi: string;
let f: ReturnType<typeof deviceFixtures>;

beforeAll(async () => {
  ({ t, ravi, f } = await startDeviceApp());
});
afterAll(() => t.stop());

describe('multiple lock/unlock', () => {
  it('makes a command per phone, reports progress and outcomes, and retries the failed ones', async () => {
    const phones = await Promise.all([f.phone(), f.phone(), f.phone()]);
    const notEnrolled = await f.customer();
    const ids = [...phones.map((p) => p.customer.id), notEnrolled.id];
    const started = await t.post('/api/device/multiple_lock_unlock', { action: 'lock', customer_ids: ids }, { token: ravi });
    expect(started.statusCode, started.body).toBe(200);
    const batch = started.json().data;
    expect(batch.total).toBe(4);
    // Written when the answer comes; publishing may still be under way.
    expect(batch.counts.queued + batch.counts.sent).toBe(3);
    expect(batch.counts.skipped).toBe(1);
    expect(batch.items.find((i: { customer_id: number }) => i.customer_id === notEnrolled.id)).toMatchObject({ state: 'skipped', reason: 'DEVICE_NOT_ENROLLED' });

    const [a, b, c] = phones;
    await a!.phone.ack(await a!.phone.next(), 'done');
    await b!.phone.ack(await b!.phone.next(), 'failed', { error: 'device_admin_disabled' });
    const cCommand = await c!.phone.next();
    await c!.phone.ack(cCommand, 'delivered');
    const progress = async () => (await t.get(`/api/device/multiple_lock_unlock?batch_id=${batch.id}`, { token: ravi })).json().data;
    await expect.poll(async () => (await progress()).counts).toMatchObject({ done: 1, failed: 1, delivered: 1, skipped: 1 });
    expect((await progress()).items.find((i: { customer_id: number }) => i.customer_id === b!.customer.id)).toMatchObject({ state: 'failed', reason: 'device_admin_disabled' });

    const retried = (await t.post('/api/device/multiple_lock_unlock/retry', { batch_id: batch.id }, { token: ravi })).json().data;
    expect(retried.counts).toMatchObject({ done: 1, failed: 0, sent: 1, delivered: 1 });
    const again = await b!.phone.next();
    expect(again.type).toBe('lock');
    await b!.phone.ack(again, 'done');
    await c!.phone.ack(cCommand, 'done');
    await expect.poll(async () => (await progress()).counts).toMatchObject({ done: 3, skipped: 1 });
    for (const p of phones) expect((await f.profile(p.customer.id)).lock_status).toBe(1);
    for (const p of phones) await p.phone.close();
  });

  it('picks phones by filter: only the ones the action makes sense for', async () => {
    const locked = await f.phone();
    await t.post('/api/device/lock', { customer_id: locked.customer.id }, { token: ravi });
    await locked.phone.ack(await locked.phone.next(), 'done');
    await expect.poll(async () => (await f.profile(locked.customer.id)).lock_status).toBe(1);
    const batch = (await t.post('/api/device/multiple_lock_unlock', { action: 'unlock', filter: { status: 'install' } }, { token: ravi })).json().data;
    expect(batch.items.map((i: { customer_id: number }) => i.customer_id)).toContain(locked.customer.id);
    expect(batch.items.every((i: { state: string }) => i.state !== 'skipped')).toBe(true);
    await locked.phone.close();
  });

  it('refuses an empty choice and another network\'s batch', async () => {
    expect((await t.post('/api/device/multiple_lock_unlock', { action: 'lock' }, { token: ravi })).statusCode).toBe(400);
    // An id nobody can see refuses the whole request, like a profile read.
    expect((await t.post('/api/device/multiple_lock_unlock', { action: 'lock', customer_ids: [999999] }, { token: ravi })).statusCode).toBe(404);
    const mine = (await t.post('/api/device/multiple_lock_unlock', { action: 'lock', customer_ids: [(await f.customer()).id] }, { token: ravi })).json().data;
    const sunita = (await t.signIn((await import('./harness.ts')).MEENA)).token;
    expect((await t.get(`/api/device/multiple_lock_unlock?batch_id=${mine.id}`, { token: sunita })).statusCode).toBe(404);
    expect((await t.post('/api/device/multiple_lock_unlock/retry', { batch_id: mine.id }, { token: sunita })).statusCode).toBe(404);
  });
});

describe('multiple lock/unlock by filter', () => {
  it("takes what the caller's list shows: a mini-retailer only her own customers, her parent his whole network", async () => {
    const sunita = (await t.signIn(SUNITA)).token;
    const hers = await f.phone({ token: sunita });
    const his = await f.phone();
    /** Every id of the caller's list of installed, unlocked customers, page by page. */
    const listed = async (token: string, search?: string) => {
      const ids: number[] = [];
      for (let page = 1; ; page++) {
        const query = new URLSearchParams({ status: 'install', lock_status: '0', limit: '100', page: String(page), ...(search ? { search } : {}) });
        const items = (await t.get(`/api/customer/get_customers_keygen?${query.toString()}`, { token })).json().data.items as Array<{ id: number }>;
        ids.push(...items.map((i) => i.id));
        if (items.length < 100) return ids.sort((a, b) => a - b);
      }
    };
    const batchIds = async (token: string, search?: string) => {
      const res = await t.post('/api/device/multiple_lock_unlock', { action: 'lock', filter: { status: 'install', ...(search ? { search } : {}) } }, { token });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data.items as Array<{ customer_id: number }>).map((i) => i.customer_id).sort((a, b) => a - b);
    };
    const sunitas = await listed(sunita);
    expect(sunitas).toContain(hers.customer.id);
    expect(sunitas).not.toContain(his.customer.id);
    expect(await batchIds(sunita)).toEqual(sunitas);
    // The parent's customer is not found by its IMEI either.
    expect(await listed(sunita, his.customer.imei1)).toEqual([]);
    expect(await batchIds(sunita, his.customer.imei1)).toEqual([]);
    // The locks above are not confirmed yet, so both customers are still unlocked in the parent's list.
    const ravis = await listed(ravi);
    expect(ravis).toEqual(expect.arrayContaining([hers.customer.id, his.customer.id]));
    expect(await batchIds(ravi)).toEqual(ravis);
    expect(await batchIds(ravi, hers.customer.imei1)).toEqual([hers.customer.id]);
    await hers.phone.close();
    await his.phone.close();
  });
});

describe('a batch larger than one chunk (two customers per transaction here)', () => {
  let t2: TestApp;
  let ravi2: string;
  let f2: ReturnType<typeof deviceFixtures>;
  beforeAll(async () => {
    t2 = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000, bulkChunk: 2 } });
    ravi2 = (await t2.signIn(RAVI)).token;
    f2 = deviceFixtures(t2, () => ravi2);
  });
  afterAll(() => t2.stop());

  const progress = async (batchId: string) => (await t2.get(`/api/device/multiple_lock_unlock?batch_id=${batchId}`, { token: ravi2 })).json().data;
  const perCustomer = async (batchId: string) => (await t2.db.query<{ customer_id: number; n: number }>(
    'SELECT customer_id, count(*)::int AS n FROM device_commands WHERE batch_id = $1 GROUP BY customer_id ORDER BY customer_id', [batchId],
  )).rows;
  const lease = async (batchId: string) => (await t2.db.query<{ lease_until: Date | null }>('SELECT lease_until FROM command_batches WHERE id = $1', [batchId])).rows[0]!.lease_until;

  it('answers with the first chunk written and the rest counted as queued, then writes the rest: one command per phone', async () => {
    const phones = await Promise.all(Array.from({ length: 7 }, () => f2.phone()));
    const res = await t2.post('/api/device/multiple_lock_unlock', { action: 'lock', customer_ids: phones.map((p) => p.customer.id) }, { token: ravi2 });
    expect(res.statusCode, res.body).toBe(200);
    const batch = res.json().data;
    expect(batch.total).toBe(7);
    expect(batch.counts.queued + batch.counts.sent).toBe(7);
    const unwritten = (batch.items as Array<{ command_id: string | null; state: string }>).filter((i) => i.command_id === null);
    expect(unwritten).toHaveLength(5);
    expect(unwritten.every((i) => i.state === 'queued')).toBe(true);

    for (const { phone } of phones) {
      const command = await phone.next();
      expect(command.type).toBe('lock');
      await phone.ack(command, 'done');
    }
    await expect.poll(async () => (await progress(batch.id)).counts).toMatchObject({ done: 7, queued: 0, sent: 0 });
    expect((await perCustomer(batch.id)).map((r) => r.n)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    await expect.poll(() => lease(batch.id)).toBeNull();
    for (const { phone } of phones) {
      expect(new Set(phone.received.map((c) => c.id)).size).toBe(1);
      await phone.close();
    }
  });

  it("is finished exactly once by another node's sweep when the node that answered stopped before writing the rest", async () => {
    const phones = await Promise.all(Array.from({ length: 5 }, () => f2.phone()));
    // A second node on the same database, with its own broker; it stops writing (as if it died) before it answers.
    const node: BuiltApp = await buildApp(t2.config, { db: t2.db, secret: t2.secret });
    await node.services.devices.stop();
    const url = '/api/device/multiple_lock_unlock';
    const res = await node.app.inject({
      method: 'POST', url, payload: { action: 'lock', customer_ids: phones.map((p) => p.customer.id) },
      headers: { ...CONSOLE_HEADERS, authorization: `Bearer ${ravi2}`, 'x-emm-auth-session': await createEmmAuthSession(url, t2.config.APP_ORG_ID) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const batch = res.json().data;
    await node.close();
    expect(await perCustomer(batch.id)).toHaveLength(2);

    // The surviving node counts what is not written yet as queued, without a command.
    const before = await progress(batch.id);
    expect(before.total).toBe(5);
    expect(before.counts.queued + before.counts.sent).toBe(5);
    expect((before.items as Array<{ command_id: string | null }>).filter((i) => i.command_id === null)).toHaveLength(3);
    // The stopped node published its chunk on its own broker: the phones get it when the sweep sends it again.
    await t2.services.devices.channel.sweep(0, 0);

    // Within the lease nobody takes the batch over; once it has run out, the next sweep finishes it, once.
    expect(await t2.services.devices.resumeBatches()).toBe(0);
    expect(await perCustomer(batch.id)).toHaveLength(2);
    await t2.db.query(`UPDATE command_batches SET lease_until = now() - interval '1 second' WHERE id = $1`, [batch.id]);
    await t2.services.deviceWork();
    expect((await perCustomer(batch.id)).map((r) => r.n)).toEqual([1, 1, 1, 1, 1]);
    expect(await lease(batch.id)).toBeNull();
    expect(await t2.services.devices.resumeBatches()).toBe(0);

    for (const { phone } of phones) {
      const command = await phone.next();
      expect(command.type).toBe('lock');
      await phone.ack(command, 'done');
    }
    await expect.poll(async () => (await progress(batch.id)).counts).toMatchObject({ done: 5, queued: 0, sent: 0 });
    // One command each (the sweep may have sent the stopped node's twice; a phone takes each seq once).
    for (const { phone, customer } of phones) {
      expect(new Set(phone.received.map((c) => c.id)).size).toBe(1);
      expect((await f2.profile(customer.id)).lock_status).toBe(1);
      await phone.close();
    }
  });
});

describe('schedules', () => {
  it('lock at the set time, once, from the database (a restart loses nothing)', async () => {
    const { customer: c, phone } = await f.phone();
    expect((await t.post('/api/device/schedule_lock_unlock', { customer_id: c.id, action: 'lock', run_at: new Date(Date.now() - 1000).toISOString() }, { token: ravi })).json().code).toBe('VALIDATION_FAILED');
    const res = await t.post('/api/device/schedule_lock_unlock', { customer_id: c.id, action: 'lock', run_at: new Date(Date.now() + 3_600_000).toISOString(), note: 'Second EMI missed' }, { token: ravi });
    expect(res.statusCode, res.body).toBe(200);
    const schedule = res.json().data;
    expect(await t.services.devices.runSchedules()).toBe(0);
    await t.db.query(`UPDATE device_schedules SET run_at = now() - interval '1 second' WHERE id = $1`, [schedule.id]);
    expect(await t.services.devices.runSchedules()).toBe(1);
    expect(await t.services.devices.runSchedules()).toBe(0);
    const command = await phone.next();
    expect(command).toMatchObject({ type: 'lock', payload: { lock_screen: { message: 'Second EMI missed' } } });
    const list = (await t.get(`/api/device/schedules?customer_id=${c.id}`, { token: ravi })).json().data;
    expect(list[0]).toMatchObject({ id: schedule.id, state: 'done', command_id: command.id });
    expect((await f.commands(c.id))[0]).toMatchObject({ origin: 'schedule' });
    await phone.close();
  });

  it('can be cancelled before they run', async () => {
    const { customer: c, phone } = await f.phone();
    await phone.close();
    const schedule = (await t.post('/api/device/schedule_lock_unlock', { customer_id: c.id, action: 'lock', run_at: new Date(Date.now() + 60_000).toISOString() }, { token: ravi })).json().data;
    expect((await t.post('/api/device/schedule_cancel', { schedule_id: schedule.id }, { token: ravi })).json().data.state).toBe('cancelled');
    expect((await t.post('/api/device/schedule_cancel', { schedule_id: schedule.id }, { token: ravi })).statusCode).toBe(409);
    await t.db.query(`UPDATE device_schedules SET run_at = now() - interval '1 second' WHERE id = $1`, [schedule.id]);
    expect(await t.services.devices.runSchedules()).toBe(0);
  });
});

describe('dues policies', () => {
  it('send EMI reminders to the phone, auto-lock the overdue and unlock them once paid', async () => {
    const today = todayInIndia();
    const { customer: c, phone } = await f.phone();
    // The first instalment fell due ten days ago.
    await t.db.query(`UPDATE emi_instalments SET due_date = due_date - (SELECT min(due_date) FROM emi_instalments WHERE customer_id = $1) + $2::date WHERE customer_id = $1`, [c.id, addDays(today, -10)]);
    const org = (await t.db.query<{ org_id: number }>('SELECT org_id FROM customers WHERE id = $1', [c.id])).rows[0]!.org_id;
    await t.db.query('UPDATE organizations SET auto_lock_days_overdue = 7, auto_unlock_when_paid = true WHERE id = $1', [org]);
    await t.db.query(`INSERT INTO customer_events (org_id, account_id, customer_id, type, event_date, payload)
      SELECT org_id, account_id, id, 'emi_overdue', $2, '{"days_past_due": 10, "overdue_paise": 100000}' FROM customers WHERE id = $1`, [c.id, today]);
    await t.db.query(`INSERT INTO customer_events (org_id, account_id, customer_id, type, event_date, payload)
      SELECT org_id, account_id, id, 'emi_reminder', $2, '{"due_date": "2026-12-01", "amount_paise": 100000}' FROM customers WHERE id = $1`, [c.id, today]);
    expect(await t.services.policies.handleEvents()).toEqual({ alerts: 1, locks: 1 });
    expect(await t.services.policies.handleEvents()).toEqual({ alerts: 0, locks: 0 });
    const first = await phone.next();
    const second = await phone.next();
    const lock = [first, second].find((m) => m.type === 'lock')!;
    const alert = [first, second].find((m) => m.type === 'emi_alert')!;
    expect(alert.payload).toMatchObject({ amount_due: 100000, due_date: '2026-12-01', message: expect.stringContaining('₹') });
    expect((lock.payload as { lock_screen: { amount_due: number } }).lock_screen.amount_due).toBeGreaterThan(0);
    await phone.ack(lock, 'done');
    await expect.poll(async () => (await f.profile(c.id)).lock_status).toBe(1);

    expect(await t.services.policies.unlockPaid()).toBe(0);
    await t.db.query('UPDATE emi_instalments SET paid_paise = amount_paise + penalty_paise WHERE customer_id = $1 AND due_date < $2', [c.id, today]);
    expect(await t.services.policies.unlockPaid()).toBe(1);
    const unlock = await phone.next();
    expect(unlock).toMatchObject({ type: 'unlock' });
    await phone.ack(unlock, 'done');
    await expect.poll(async () => (await f.profile(c.id)).lock_status).toBe(0);
    await t.db.query('UPDATE organizations SET auto_lock_days_overdue = 0, auto_unlock_when_paid = false WHERE id = $1', [org]);
    await phone.close();
  });
});

describe('operator settings for the device side', () => {
  it('set the organisation\'s device policies and a retailer\'s UPI address, refusing bad values', async () => {
    const lines: string[] = [];
    const print = (line: string) => lines.push(line);
    expect(await runOperatorCommand(t.db, ['device-policy', '46', 'lock_on_sim_change=on', 'auto_lock_days_overdue=5'], print)).toBe(0);
    expect((await t.db.query('SELECT lock_on_sim_change, auto_lock_days_overdue FROM organizations WHERE id = 46')).rows[0]).toEqual({ lock_on_sim_change: true, auto_lock_days_overdue: 5 });
    expect(await runOperatorCommand(t.db, ['device-policy', '46', 'offline_lock_days=0'], print)).toBe(1);
    expect(await runOperatorCommand(t.db, ['device-policy', '46', 'lock_on_sim_change=maybe'], print)).toBe(1);
    expect(await runOperatorCommand(t.db, ['device-policy', '46', 'colour=blue'], print)).toBe(1);
    expect(await runOperatorCommand(t.db, ['device-policy', '46', 'lock_on_sim_change=off', 'auto_lock_days_overdue=0'], print)).toBe(0);

    expect(await runOperatorCommand(t.db, ['upi', RAVI, 'not a vpa'], print)).toBe(1);
    expect(await runOperatorCommand(t.db, ['upi', RAVI, 'ravi.kumar@okicici'], print)).toBe(0);
    const { customer: c, phone } = await f.phone();
    await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi });
    const lock = await phone.next();
    expect((lock.payload as { lock_screen: { upi: string } }).lock_screen.upi).toMatch(/^upi:\/\/pay\?pa=ravi\.kumar@okicici&pn=/);
    await phone.close();
  });
});
