/**
 * Phones on a plan alone (decision 023) and family care (decision 024): enrolling a phone without a loan, the rules
 * sent to the child's phone as signed, versioned commands, the usage it reports, and who may see any of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTALL_STATUS, PRODUCT_TYPE } from '@kisht/domain/constants';
import { addDays } from '@kisht/domain/calendar';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { todayInIndia } from '@kisht/domain/format';
import { randomBytes } from 'node:crypto';
import type { CommandMessage, FamilyRules } from '@kisht/protocol/messages';
import { unseal } from '@kisht/protocol/signing';
import { MEENA, RAVI, SUNITA, type TestApp } from './harness.ts';
import { connectPhone, type Enrolled } from './phone.ts';
import { startDeviceApp, type deviceFixtures } from './device-fixtures.ts';

let t: TestApp;
let ravi: string;
let f: ReturnType<typeof deviceFixtures>;
let products: Array<{ id: number; product_type: number }>;
let plans: Array<{ id: number; product_id: number; validity_days: number }>;

beforeAll(async () => {
  ({ t, ravi, f } = await startDeviceApp());
  products = (await t.get('/api/products', { token: ravi })).json().data;
  plans = (await t.get('/api/plans', { token: ravi })).json().data;
});
afterAll(async () => {
  await t?.close();
});

let serial = 1;
const productOf = (type: number) => products.find((p) => p.product_type === type)!;
const planOf = (type: number) => plans.find((p) => p.product_id === productOf(type).id)!;
const planPhone = (type: number, extra: Record<string, unknown> = {}, token = ravi) =>
  t.post('/api/customer/plan-phone', {
    first_name: 'Aarav', last_name: `Child${serial}`, mobile: '+919812300111', alt_mobile: '+919700055566', device_brand: 'Redmi', device_model: 'A3',
    imei1: withImeiCheckDigit(`3599${String(Date.now() % 1e6).padStart(6, '0')}${String(serial++).padStart(4, '0')}`), provisioning_type: 0,
    product_id: productOf(type).id, plan_id: planOf(type).id, ...extra,
  }, { token });

const RULES: FamilyRules = {
  daily_limit_minutes: [120, 30, 30, 30, 30, 30, 120], downtime: [{ start: '21:30', end: '07:00' }],
  allowed_apps: ['org.khanacademy.android'], blocked_apps: ['com.example.game'], lock_until: null,
};

async function enrolled(customerId: number, imei1: string) {
  const res = await f.enrolDevice({ token: await f.qrToken(customerId), imei1, sims: [{ slot: 0, operator: 'Jio', iccid: '8991000000000000001' }] });
  expect(res.statusCode, res.body).toBe(200);
  const device = res.json().data as Enrolled;
  return { device, phone: await connectPhone(t.broker.status().url, device) };
}

describe('a phone on a plan alone', () => {
  it('enrols without a loan, with one key of the plan, and has no EMIs', async () => {
    const keys = async () => (await t.db.query<{ balance: number }>('SELECT balance FROM license_balances WHERE product_type = 4 AND user_id = (SELECT id FROM users WHERE mobile = $1)', [RAVI])).rows[0]!.balance;
    const before = await keys();
    const res = await planPhone(PRODUCT_TYPE.ANTI_THEFT);
    expect(res.statusCode, res.body).toBe(200);
    const { customer, keys_left } = res.json().data;
    expect(keys_left).toBe(before - 1);
    expect(await keys()).toBe(before - 1);
    expect(customer).toMatchObject({ product_type: PRODUCT_TYPE.ANTI_THEFT, price_paise: null, emi_paise: null, tenure_months: null, first_due_date: null, plan_id: planOf(PRODUCT_TYPE.ANTI_THEFT).id });
    const emi = await t.get(`/api/emi/customer_emi_details?customer_id=${customer.id}`, { token: ravi });
    expect(emi.statusCode).toBe(409);
    expect(emi.json().code).toBe('NO_LOAN');
    const pay = await t.post('/api/emi/multiple_emi_paid', { customer_id: customer.id, amount_paise: 100, method: 'cash' }, { token: ravi });
    expect(pay.statusCode).toBe(409);
    expect(pay.json().code).toBe('NO_LOAN');
    // It is in the customer list like any phone, with no EMI, and anti-theft works on it.
    const list = (await t.get(`/api/customer/get_customers_keygen?search=${customer.imei1}`, { token: ravi })).json().data.items;
    expect(list).toEqual([expect.objectContaining({ id: customer.id, emi_paise: null })]);
    const settings = await t.get(`/api/customer/antitheft?customer_id=${customer.id}`, { token: ravi });
    expect(settings.json().data).toMatchObject({ alert_mobiles: ['+919700055566', RAVI], covered_until: addDays(todayInIndia(), planOf(PRODUCT_TYPE.ANTI_THEFT).validity_days - 1) });
    // The same IMEI cannot be enrolled twice while the first is active.
    const again = await planPhone(PRODUCT_TYPE.ANTI_THEFT, { imei1: customer.imei1 });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('IMEI_IN_USE');
  });

  it('is only anti-theft or family care, with a plan of that product, and checks the phone', async () => {
    const dpc = await planPhone(PRODUCT_TYPE.ANTI_THEFT, { product_id: productOf(PRODUCT_TYPE.DPC).id, plan_id: planOf(PRODUCT_TYPE.DPC).id });
    expect(dpc.statusCode).toBe(400);
    expect(dpc.json().details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'product_id' })]));
    const wrongPlan = await planPhone(PRODUCT_TYPE.ANTI_THEFT, { plan_id: planOf(PRODUCT_TYPE.FAMILYCARE).id });
    expect(wrongPlan.statusCode).toBe(400);
    expect(wrongPlan.json().details).toEqual([expect.objectContaining({ field: 'plan_id' })]);
    const badImei = await planPhone(PRODUCT_TYPE.FAMILYCARE, { imei1: '356938035643801' });
    expect(badImei.statusCode).toBe(400);
    const sameNumber = await planPhone(PRODUCT_TYPE.FAMILYCARE, { alt_mobile: '+919812300111' });
    expect(sameNumber.statusCode).toBe(400);
    expect(sameNumber.json().details).toEqual([expect.objectContaining({ field: 'alt_mobile' })]);
    expect((await planPhone(PRODUCT_TYPE.FAMILYCARE, { price_paise: 100 })).statusCode).toBe(400);
    // Nothing half-written: no customer with these names.
    const leftovers = await t.db.query("SELECT 1 FROM customers WHERE price_paise IS NULL AND product_id NOT IN (SELECT id FROM products WHERE product_type IN (4, 7))");
    expect(leftovers.rows).toHaveLength(0);
  });

  it('needs a key of the plan', async () => {
    const meena = (await t.signIn(MEENA)).token;
    const res = await planPhone(PRODUCT_TYPE.FAMILYCARE, { product_id: productOf(PRODUCT_TYPE.FAMILYCARE).id }, meena);
    // Meena's organisation sells no family care: the product is not hers.
    expect(res.statusCode).toBe(400);
    await t.db.query('UPDATE license_balances SET balance = 0 WHERE product_type = 7 AND user_id = (SELECT id FROM users WHERE mobile = $1)', [RAVI]);
    const none = await planPhone(PRODUCT_TYPE.FAMILYCARE);
    expect(none.statusCode).toBe(409);
    expect(none.json().code).toBe('NO_LICENSE_KEY');
    await t.db.query('UPDATE license_balances SET balance = 20 WHERE product_type = 7 AND user_id = (SELECT id FROM users WHERE mobile = $1)', [RAVI]);
  });
});

describe('family care', () => {
  it('sends the rules to the phone as the next version, checks them, and keeps them from others', async () => {
    const { customer } = (await planPhone(PRODUCT_TYPE.FAMILYCARE)).json().data;
    // Rules set before the phone enrols wait for it.
    const first = await t.post('/api/customer/familycare', { customer_id: customer.id, rules: RULES }, { token: ravi });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ version: 1, rules: RULES, applied_version: null, in_cover: true });
    const { phone, device } = await enrolled(customer.id, customer.imei1);
    // Written in the enrolment's transaction: the phone's first check-in brings it.
    const checkIn = await f.checkIn(device, {});
    expect(checkIn.statusCode, checkIn.body).toBe(200);
    const sealed = checkIn.json().data.commands as string[];
    expect(sealed).toHaveLength(1);
    const sent = unseal<CommandMessage>(device.offline_secret, sealed[0]!)!;
    expect(sent).toMatchObject({ type: 'family_rules', payload: { version: 1, rules: RULES } });
    // Sealed with this phone's secret only.
    expect(unseal(randomBytes(32).toString('base64url'), sealed[0]!)).toBeNull();
    await phone.send({ kind: 'ack', id: sent.id, state: 'done', result: { version: 1 } } as never);
    await expect.poll(async () => (await t.get(`/api/customer/familycare?customer_id=${customer.id}`, { token: ravi })).json().data.applied_version).toBe(1);

    const second = await t.post('/api/customer/familycare', { customer_id: customer.id, rules: { ...RULES, daily_limit_minutes: [60, 60, 60, 60, 60, 60, 60] } }, { token: ravi });
    expect(second.json().data.version).toBe(2);
    expect(await phone.next()).toMatchObject({ type: 'family_rules', payload: { version: 2, rules: { daily_limit_minutes: [60, 60, 60, 60, 60, 60, 60] } } });

    const bad: Array<Partial<FamilyRules>> = [
      { daily_limit_minutes: [60, 60, 60] }, { daily_limit_minutes: [60, 60, 60, 60, 60, 60, 1441] }, { downtime: [{ start: '25:00', end: '07:00' }] },
      { downtime: Array.from({ length: 5 }, () => ({ start: '21:00', end: '07:00' })) }, { blocked_apps: ['not a package'] },
      { allowed_apps: ['com.example.game'] }, { lock_until: '2001-01-01T00:00:00Z' },
    ];
    for (const change of bad) {
      const res = await t.post('/api/customer/familycare', { customer_id: customer.id, rules: { ...RULES, ...change } }, { token: ravi });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
    }
    expect((await t.get(`/api/customer/familycare?customer_id=${customer.id}`, { token: ravi })).json().data.version).toBe(2);

    // Another network, a mini-retailer below, and another product.
    const meena = (await t.signIn(MEENA)).token;
    const sunita = (await t.signIn(SUNITA)).token;
    for (const token of [meena, sunita]) {
      expect((await t.get(`/api/customer/familycare?customer_id=${customer.id}`, { token })).statusCode).toBe(404);
      expect((await t.post('/api/customer/familycare', { customer_id: customer.id, rules: RULES }, { token })).statusCode).toBe(404);
      expect((await t.get(`/api/customer/familycare/usage?customer_id=${customer.id}`, { token })).statusCode).toBe(404);
      expect((await t.get('/api/customer/familycare/list', { token })).json().data.items.map((i: { customer_id: number }) => i.customer_id)).not.toContain(customer.id);
    }
    const plain = await f.customer();
    const refused = await t.post('/api/customer/familycare', { customer_id: plain.id, rules: RULES }, { token: ravi });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('NOT_FAMILYCARE');
  });

  it("records the phone's usage per day, the latest report of a day replacing the earlier, and ignores replays and malformed reports", async () => {
    const { customer } = (await planPhone(PRODUCT_TYPE.FAMILYCARE)).json().data;
    const { phone } = await enrolled(customer.id, customer.imei1);
    const today = todayInIndia();
    const yesterday = addDays(today, -1);
    await phone.send({ kind: 'usage', day: yesterday, apps: [{ app: 'com.example.game', seconds: 1800 }, { app: 'com.android.dialer', seconds: 300 }] } as never);
    await phone.send({ kind: 'usage', day: today, apps: [{ app: 'com.example.game', seconds: 600 }] } as never);
    await phone.send({ kind: 'usage', day: today, apps: [{ app: 'com.example.game', seconds: 900 }, { app: 'org.khanacademy.android', seconds: 120 }] } as never);
    const usage = async () => (await t.get(`/api/customer/familycare/usage?customer_id=${customer.id}&days=3`, { token: ravi })).json().data;
    await expect.poll(async () => (await usage()).days.at(-1).total_seconds).toBe(1020);
    const { days, last_report_at } = await usage();
    expect(days.map((d: { day: string }) => d.day)).toEqual([addDays(today, -2), yesterday, today]);
    expect(days[0]).toEqual({ day: addDays(today, -2), total_seconds: 0, apps: [] });
    expect(days[1]).toEqual({ day: yesterday, total_seconds: 2100, apps: [{ app: 'com.example.game', seconds: 1800 }, { app: 'com.android.dialer', seconds: 300 }] });
    expect(days[2].apps).toEqual([{ app: 'com.example.game', seconds: 900 }, { app: 'org.khanacademy.android', seconds: 120 }]);
    expect(last_report_at).not.toBeNull();

    // A replayed report (an event number already taken) and malformed ones change nothing.
    await phone.send({ kind: 'usage', n: 1, day: today, apps: [{ app: 'com.example.game', seconds: 5 }] } as never);
    for (const apps of [[{ app: 'com.example.game', seconds: 90_000 }], [{ app: '', seconds: 1 }], 'lots']) {
      await phone.send({ kind: 'usage', day: today, apps } as never);
    }
    await phone.send({ kind: 'usage', day: '2026-02-30', apps: [] } as never);
    // A day too far back or ahead, and more than a day of screen time in all, are not believed either.
    await phone.send({ kind: 'usage', day: addDays(today, -9), apps: [{ app: 'com.example.game', seconds: 60 }] } as never);
    await phone.send({ kind: 'usage', day: addDays(today, 2), apps: [{ app: 'com.example.game', seconds: 60 }] } as never);
    await phone.send({ kind: 'usage', day: today, apps: [{ app: 'com.example.game', seconds: 50_000 }, { app: 'com.example.video', seconds: 50_000 }] } as never);
    await new Promise((r) => setTimeout(r, 300));
    expect((await usage()).days.at(-1).total_seconds).toBe(1020);
    expect((await t.db.query('SELECT 1 FROM family_usage WHERE customer_id = $1 AND day NOT BETWEEN $2 AND $3', [customer.id, yesterday, today])).rows).toHaveLength(0);
    const list = (await t.get(`/api/customer/familycare/list?search=${customer.imei1}`, { token: ravi })).json().data.items;
    expect(list).toEqual([expect.objectContaining({ customer_id: customer.id, today_seconds: 1020, enrolled: true, rules_set: false })]);
  });
});

describe('a phone on a plan alone and the dues run', () => {
  it('is never taken for a completed loan, even on the first run', async () => {
    const { customer } = (await planPhone(PRODUCT_TYPE.FAMILYCARE)).json().data;
    await t.services.dues.runDue(todayInIndia());
    expect((await f.profile(customer.id)).install_status).toBe(INSTALL_STATUS.inactive);
    expect((await t.db.query('SELECT active FROM customer_imeis WHERE customer_id = $1', [customer.id])).rows).toEqual([{ active: true }]);
  });

  it("keeps a usage report of a phone that is not on family care out of the usage table", async () => {
    const { customer, phone } = await f.phone({ product_type: PRODUCT_TYPE.DPC_ANTITHEFT });
    await phone.send({ kind: 'usage', day: todayInIndia(), apps: [{ app: 'com.example.game', seconds: 60 }] } as never);
    await new Promise((r) => setTimeout(r, 300));
    expect((await t.db.query('SELECT 1 FROM family_usage WHERE customer_id = $1', [customer.id])).rows).toHaveLength(0);
  });
});

describe('the end of a plan sold on its own', () => {
  it('releases the phone unless renewed: anti-theft by its uninstall, family care by uninstall; a financed phone keeps its lock', async () => {
    const today = todayInIndia();
    const theft = (await planPhone(PRODUCT_TYPE.ANTI_THEFT)).json().data.customer;
    const family = (await planPhone(PRODUCT_TYPE.FAMILYCARE)).json().data.customer;
    const renewed = (await planPhone(PRODUCT_TYPE.FAMILYCARE)).json().data.customer;
    const phones = { theft: await enrolled(theft.id, theft.imei1), family: await enrolled(family.id, family.imei1), renewed: await enrolled(renewed.id, renewed.imei1) };
    const financed = await f.phone({ product_type: PRODUCT_TYPE.DPC_ANTITHEFT });
    // Enrolled a term and a day ago: each plan ended yesterday.
    await t.db.query("UPDATE customers SET created_at = now() - make_interval(days => 366) WHERE id = ANY($1::int[])", [[theft.id, family.id, renewed.id, financed.customer.id]]);
    expect((await t.get(`/api/customer/familycare?customer_id=${family.id}`, { token: ravi })).json().data).toMatchObject({ in_cover: false, covered_until: addDays(today, -2) });
    const renewal = await t.post('/api/customer/familycare/renew', { customer_id: renewed.id }, { token: ravi });
    expect(renewal.statusCode, renewal.body).toBe(200);
    expect(renewal.json().data).toMatchObject({ in_cover: true, covered_until: addDays(today, 364) });

    expect(await t.services.policies.releaseEndedPlans(today)).toBe(2);
    expect(await phones.theft.phone.next()).toMatchObject({ type: 'uninstall_antitheft' });
    const release = await phones.family.phone.next();
    expect(release).toMatchObject({ type: 'uninstall' });
    // Asked once: the next sweep finds the releases under way.
    expect(await t.services.policies.releaseEndedPlans(today)).toBe(0);
    await phones.family.phone.ack(release, 'done');
    await expect.poll(async () => (await f.profile(family.id)).install_status).toBe(INSTALL_STATUS.uninstall);
    expect(phones.renewed.phone.received).toHaveLength(0);
    expect(financed.phone.received).toHaveLength(0);

    // Released: no renewal brings it back. The anti-theft phone that has not answered yet is renewed in time: its
    // release is withdrawn, and a later sweep leaves it alone.
    const late = await t.post('/api/customer/familycare/renew', { customer_id: family.id }, { token: ravi });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('ENROLMENT_CLOSED');
    const rescued = await t.post('/api/customer/antitheft/renew', { customer_id: theft.id }, { token: ravi });
    expect(rescued.statusCode, rescued.body).toBe(200);
    expect((await f.commands(theft.id)).find((c) => c.type === 'uninstall_antitheft')).toMatchObject({ state: 'expired' });
    expect(await t.services.policies.releaseEndedPlans(today)).toBe(0);
  });

  it('asks a phone that refused its release again only the next day', async () => {
    const today = todayInIndia();
    const c = (await planPhone(PRODUCT_TYPE.FAMILYCARE)).json().data.customer;
    const { phone } = await enrolled(c.id, c.imei1);
    await t.db.query('UPDATE customers SET created_at = now() - make_interval(days => 366) WHERE id = $1', [c.id]);
    expect(await t.services.policies.releaseEndedPlans(today)).toBe(1);
    const release = await phone.next();
    await phone.ack(release, 'failed', { error: 'device_admin_locked' });
    await expect.poll(async () => (await f.commands(c.id)).find((x) => x.id === release.id)?.state).toBe('failed');
    expect(await t.services.policies.releaseEndedPlans(today)).toBe(0);
    await t.db.query("UPDATE device_commands SET finished_at = now() - interval '25 hours' WHERE id = $1", [release.id]);
    expect(await t.services.policies.releaseEndedPlans(today)).toBe(1);
    expect(await phone.next()).toMatchObject({ type: 'uninstall' });
  });
});
