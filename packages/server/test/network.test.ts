/**
 * The retailer network: members added below a retailer at any depth, the subtree list and profiles, switches
 * no wider than the granter's (off applies below), blocking, and key transfers (send, request and approve,
 * return, operator top-up) that never overdraw, move once per id, and show in each member's history.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, MEENA, RAVI, SUNITA, type TestApp } from './harness.ts';
import { runOperatorCommand } from '../src/modules/operator/operator.service.ts';
import { deviceFixtures } from './device-fixtures.ts';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';

let t: TestApp;
let ravi: string;
let serial = 0;
const mobile = () => `+9198000${String(process.pid % 100).padStart(2, '0')}${String(serial++).padStart(3, '0')}`;

beforeAll(async () => {
  t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 10_000 } });
  ravi = (await t.signIn(RAVI)).token;
});
afterAll(() => t.stop());

interface Member { id: number; parent_id: number | null; depth: number; balances: Array<{ product_type: number; balance: number }>; active: boolean; user_access: Record<string, string>; lock_access: Record<string, string> }

async function add(token: string, body: Record<string, unknown>): Promise<Member & { mobile: string }> {
  const m = mobile();
  const res = await t.post('/api/country/addUsers', { first_name: 'Kiran', last_name: `Member${serial}`, shop_name: 'Kiran Mobiles', mobile: m.slice(3), ...body }, { token });
  expect(res.statusCode, res.body).toBe(200);
  return { ...res.json().data, mobile: m };
}
const transfer = (token: string, body: Record<string, unknown>) => t.post('/api/keys/transfer', { id: randomUUID(), product_type: 0, ...body }, { token });
const balanceOf = async (token: string, productType = 0) => ((await t.get('/api/user', { token })).json().data as Member).balances.find((b) => b.product_type === productType)?.balance ?? 0;

describe('members', () => {
  it('a retailer adds a mini-retailer and a retailer below it; they sign in with an OTP; a taken mobile is refused', async () => {
    const mini = await add(ravi, { user_type: 'miniretailer' });
    const shop = await add(ravi, { user_type: 'retailer', shop_name: 'Shree Ganesh Mobile & Electronics, Sikar Road' });
    expect(mini).toMatchObject({ depth: 1, active: true, balances: [] });
    expect((await t.signIn(mini.mobile)).token).toBeTruthy();
    expect((await t.signIn(shop.mobile)).token).toBeTruthy();
    const again = await t.post('/api/country/addUsers', { user_type: 'retailer', first_name: 'A', last_name: 'B', mobile: shop.mobile }, { token: ravi });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('MOBILE_TAKEN');
    // A mini-retailer adds nobody.
    const miniToken = (await t.signIn(mini.mobile)).token;
    expect((await t.post('/api/country/addUsers', { user_type: 'miniretailer', first_name: 'A', last_name: 'B', mobile: mobile().slice(3) }, { token: miniToken })).statusCode).toBe(403);
  });

  it('gives only switches the granter holds, and a switch turned off goes off below too', async () => {
    // Ravi does not hold bulk_retailer.
    const refused = await t.post('/api/country/addUsers', { user_type: 'retailer', first_name: 'A', last_name: 'B', mobile: mobile().slice(3), user_access: { bulk_retailer: '1' } }, { token: ravi });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'ACCESS_NOT_HELD', details: [{ field: 'bulk_retailer' }] });
    const shop = await add(ravi, { user_type: 'retailer' });
    const shopToken = (await t.signIn(shop.mobile)).token;
    const counter = await add(shopToken, { user_type: 'miniretailer' });
    expect(counter.lock_access.lock).toBe('1');
    const off = await t.post('/api/country/updateUsers', { user_id: shop.id, lock_access: { lock: '0' } }, { token: ravi });
    expect(off.statusCode, off.body).toBe(200);
    const below = (await t.get(`/api/user/readById?user_id=${counter.id}`, { token: ravi })).json().data as Member;
    expect(below.lock_access.lock).toBe('0');
    // The shop cannot give back what it no longer holds.
    expect((await t.post('/api/country/updateUsers', { user_id: counter.id, lock_access: { lock: '1' } }, { token: shopToken })).json().code).toBe('ACCESS_NOT_HELD');
  });

  it('lists the subtree at any depth, searches it, and shows nothing above or beside a member', async () => {
    const shop = await add(ravi, { user_type: 'retailer', first_name: 'Zubair', last_name: 'Ansari' });
    const shopToken = (await t.signIn(shop.mobile)).token;
    const counter = await add(shopToken, { user_type: 'miniretailer', first_name: 'Yamini' });
    const sibling = await add(ravi, { user_type: 'retailer' });

    const all = (await t.get('/api/country/getUsers?limit=100', { token: ravi })).json().data as { total: number; items: Member[] };
    expect(all.items.find((m) => m.id === counter.id)).toMatchObject({ depth: 2, parent_id: shop.id });
    const found = (await t.get('/api/country/getUsers?search=zuba', { token: ravi })).json().data;
    expect(found.items.map((m: Member) => m.id)).toEqual([shop.id]);
    expect((await t.get(`/api/country/getUsers?search=${shop.mobile.slice(-6)}`, { token: ravi })).json().data.total).toBe(1);
    expect((await t.get('/api/country/getUsers?user_type=miniretailer&limit=100', { token: ravi })).json().data.items.every((m: { user_type: string }) => m.user_type === 'miniretailer')).toBe(true);

    const theirs = (await t.get('/api/country/getUsers?limit=100', { token: shopToken })).json().data as { items: Member[] };
    expect(theirs.items.map((m) => m.id)).toEqual([counter.id]);
    const raviId = (await t.get('/api/user', { token: ravi })).json().data.id;
    for (const id of [raviId, sibling.id]) {
      expect((await t.get(`/api/user/readById?user_id=${id}`, { token: shopToken })).statusCode).toBe(404);
      expect((await t.post('/api/country/updateUsers', { user_id: id, first_name: 'Hacked' }, { token: shopToken })).statusCode).toBe(404);
      expect((await t.get(`/api/retailer/transaction/top_up_history?user_id=${id}`, { token: shopToken })).statusCode).toBe(404);
      expect((await transfer(shopToken, { kind: 'send', to_user_id: id, quantity: 1 })).statusCode).toBe(404);
    }
    // Another organisation's retailer reaches none of it.
    const meena = (await t.signIn(MEENA)).token;
    for (const id of [shop.id, counter.id, raviId]) {
      expect((await t.get(`/api/user/getRetailerProfile?user_id=${id}`, { token: meena })).statusCode).toBe(404);
      expect((await t.post('/api/country/updateUsers', { user_id: id, active: false }, { token: meena })).statusCode).toBe(404);
    }
    expect((await t.get('/api/country/getUsers?limit=100', { token: meena })).json().data.items.some((m: Member) => m.id === shop.id)).toBe(false);
  });

  it('blocking a member ends its sessions and those below it (511), and they cannot sign in again', async () => {
    const shop = await add(ravi, { user_type: 'retailer' });
    const shopToken = (await t.signIn(shop.mobile)).token;
    const counter = await add(shopToken, { user_type: 'miniretailer' });
    const counterToken = (await t.signIn(counter.mobile)).token;
    expect((await t.post('/api/country/updateUsers', { user_id: shop.id, active: false }, { token: ravi })).json().data.active).toBe(false);
    expect((await t.get('/api/user', { token: shopToken })).statusCode).toBe(511);
    expect((await t.get('/api/user', { token: counterToken })).statusCode).toBe(511);
    expect((await t.get('/api/country/getUsers?status=blocked&limit=100', { token: ravi })).json().data.items.some((m: Member) => m.id === shop.id)).toBe(true);
    // No OTP goes to a blocked member or one below it (the answer looks the same as for an unknown number).
    const outbox = async (m: string) => (await t.db.query('SELECT 1 FROM sms_outbox WHERE recipient = $1', [m])).rowCount;
    const sentBefore = await outbox(counter.mobile);
    expect((await t.post('/api/auth/loginWithOtp', { mobile: counter.mobile })).statusCode).toBe(200);
    expect(await outbox(counter.mobile)).toBe(sentBefore);
    expect((await t.post('/api/country/updateUsers', { user_id: shop.id, active: true }, { token: ravi })).statusCode).toBe(200);
    expect((await t.signIn(counter.mobile)).token).toBeTruthy();
  });
});

describe('keys', () => {
  it('go down by send, up by return, and on request once the parent approves; each shows in both histories', async () => {
    const shop = await add(ravi, { user_type: 'retailer' });
    const shopToken = (await t.signIn(shop.mobile)).token;
    const before = await balanceOf(ravi);
    const sent = await transfer(ravi, { kind: 'send', to_user_id: shop.id, quantity: 5, note: 'Opening stock' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toMatchObject({ kind: 'send', state: 'done', quantity: 5 });
    expect(await balanceOf(ravi)).toBe(before - 5);
    expect(await balanceOf(shopToken)).toBe(5);

    const returned = await transfer(shopToken, { kind: 'return', quantity: 2 });
    expect(returned.statusCode, returned.body).toBe(200);
    expect(await balanceOf(shopToken)).toBe(3);

    const asked = await transfer(shopToken, { kind: 'request', quantity: 4 });
    expect(asked.json().data.state).toBe('pending');
    expect(await balanceOf(shopToken)).toBe(3);
    // The open request: the parent's history offers the decision, the asker's does not.
    const openLine = async (token: string) => ((await t.get('/api/retailer/transaction/top_up_history?limit=5', { token })).json().data.items as Array<{ kind: string; transfer_id: string; can_decide: boolean }>)
      .find((i) => i.transfer_id === asked.json().data.id);
    expect(await openLine(ravi)).toMatchObject({ kind: 'requested', can_decide: true });
    expect(await openLine(shopToken)).toMatchObject({ kind: 'requested', can_decide: false });
    // Only the parent decides.
    expect((await t.post('/api/keys/decide', { transfer_id: asked.json().data.id, decision: 'approve' }, { token: shopToken })).statusCode).toBe(404);
    const approved = await t.post('/api/keys/decide', { transfer_id: asked.json().data.id, decision: 'approve' }, { token: ravi });
    expect(approved.json().data.state).toBe('done');
    expect(await balanceOf(shopToken)).toBe(7);
    const rejectedAsk = await transfer(shopToken, { kind: 'request', quantity: 1 });
    expect((await t.post('/api/keys/decide', { transfer_id: rejectedAsk.json().data.id, decision: 'reject' }, { token: ravi })).json().data.state).toBe('rejected');

    const history = (await t.get('/api/retailer/transaction/top_up_history?limit=100', { token: shopToken })).json().data;
    expect(history.items.map((i: { kind: string; change: number; balance_after: number | null }) => [i.kind, i.change, i.balance_after])).toEqual([
      ['rejected', 0, null], ['received', 4, 7], ['returned', -2, 3], ['received', 5, 5],
    ]);
    const today = new Date(Date.now() + 5.5 * 3600_000).toISOString().slice(0, 10);
    expect((await t.get(`/api/retailer/transaction/top_up_history?from=${today}&to=${today}&product_type=0&limit=100`, { token: shopToken })).json().data.total).toBe(history.total);
    expect((await t.get('/api/retailer/transaction/top_up_history?from=2000-01-01&to=2000-01-31', { token: shopToken })).json().data.total).toBe(0);
    expect((await t.get('/api/retailer/transaction/top_up_history?product_type=2', { token: shopToken })).json().data.total).toBe(0);
    const csv = await t.get(`/api/retailer/transaction/top_up_history/export?user_id=${shop.id}`, { token: ravi });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const rows = csv.body.trim().split('\r\n');
    expect(rows[0]).toBe('at,kind,product_type,change,balance_after,state,counterpart_id,counterpart_name,customer_id,price_paise,transfer_id');
    expect(rows.slice(1).map((r) => r.split(',').slice(1, 5).join(','))).toEqual(['received,0,5,5', 'returned,0,-2,3', 'received,0,4,7', 'rejected,0,0,']);
    expect((await t.get(`/api/retailer/transaction/top_up_history/export?user_id=${(await t.get('/api/user', { token: ravi })).json().data.id}`, { token: shopToken })).statusCode).toBe(404);
    const parentView = (await t.get(`/api/retailer/transaction/top_up_history?user_id=${shop.id}&limit=100`, { token: ravi })).json().data;
    expect(parentView.total).toBe(history.total);
    const mine = (await t.get('/api/retailer/transaction/top_up_history?limit=5', { token: ravi })).json().data.items;
    expect(mine[0]).toMatchObject({ kind: 'rejected', counterpart_id: shop.id });
    expect(mine[1]).toMatchObject({ kind: 'sent', change: -4, counterpart_id: shop.id });
  });

  it('a mini-retailer consumes its own keys when it enrols; the enrolment is in its history', async () => {
    const sunita = (await t.signIn(SUNITA)).token;
    const left = await balanceOf(sunita);
    const products = (await t.get('/api/products', { token: sunita })).json().data as Array<{ id: number; product_type: number }>;
    const product = products.find((p) => p.product_type === 0)!;
    const today = new Date(Date.now() + 5.5 * 3600_000).toISOString().slice(0, 10);
    const res = await t.post('/api/customer', {
      first_name: 'Key', last_name: 'Consumer', mobile: '+919812377701', device_brand: 'Samsung', device_model: 'A05', imei1: '356938035643809',
      provisioning_type: 0, product_id: product.id, price_paise: 300_000, down_payment_paise: 0, annual_rate_bps: 0, interest_method: 'flat', tenure_months: 3, start_date: today,
      first_due_date: new Date(Date.parse(today) + 30 * 86_400_000).toISOString().slice(0, 10),
    }, { token: sunita });
    expect(res.statusCode, res.body).toBe(200);
    expect(await balanceOf(sunita)).toBe(left - 1);
    const res2 = await t.get('/api/retailer/transaction/top_up_history?product_type=0&limit=1', { token: sunita });
    expect(res2.statusCode, res2.body).toBe(200);
    const history = res2.json().data;
    expect(history.items[0]).toMatchObject({ kind: 'consumed', change: -1, balance_after: left - 1, customer_id: res.json().data.customer.id });
  });

  it('never overdraw under 50 parallel transfers, and one id sent 20 times in parallel moves once', async () => {
    const shop = await add(ravi, { user_type: 'retailer' });
    const shopToken = (await t.signIn(shop.mobile)).token;
    expect((await transfer(ravi, { kind: 'send', to_user_id: shop.id, quantity: 10 })).statusCode).toBe(200);
    const counter = await add(shopToken, { user_type: 'miniretailer' });
    const results = await Promise.all(Array.from({ length: 50 }, () => transfer(shopToken, { kind: 'send', to_user_id: counter.id, quantity: 1 })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(10);
    expect(results.filter((r) => r.statusCode === 409).every((r) => r.json().code === 'NOT_ENOUGH_KEYS')).toBe(true);
    expect(await balanceOf(shopToken)).toBe(0);
    expect(((await t.get(`/api/user/readById?user_id=${counter.id}`, { token: shopToken })).json().data as Member).balances).toEqual([{ product_type: 0, balance: 10 }]);

    const before = await balanceOf(ravi);
    const id = randomUUID();
    const same = await Promise.all(Array.from({ length: 20 }, () => transfer(ravi, { id, kind: 'send', to_user_id: shop.id, quantity: 3 })));
    expect(same.every((r) => r.statusCode === 200 && r.json().data.id === id)).toBe(true);
    expect(await balanceOf(ravi)).toBe(before - 3);
    expect(await balanceOf(shopToken)).toBe(3);
    // The same id for a different transfer is refused.
    expect((await transfer(ravi, { id, kind: 'send', to_user_id: shop.id, quantity: 4 })).json().code).toBe('TRANSFER_ID_REUSED');
    // Keys go one level at a time.
    expect((await transfer(ravi, { kind: 'send', to_user_id: counter.id, quantity: 1 })).json().code).toBe('ACTION_NOT_ALLOWED');
  });

  it('the operator tops up a member once per transfer id', async () => {
    const shop = await add(ravi, { user_type: 'retailer' });
    const shopToken = (await t.signIn(shop.mobile)).token;
    const id = randomUUID();
    const lines: string[] = [];
    expect(await runOperatorCommand(t.db, ['keys', shop.mobile, '0', '25', id], (l) => lines.push(l))).toBe(0);
    expect(await runOperatorCommand(t.db, ['keys', shop.mobile, '0', '25', id], (l) => lines.push(l))).toBe(0);
    expect(await balanceOf(shopToken)).toBe(25);
    expect(await runOperatorCommand(t.db, ['keys', '+919000000001', '0', '5'], (l) => lines.push(l))).toBe(1);
    expect(await runOperatorCommand(t.db, ['keys', shop.mobile, '0', '0'], (l) => lines.push(l))).toBe(1);
    const history = (await t.get('/api/retailer/transaction/top_up_history', { token: shopToken })).json().data;
    expect(history.items).toMatchObject([{ kind: 'topup', change: 25, balance_after: 25, transfer_id: id }]);
  });
});

describe('one’s own profile', () => {
  it('its details can be edited by the member, its switches and block state only by its parent', async () => {
    const shop = await add(ravi, { user_type: 'retailer' });
    const shopToken = (await t.signIn(shop.mobile)).token;
    const edited = await t.post('/api/country/updateUsers', { user_id: shop.id, shop_name: 'Kiran Mobiles & Repairs', city: 'Ajmer' }, { token: shopToken });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ shop_name: 'Kiran Mobiles & Repairs', city: 'Ajmer', own: true });
    expect((await t.post('/api/country/updateUsers', { user_id: shop.id, email: 'kiran@example.com' }, { token: shopToken })).json().data.email).toBe('kiran@example.com');
    expect((await t.post('/api/country/updateUsers', { user_id: shop.id, email: null }, { token: shopToken })).json().data.email).toBeNull();
    expect((await t.post('/api/country/updateUsers', { user_id: shop.id, lock_access: { lock: '1' } }, { token: shopToken })).statusCode).toBe(403);
    expect((await t.post('/api/country/updateUsers', { user_id: shop.id, active: false }, { token: shopToken })).statusCode).toBe(403);
    expect((await transfer(shopToken, { kind: 'send', to_user_id: shop.id, quantity: 1 })).json().code).toBe('ACTION_NOT_ALLOWED');
  });
});

describe('the price per key (scheme)', () => {
  it('a parent sets it for its children; each transfer and history line records it', async () => {
    const shop = await add(ravi, { user_type: 'retailer' });
    const shopToken = (await t.signIn(shop.mobile)).token;
    const set = await t.post('/api/points/scheme', { product_type: 0, price_paise: 15_000 }, { token: ravi });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.find((b: { product_type: number }) => b.product_type === 0)).toMatchObject({ sell_price_paise: 15_000 });
    expect((await t.get('/api/points/balance_types', { token: shopToken })).json().data.find((b: { product_type: number }) => b.product_type === 0)).toMatchObject({ balance: 0, buy_price_paise: 15_000, sell_price_paise: null });
    const sent = await transfer(ravi, { kind: 'send', to_user_id: shop.id, quantity: 2 });
    expect(sent.json().data.price_paise).toBe(15_000);
    expect((await t.get('/api/retailer/transaction/top_up_history', { token: shopToken })).json().data.items[0]).toMatchObject({ kind: 'received', price_paise: 15_000 });
    expect((await t.post('/api/points/scheme', { product_type: 999, price_paise: 1 }, { token: ravi })).statusCode).toBe(400);
    expect((await t.post('/api/points/scheme', { product_type: 0, price_paise: null }, { token: ravi })).json().data.find((b: { product_type: number }) => b.product_type === 0).sell_price_paise).toBeNull();
  });
});

describe('cancelling an enrolment that never started', () => {
  it('gives its key back to whoever used it (a released line in the history) and frees the IMEI; refused once the phone enrolled or money moved', async () => {
    const f = deviceFixtures(t, () => ravi);
    const before = await balanceOf(ravi);
    const c = await f.customer();
    expect(await balanceOf(ravi)).toBe(before - 1);
    // A QR was made for it (a token exists) but the phone never enrolled.
    await f.qrToken(c.id);
    const sunita = (await t.signIn(SUNITA)).token;
    expect((await t.post('/api/customer/cancel_enrolment', { customer_id: c.id }, { token: sunita })).statusCode).toBe(404);

    const cancelled = await t.post('/api/customer/cancel_enrolment', { customer_id: c.id }, { token: ravi });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data).toEqual({ customer_id: c.id, keys_left: before });
    expect(await balanceOf(ravi)).toBe(before);
    expect((await t.get(`/api/country/getCustomerProfile?customer_id=${c.id}`, { token: ravi })).statusCode).toBe(404);
    const lines = (await t.get('/api/retailer/transaction/top_up_history?limit=5', { token: ravi })).json().data.items as Array<{ kind: string; customer_id: number | null; change: number; balance_after: number }>;
    expect(lines.slice(0, 2).map((l) => [l.kind, l.customer_id, l.change])).toEqual([['released', c.id, 1], ['consumed', c.id, -1]]);
    // Once is enough: the second cancel finds nothing.
    expect((await t.post('/api/customer/cancel_enrolment', { customer_id: c.id }, { token: ravi })).statusCode).toBe(404);
    // The IMEI is free again.
    const again = await t.post('/api/customer', { ...(await customerBody(c.imei1)) }, { token: ravi });
    expect(again.statusCode, again.body).toBe(200);

    // A phone that enrolled, or a loan with a payment, stays.
    const { customer: withPhone, phone } = await f.phone();
    await phone.close();
    const paid = await f.customer();
    expect((await t.post('/api/emi/multiple_emi_paid', { customer_id: paid.id, amount_paise: 10_000, method: 'cash' }, { token: ravi })).statusCode).toBe(200);
    for (const id of [withPhone.id, paid.id]) {
      const res = await t.post('/api/customer/cancel_enrolment', { customer_id: id }, { token: ravi });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('ENROLMENT_STARTED');
      expect((await t.get(`/api/country/getCustomerProfile?customer_id=${id}`, { token: ravi })).statusCode).toBe(200);
    }
  });
});

/** The body of a plain enrolment with this IMEI (product type 0). */
async function customerBody(imei1: string) {
  const products = (await t.get('/api/products', { token: ravi })).json().data as Array<{ id: number; product_type: number }>;
  const today = todayInIndia();
  return {
    first_name: 'Again', last_name: 'Sameimei', mobile: '+919812300098', device_brand: 'Samsung', device_model: 'A05', imei1, provisioning_type: 0,
    product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 300_000, down_payment_paise: 0, annual_rate_bps: 0, interest_method: 'flat',
    tenure_months: 3, start_date: today, first_due_date: addDays(today, 30),
  };
}

