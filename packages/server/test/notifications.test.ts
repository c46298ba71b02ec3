/**
 * Notifications for retailers (issue 14): written in the transaction of what they tell of, to the customer's seller
 * and every member above it (never a sibling, a child or another network), read and marked read by their recipient
 * only.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_STOCK_LOW_MAX } from '@kisht/domain/key-stock';
import { todayInIndia } from '@kisht/domain/format';
import { MEENA, SUNITA, type TestApp } from './harness.ts';
import { startDeviceApp, type deviceFixtures } from './device-fixtures.ts';

let t: TestApp;
let ravi: string;
let sunita: string;
let meena: string;
let f: ReturnType<typeof deviceFixtures>;

beforeAll(async () => {
  ({ t, ravi, f } = await startDeviceApp());
  sunita = (await t.signIn(SUNITA)).token;
  meena = (await t.signIn(MEENA)).token;
});
afterAll(async () => {
  await t?.close();
});

type Item = { id: number; kind: string; customer_id: number | null; customer_name: string | null; data: Record<string, unknown>; read: boolean };
const page = async (token: string, query = '') => (await t.get(`/api/notifications?limit=50${query}`, { token })).json().data as { items: Item[]; unread: number; has_more: boolean };
const kinds = async (token: string) => (await page(token)).items.map((i) => `${i.kind}:${i.customer_id ?? '-'}`);

describe('notifications', () => {
  it("tell a SIM change to the seller and the members above it, not to a child or another network; each marks its own read", async () => {
    const before = { ravi: (await page(ravi)).unread, sunita: (await page(sunita)).unread, meena: (await page(meena)).unread };
    // Sold by Sunita (a mini-retailer under Ravi): both hear of it.
    const mine = await f.phone({ token: sunita });
    await mine.phone.send({ kind: 'sim_change', old: [{ slot: 0, operator: 'Jio' }], new: [{ slot: 0, operator: 'Airtel', number: '+919000000001' }] } as never);
    // Sold by Ravi: Sunita does not see his customers, so she is not told.
    const his = await f.phone();
    await his.phone.send({ kind: 'sim_change', old: [{ slot: 0, operator: 'Jio' }], new: [] } as never);

    await expect.poll(async () => (await page(ravi)).unread).toBe(before.ravi + 2);
    expect((await page(sunita)).unread).toBe(before.sunita + 1);
    expect((await page(meena)).unread).toBe(before.meena);
    const first = (await page(sunita)).items[0]!;
    expect(first).toMatchObject({ kind: 'sim_change', customer_id: mine.customer.id, customer_name: expect.stringContaining('Device Owner'), data: { operator: 'Airtel' }, read: false });
    expect(await kinds(sunita)).not.toContain(`sim_change:${his.customer.id}`);

    // Someone else's ids change nothing; one's own are marked, then all.
    const ravis = (await page(ravi)).items.map((i) => i.id);
    const refused = await t.post('/api/notifications/read', { ids: ravis.slice(0, 2) }, { token: meena });
    expect(refused.statusCode).toBe(200);
    expect((await page(ravi)).unread).toBe(before.ravi + 2);
    const one = await t.post('/api/notifications/read', { ids: [ravis[0]] }, { token: ravi });
    expect(one.json().data.unread).toBe(before.ravi + 1);
    expect((await page(ravi, '&unread=true')).items.map((i) => i.id)).not.toContain(ravis[0]);
    expect((await t.post('/api/notifications/read', {}, { token: ravi })).json().data).toEqual({ unread: 0 });
    expect((await t.get('/api/notifications/count', { token: ravi })).json().data).toEqual({ unread: 0 });
    // Sunita's stay unread.
    expect((await page(sunita)).unread).toBe(before.sunita + 1);
  });

  it('tell a command the shop sent that failed on the phone or expired before reaching it, not a command that worked', async () => {
    const { customer, phone } = await f.phone();
    const failing = await t.post('/api/device/fetch_location', { customer_id: customer.id }, { token: ravi });
    expect(failing.statusCode, failing.body).toBe(200);
    const command = await phone.next();
    await phone.ack(command, 'failed', { error: 'location_unavailable' });
    await expect.poll(async () => await kinds(ravi)).toContain(`command_failed:${customer.id}`);
    expect((await page(ravi)).items.find((i) => i.kind === 'command_failed')!.data).toEqual({ command: 'fetch_location', error: 'location_unavailable' });

    const working = await t.post('/api/device/reboot', { customer_id: customer.id }, { token: ravi });
    await phone.ack(await phone.next(), 'done');
    await t.db.query("UPDATE device_commands SET expires_at = now() - interval '1 second' WHERE id = $1", [working.json().data.id]);
    const lost = await t.post('/api/device/sim_info', { customer_id: customer.id }, { token: ravi });
    await t.db.query("UPDATE device_commands SET expires_at = now() - interval '1 second' WHERE id = $1", [lost.json().data.id]);
    await t.services.devices.channel.sweep();
    const expired = (await page(ravi)).items.filter((i) => i.kind === 'command_expired' && i.customer_id === customer.id);
    expect(expired.map((i) => i.data.command)).toEqual(['sim_info']);
  });

  it("tell a customer's \"I paid\" once, not each press folded into it", async () => {
    const { customer, device } = await f.phone();
    const claim = (amount: number) => t.post('/api/device/payment_claim', { amount_paise: amount }, { emm: false, headers: { authorization: f.basic(device) } });
    expect((await claim(150_000)).statusCode).toBe(200);
    expect((await claim(150_000)).statusCode).toBe(200);
    const told = (await page(ravi)).items.filter((i) => i.kind === 'payment_claim' && i.customer_id === customer.id);
    expect(told).toHaveLength(1);
    expect(told[0]!.data).toEqual({ amount_paise: 150_000 });
  });

  it('tell a parent that a child asks for keys, and the child that they came; keys running low at an enrolment', async () => {
    const sunitaId = (await t.signIn(SUNITA)).userId;
    const asked = await t.post('/api/keys/transfer', { id: randomUUID(), kind: 'request', product_type: 0, quantity: 3 }, { token: sunita });
    expect(asked.statusCode, asked.body).toBe(200);
    const request = (await page(ravi)).items.find((i) => i.kind === 'key_request')!;
    expect(request.data).toMatchObject({ count: 3, product_type: 0, from_name: expect.any(String) });
    await t.post('/api/keys/decide', { transfer_id: asked.json().data.id, decision: 'approve' }, { token: ravi });
    const received = (await page(sunita)).items.find((i) => i.kind === 'keys_received')!;
    expect(received.data).toMatchObject({ count: 3, product_type: 0 });
    expect(received.data.from_name).not.toBe('');
    expect((await page(meena)).items.map((i) => i.kind)).not.toContain('key_request');

    // One key above the amber line, then an enrolment: told once, not at the next.
    await t.db.query('UPDATE license_balances SET balance = $2 WHERE user_id = $1 AND product_type = 0', [sunitaId, KEY_STOCK_LOW_MAX + 1]);
    await f.customer({ token: sunita });
    await f.customer({ token: sunita });
    const low = (await page(sunita)).items.filter((i) => i.kind === 'keys_low');
    expect(low.map((i) => i.data)).toEqual([{ product_type: 0, balance: KEY_STOCK_LOW_MAX }]);
    expect((await page(ravi)).items.map((i) => i.kind)).not.toContain('keys_low');
  });

  it('tell a phone silent for three days once per silence, and the dues run what is overdue across the network', async () => {
    const { customer, device } = await f.phone();
    await f.checkIn(device, {});
    await t.db.query("UPDATE devices SET last_check_in_at = now() - interval '4 days' WHERE id = $1", [device.device_id]);
    await t.services.policies.tellSilentPhones();
    await t.services.policies.tellSilentPhones();
    const silent = (await page(ravi)).items.filter((i) => i.kind === 'phone_offline' && i.customer_id === customer.id);
    expect(silent.map((i) => i.data)).toEqual([{ days: 4 }]);
    // It checked in, then fell silent again: a new silence, told again.
    await f.checkIn(device, {});
    // (Time moved on: the telling was before that check-in, which was over three days ago.)
    await t.db.query("UPDATE devices SET last_check_in_at = now() - interval '3 days 1 hour', offline_told_at = now() - interval '4 days' WHERE id = $1", [device.device_id]);
    await t.services.policies.tellSilentPhones();
    expect((await page(ravi)).items.filter((i) => i.kind === 'phone_offline' && i.customer_id === customer.id)).toHaveLength(2);

    // An instalment past due in Ravi's network: the day's run tells Ravi (the network's top), not Sunita.
    await t.db.query(
      `UPDATE emi_instalments SET due_date = (now() AT TIME ZONE 'Asia/Kolkata')::date - 3 WHERE id = (SELECT min(id) FROM emi_instalments WHERE customer_id = $1)`,
      [customer.id],
    );
    await t.db.query(`INSERT INTO dues_summaries (account_id, retailer_id, due_date, slot, instalments, outstanding_paise)
                      SELECT c.account_id, c.retailer_id, (now() AT TIME ZONE 'Asia/Kolkata')::date - 3, 0, 1, 100000 FROM customers c WHERE c.id = $1
                      ON CONFLICT (account_id, retailer_id, due_date, slot) DO UPDATE SET instalments = dues_summaries.instalments + 1, outstanding_paise = dues_summaries.outstanding_paise + 100000`,
      [customer.id]);
    const day = todayInIndia();
    await t.services.dues.runDue(day);
    const dues = (await page(ravi)).items.filter((i) => i.kind === 'dues_run');
    expect(dues).toHaveLength(1);
    expect(Number(dues[0]!.data.instalments)).toBeGreaterThanOrEqual(1);
    expect((await page(sunita)).items.map((i) => i.kind)).not.toContain('dues_run');
    // A second call the same day runs nothing and tells nothing.
    await t.services.dues.runDue(day);
    expect((await page(ravi)).items.filter((i) => i.kind === 'dues_run')).toHaveLength(1);
  });
});
