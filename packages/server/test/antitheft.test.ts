/**
 * Anti-theft (decision 022): the owner's choice, and what a SIM change on an anti-theft phone sets off: a text to
 * the owner's alternate number and to the retailer, and lost mode with the owner's message when chosen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_TYPE } from '@kisht/domain/constants';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import type { TestApp } from './harness.ts';
import { MEENA, RAVI } from './harness.ts';
import { startDeviceApp, type deviceFixtures } from './device-fixtures.ts';

let t: TestApp;
let ravi: string;
let f: ReturnType<typeof deviceFixtures>;

beforeAll(async () => {
  ({ t, ravi, f } = await startDeviceApp());
  // Enough anti-theft keys for every customer and renewal below (the demo seed gives five).
  await t.db.query(`UPDATE license_balances SET balance = 50 WHERE product_type = 9 AND user_id = (SELECT id FROM users WHERE mobile = $1)`, [RAVI]);
});
afterAll(async () => {
  await t?.close();
});

const OWNER_ALT = '+919700011122';
const texts = async (to: string) => (await t.db.query<{ body: string }>('SELECT body FROM sms_outbox WHERE recipient = $1 ORDER BY id', [to])).rows.map((r) => r.body);
const simChangesOf = async (customerId: number) => (await t.get(`/api/customer/customer_sim_change_details?customer_id=${customerId}`, { token: ravi })).json().data.items as Array<{ alerted_to: string[]; lost_mode_on: boolean; new_sims: Array<{ operator: string }> }>;

describe('anti-theft settings', () => {
  it('are only for anti-theft products, kept per customer, checked, and hidden from other networks', async () => {
    const plain = await f.customer();
    const refused = await t.get(`/api/customer/antitheft?customer_id=${plain.id}`, { token: ravi });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('NOT_ANTITHEFT');

    const c = await f.customer({ product_type: PRODUCT_TYPE.DPC_ANTITHEFT, alt_mobile: OWNER_ALT });
    const fresh = await t.get(`/api/customer/antitheft?customer_id=${c.id}`, { token: ravi });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json().data).toEqual({
      customer_id: c.id, lost_mode_on_sim_change: false, message: null, contact_mobile: null, alert_mobiles: [OWNER_ALT, RAVI], updated_at: null,
      // The plan of the product is a year: enrolled today, in force to the day before the same date next year.
      covered_until: addDays(todayInIndia(), 364), in_cover: true, renewal_days: 365,
    });

    const body = { customer_id: c.id, lost_mode_on_sim_change: true, message: '  Please return this phone, reward offered  ', contact_mobile: '+919700099988' };
    const saved = await t.post('/api/customer/antitheft', body, { token: ravi });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ lost_mode_on_sim_change: true, message: 'Please return this phone, reward offered', contact_mobile: '+919700099988' });
    expect(saved.json().data.updated_at).not.toBeNull();

    for (const bad of [{ message: '   ' }, { message: 'x'.repeat(161) }, { contact_mobile: '12345' }, { lost_mode_on_sim_change: 'yes' }]) {
      const res = await t.post('/api/customer/antitheft', { ...body, ...bad }, { token: ravi });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await t.get(`/api/customer/antitheft?customer_id=${c.id}`, { token: ravi })).json().data.message).toBe('Please return this phone, reward offered');

    const meena = (await t.signIn(MEENA)).token;
    expect((await t.get(`/api/customer/antitheft?customer_id=${c.id}`, { token: meena })).statusCode).toBe(404);
    expect((await t.post('/api/customer/antitheft', { ...body, message: 'mine now' }, { token: meena })).statusCode).toBe(404);
    expect((await t.get(`/api/customer/antitheft?customer_id=${c.id}`, { token: ravi })).json().data.message).toBe('Please return this phone, reward offered');
  });
});

describe('a SIM change on an anti-theft phone', () => {
  it("texts the owner's alternate number and the retailer, and turns lost mode on when the owner chose it", async () => {
    const { customer: c, phone } = await f.phone({ product_type: PRODUCT_TYPE.DPC_ANTITHEFT, alt_mobile: '+919700011133', mobile: '+919812300101' });
    await t.post('/api/customer/antitheft', { customer_id: c.id, lost_mode_on_sim_change: true, message: 'This phone is lost. Please call the owner.', contact_mobile: '+919700011133' }, { token: ravi });
    const before = (await texts(RAVI)).length;
    await phone.send({ kind: 'sim_change', old: [{ slot: 0, operator: 'Jio', iccid: '8991000000000000001' }], new: [{ slot: 0, operator: 'Vi', iccid: '8991000000000000777', number: '+919000000777' }] } as never);

    const lost = await phone.next();
    expect(lost).toMatchObject({ type: 'antitheft_lost_mode', payload: { on: true, message: 'This phone is lost. Please call the owner.', phone: '+919700011133' } });
    expect((await f.commands(c.id))[0]).toMatchObject({ type: 'antitheft_lost_mode', origin: 'sim_change' });
    await expect.poll(() => texts('+919700011133')).toHaveLength(1);
    const [owner] = await texts('+919700011133');
    expect(owner).toContain(c.imei1);
    expect(owner).toContain('SIMs in it now: Vi +919000000777');
    expect(owner).toContain('Lost mode is on');
    await expect.poll(async () => (await texts(RAVI)).length).toBe(before + 1);
    expect((await simChangesOf(c.id))[0]).toMatchObject({ alerted_to: ['+919700011133', RAVI], lost_mode_on: true, new_sims: [{ operator: 'Vi' }] });

    // The same report again (a phone that did not hear the broker's answer) sends nothing more; the next change,
    // reported after it on the same connection, is taken, so by then the repeat has been dealt with.
    await phone.send({ kind: 'sim_change', n: 1, old: [{ slot: 0, operator: 'Jio', iccid: '8991000000000000001' }], new: [{ slot: 0, operator: 'Vi', iccid: '8991000000000000777' }] } as never);
    await phone.send({ kind: 'sim_change', n: 2, old: [{ slot: 0, operator: 'Vi', iccid: '8991000000000000777' }], new: [{ slot: 0, operator: 'Jio', iccid: '8991000000000000001' }, { slot: 1, operator: 'Airtel' }] } as never);
    await expect.poll(async () => (await simChangesOf(c.id)).length).toBe(2);
    await expect.poll(() => texts('+919700011133')).toHaveLength(2);
    // A dual-SIM phone names every SIM in it now.
    expect((await texts('+919700011133'))[1]).toContain('Jio, Airtel');
    await new Promise((r) => setTimeout(r, 200));
    expect(await texts('+919700011133')).toHaveLength(2);

    // Turned on by hand without a message, anti-theft lost mode shows what the owner chose.
    const byHand = await t.post('/api/device/antitheft_lost_mode', { customer_id: c.id, on: true }, { token: ravi });
    expect(byHand.statusCode, byHand.body).toBe(200);
    expect(byHand.json().data.payload).toEqual({ on: true, message: 'This phone is lost. Please call the owner.', phone: '+919700011133' });
    await phone.close();
  });

  it('texts without lost mode when the owner did not choose it, in the customer\'s language', async () => {
    const { customer: c, phone } = await f.phone({ product_type: PRODUCT_TYPE.DPC_ANTITHEFT, alt_mobile: '+919700011144', mobile: '+919812300102' });
    await t.db.query(`UPDATE customers SET language = 'hn' WHERE id = $1`, [c.id]);
    await phone.send({ kind: 'sim_change', old: [{ slot: 0, operator: 'Jio', iccid: '8991000000000000001' }], new: [] } as never);
    await expect.poll(() => texts('+919700011144')).toHaveLength(1);
    const [text] = await texts('+919700011144');
    expect(text).toContain(c.imei1);
    expect(text).not.toContain('Alert: the SIM in');
    expect((await simChangesOf(c.id))[0]).toMatchObject({ alerted_to: ['+919700011144', RAVI], lost_mode_on: false });
    expect(await f.commands(c.id)).toHaveLength(0);
    await phone.close();
  });

  it('sends nothing for a phone without anti-theft', async () => {
    const { customer: c, phone } = await f.phone({ alt_mobile: '+919700011155', mobile: '+919812300103' });
    await phone.send({ kind: 'sim_change', old: [{ slot: 0, operator: 'Jio' }], new: [{ slot: 0, operator: 'Airtel' }] } as never);
    await expect.poll(async () => (await simChangesOf(c.id)).length).toBe(1);
    expect((await simChangesOf(c.id))[0]).toMatchObject({ alerted_to: [], lost_mode_on: false });
    expect(await texts('+919700011155')).toEqual([]);
    await phone.close();
  });
});

describe('anti-theft cover', () => {
  const keys = async () => (await t.db.query<{ balance: number }>(`SELECT balance FROM license_balances WHERE product_type = 9 AND user_id = (SELECT id FROM users WHERE mobile = $1)`, [RAVI])).rows[0]!.balance;
  const expire = (customerId: number, lastDay: string) =>
    t.db.query(`INSERT INTO antitheft_settings (customer_id, account_id, updated_by, covered_until) SELECT id, account_id, retailer_id, $2 FROM customers WHERE id = $1
                ON CONFLICT (customer_id) DO UPDATE SET covered_until = EXCLUDED.covered_until`, [customerId, lastDay]);

  it('ends: a SIM change after the last day in force alerts no one and leaves lost mode off', async () => {
    const { customer: c, phone } = await f.phone({ product_type: PRODUCT_TYPE.DPC_ANTITHEFT, alt_mobile: '+919700011166', mobile: '+919812300104' });
    await t.post('/api/customer/antitheft', { customer_id: c.id, lost_mode_on_sim_change: true, message: null, contact_mobile: null }, { token: ravi });
    await expire(c.id, addDays(todayInIndia(), -1));
    expect((await t.get(`/api/customer/antitheft?customer_id=${c.id}`, { token: ravi })).json().data).toMatchObject({ in_cover: false, covered_until: addDays(todayInIndia(), -1) });
    await phone.send({ kind: 'sim_change', old: [{ slot: 0, operator: 'Jio', iccid: '8991000000000000001' }], new: [{ slot: 0, operator: 'Vi', iccid: '8991000000000000888' }] } as never);
    await expect.poll(async () => (await simChangesOf(c.id)).length).toBe(1);
    expect((await simChangesOf(c.id))[0]).toMatchObject({ alerted_to: [], lost_mode_on: false });
    expect(await texts('+919700011166')).toEqual([]);
    expect(await f.commands(c.id)).toHaveLength(0);
    await phone.close();
  });

  it('renews with one key, from today once ended and from the last day while in force; refused without a key or outside the network', async () => {
    const c = await f.customer({ product_type: PRODUCT_TYPE.DPC_ANTITHEFT, mobile: '+919812300105' });
    const today = todayInIndia();
    await expire(c.id, addDays(today, -30));
    const before = await keys();
    const renewed = await t.post('/api/customer/antitheft/renew', { customer_id: c.id }, { token: ravi });
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(renewed.json().data).toMatchObject({ covered_until: addDays(today, 364), in_cover: true });
    expect(await keys()).toBe(before - 1);
    // In force: the next term follows on from the last day.
    expect((await t.post('/api/customer/antitheft/renew', { customer_id: c.id }, { token: ravi })).json().data.covered_until).toBe(addDays(today, 364 + 365));
    expect(await keys()).toBe(before - 2);
    const ledger = await t.db.query<{ reason: string }>(`SELECT reason FROM license_ledger WHERE customer_id = $1 ORDER BY id`, [c.id]);
    expect(ledger.rows.map((r) => r.reason)).toEqual(['enrolment', 'renewal', 'renewal']);

    // Without a key nothing changes.
    await t.db.query(`UPDATE license_balances SET balance = 0 WHERE product_type = 9 AND user_id = (SELECT id FROM users WHERE mobile = $1)`, [RAVI]);
    const refused = await t.post('/api/customer/antitheft/renew', { customer_id: c.id }, { token: ravi });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('NO_LICENSE_KEY');
    expect((await t.get(`/api/customer/antitheft?customer_id=${c.id}`, { token: ravi })).json().data.covered_until).toBe(addDays(today, 364 + 365));
    await t.db.query(`UPDATE license_balances SET balance = 50 WHERE product_type = 9 AND user_id = (SELECT id FROM users WHERE mobile = $1)`, [RAVI]);

    const meena = (await t.signIn(MEENA)).token;
    expect((await t.post('/api/customer/antitheft/renew', { customer_id: c.id }, { token: meena })).statusCode).toBe(404);
    const plain = await f.customer({ mobile: '+919812300106' });
    expect((await t.post('/api/customer/antitheft/renew', { customer_id: plain.id }, { token: ravi })).json().code).toBe('NOT_ANTITHEFT');
  });

  it('takes two renewals at once as two terms', async () => {
    const c = await f.customer({ product_type: PRODUCT_TYPE.DPC_ANTITHEFT, mobile: '+919812300107' });
    const first = (await t.get(`/api/customer/antitheft?customer_id=${c.id}`, { token: ravi })).json().data.covered_until as string;
    const answers = await Promise.all([1, 2].map(() => t.post('/api/customer/antitheft/renew', { customer_id: c.id }, { token: ravi })));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect((await t.get(`/api/customer/antitheft?customer_id=${c.id}`, { token: ravi })).json().data.covered_until).toBe(addDays(first, 730));
  });
});

describe('the anti-theft list', () => {
  it('lists the network\'s anti-theft phones only, finds one by IMEI, and filters the lost (as the phone confirmed) and the ended', async () => {
    const plain = await f.customer({ mobile: '+919812300108' });
    const { customer: lostOne, phone } = await f.phone({ product_type: PRODUCT_TYPE.DPC_ANTITHEFT, mobile: '+919812300109' });
    const list = async (query: string, token = ravi) => {
      const res = await t.get(`/api/customer/antitheft/list?limit=100${query}`, { token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { total: number; items: Array<{ customer_id: number; lost_mode: boolean; in_cover: boolean; enrolled: boolean; covered_until: string }> };
    };
    const all = await list('');
    expect(all.items.some((i) => i.customer_id === plain.id)).toBe(false);
    expect(all.items.find((i) => i.customer_id === lostOne.id)).toMatchObject({ lost_mode: false, in_cover: true, enrolled: true });
    expect((await list(`&search=${lostOne.imei1}`)).items.map((i) => i.customer_id)).toEqual([lostOne.id]);

    // Lost once the phone has carried out lost mode.
    await t.post('/api/device/antitheft_lost_mode', { customer_id: lostOne.id, on: true, message: 'Lost', phone: '+919700011199' }, { token: ravi });
    const command = await phone.next();
    expect((await list('&state=lost')).items.some((i) => i.customer_id === lostOne.id)).toBe(false);
    await phone.ack(command, 'done');
    await expect.poll(async () => (await list('&state=lost')).items.map((i) => i.customer_id)).toContain(lostOne.id);

    const ended = await f.customer({ product_type: PRODUCT_TYPE.DPC_ANTITHEFT, mobile: '+919812300110' });
    await t.db.query(`INSERT INTO antitheft_settings (customer_id, account_id, updated_by, covered_until) SELECT id, account_id, retailer_id, $2 FROM customers WHERE id = $1`, [ended.id, addDays(todayInIndia(), -1)]);
    const endedList = await list('&state=ended');
    expect(endedList.items.map((i) => i.customer_id)).toContain(ended.id);
    expect(endedList.items.map((i) => i.customer_id)).not.toContain(lostOne.id);

    const meena = (await t.signIn(MEENA)).token;
    expect((await list('', meena)).items.some((i) => [lostOne.id, ended.id].includes(i.customer_id))).toBe(false);
    expect((await t.get('/api/customer/antitheft/list?state=stolen', { token: ravi })).statusCode).toBe(400);
    await phone.close();
  });
});