describe('who decides below', () => {
  it("switches and blocking are the direct parent's: an ancestor further up edits details only", async () => {
    const shop = await add(ravi, { user_type: 'retailer' });
    const shopToken = (await t.signIn(shop.mobile)).token;
    const counter = await add(shopToken, { user_type: 'miniretailer' });
    for (const change of [{ active: false }, { lock_access: { lock: '0' } }, { user_access: { feature_access: '1' } }]) {
      const res = await t.post('/api/country/updateUsers', { user_id: counter.id, ...change }, { token: ravi });
      expect(res.statusCode, JSON.stringify(change)).toBe(403);
    }
    expect((await t.post('/api/country/updateUsers', { user_id: counter.id, city: 'Madurai' }, { token: ravi })).statusCode).toBe(200);
    // The parent blocks it; the grandparent cannot lift that.
    expect((await t.post('/api/country/updateUsers', { user_id: counter.id, active: false }, { token: shopToken })).statusCode).toBe(200);
    expect((await t.post('/api/country/updateUsers', { user_id: counter.id, active: true }, { token: ravi })).statusCode).toBe(403);
    // Clearing a detail.
    const cleared = await t.post('/api/country/updateUsers', { user_id: counter.id, city: null, shop_name: null }, { token: shopToken });
    expect(cleared.json().data).toMatchObject({ city: null, shop_name: null });
  });
});

describe("a member's recent activity", () => {
  it("a parent reads the activity of a member below it (its own network or not), a member never its parent's", async () => {
    const shop = await add(ravi, { user_type: 'retailer' });
    const shopToken = (await t.signIn(shop.mobile)).token;
    expect((await transfer(shopToken, { kind: 'request', quantity: 1 })).statusCode).toBe(200);
    const seen = (await t.get(`/api/audit/list?user_id=${shop.id}&limit=50`, { token: ravi })).json().data;
    expect(seen.total).toBeGreaterThan(0);
    expect(new Set(seen.items.map((i: { user_id: number }) => i.user_id))).toEqual(new Set([shop.id]));
    expect(seen.items.map((i: { action: string }) => i.action)).toEqual(expect.arrayContaining(['auth.sign_in', 'keys.transfer']));
    const ravisId = ((await t.get('/api/user', { token: ravi })).json().data as Member).id;
    expect((await t.get(`/api/audit/list?user_id=${ravisId}`, { token: shopToken })).statusCode).toBe(404);
    expect((await t.get(`/api/audit/list?user_id=${ravisId}`, { token: (await t.signIn(MEENA)).token })).statusCode).toBe(404);
    // Its own network's customers stay its own: an enrolment shows in its log, not in the parent's view of it.
    expect((await transfer(ravi, { kind: 'send', to_user_id: shop.id, quantity: 1 })).statusCode).toBe(200);
    await deviceFixtures(t, () => shopToken).customer();
    const own = (await t.get('/api/audit/list?limit=50', { token: shopToken })).json().data.items as Array<{ action: string }>;
    expect(own.map((i) => i.action)).toContain('customer.enrol');
    const parents = (await t.get(`/api/audit/list?user_id=${shop.id}&limit=50`, { token: ravi })).json().data.items as Array<{ action: string; customer_id: number | null; targets: object }>;
    expect(parents.map((i) => i.action)).not.toContain('customer.enrol');
    expect(parents.every((i) => i.customer_id === null && Object.keys(i.targets).length === 0)).toBe(true);
    // One's own entries only.
    const mine = (await t.get(`/api/audit/list?user_id=${shop.id}`, { token: shopToken })).json().data;
    expect(mine.items.every((i: { user_id: number }) => i.user_id === shop.id)).toBe(true);
  });
});
