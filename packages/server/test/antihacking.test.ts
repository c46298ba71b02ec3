/**
 * Anti-hacking plans: the plan lists, a sale with its code and its key, the list and its scope, revocation (the key
 * back only before activation), and the activation the security app makes: once, bound to the mobile, a typo
 * refused before any lookup, guessing stopped, every outcome in the seller's audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passesVerhoeff, formatActivationCode } from '@kisht/domain/activation-code';
import { startTestApp, RAVI, SUNITA, ARJUN, MEENA, type TestApp } from './harness.ts';
import { ACTIVATION_FAILURES_ALLOWED } from '../src/modules/antihacking/antihacking.service.ts';
import { runOperatorCommand } from '../src/modules/operator/operator.service.ts';

let t: TestApp;
const tokens = { ravi: '', sunita: '', arjun: '', meena: '' };
interface KindPlan { id: number; name: string; app_type: number; product_id: number; product_type: number; validity_days: number; price_paise: number | null }
interface Sale { id: number; antihacking_code: string | null; state: string; mobile: string; plan_name: string; expires_at: string; activated_at: string | null; keys_left?: number; retailer_id: number }
let plans: KindPlan[] = [];

beforeAll(async () => {
  t = await startTestApp();
  for (const [who, mobile] of [['ravi', RAVI], ['sunita', SUNITA], ['arjun', ARJUN], ['meena', MEENA]] as const) tokens[who] = (await t.signIn(mobile)).token;
  plans = (await t.get('/api/customer/get_plans_antihacking', { token: tokens.ravi })).json().data as KindPlan[];
});
afterAll(() => t.stop());

const sell = (body: Record<string, unknown>, token = tokens.ravi) => t.post('/api/customer/add_customer_antihacking', body, { token });
const buyer = (plan: KindPlan, mobile = '+919845011111') => ({ firstName: 'Lakshmi', lastName: 'Narayanan', email: 'lakshmi@example.com', mobile, plan_id: plan.id, app_type: plan.app_type, plan_name: plan.name });
const activate = (body: Record<string, unknown>, ip = '10.1.1.1') =>
  t.app.inject({ method: 'POST', url: '/api/antihacking/activate', payload: body, remoteAddress: ip });
const keys = async (mobile: string, productType: number) =>
  (await t.db.query<{ balance: number }>('SELECT b.balance FROM license_balances b JOIN users u ON u.id = b.user_id WHERE u.mobile = $1 AND b.product_type = $2', [mobile, productType])).rows[0]?.balance ?? 0;

describe('anti-hacking plans', () => {
  it('lists the organisation\'s tiers with their app types, and family care apart', async () => {
    expect(plans.map((p) => p.product_type)).toEqual([8, 12, 13]);
    for (const plan of plans) expect(plan.app_type).toBe(plan.product_type);
    expect(plans.every((p) => p.validity_days > 0 && (p.price_paise ?? 0) > 0)).toBe(true);
    const meenas = (await t.get('/api/customer/get_plans_antihacking', { token: tokens.meena })).json().data as KindPlan[];
    expect(meenas.map((p) => p.product_type)).toEqual([8]);
    expect(meenas.some((p) => plans.some((q) => q.id === p.id))).toBe(false);
    const family = (await t.get('/api/customer/get_plans_familycare', { token: tokens.ravi })).json().data as KindPlan[];
    expect(family.map((p) => p.product_type)).toEqual([7]);
  });

  it('sells a plan: a random code with its check digit, one key of the tier used, a line in the key history', async () => {
    const plan = plans.find((p) => p.product_type === 12)!;
    const before = await keys(RAVI, 12);
    const res = await sell(buyer(plan));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Anti-hacking plan added. Share the code with the customer.');
    const [sale] = res.json().data as Sale[];
    expect(sale).toMatchObject({ state: 'issued', mobile: '+919845011111', plan_name: plan.name, activated_at: null, keys_left: before - 1 });
    expect(sale!.antihacking_code).toMatch(/^[1-9][0-9]{15}$/);
    expect(passesVerhoeff(sale!.antihacking_code!)).toBe(true);
    const days = (Date.parse(sale!.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(plan.validity_days - 1);
    expect(days).toBeLessThanOrEqual(plan.validity_days);
    expect(await keys(RAVI, 12)).toBe(before - 1);
    const history = (await t.get('/api/retailer/transaction/top_up_history?product_type=12', { token: tokens.ravi })).json().data.items as Array<{ kind: string; change: number }>;
    expect(history[0]).toMatchObject({ kind: 'consumed', change: -1 });
    // Two sales never share a code, and codes are not a sequence.
    const second = (await sell(buyer(plan, '+919845011112'))).json().data[0] as Sale;
    expect(second.antihacking_code).not.toBe(sale!.antihacking_code);
    expect(Math.abs(Number(second.antihacking_code!.slice(0, 15)) - Number(sale!.antihacking_code!.slice(0, 15)))).toBeGreaterThan(1000);
  });

  it('refuses a missing field, another organisation\'s or another kind\'s plan, a wrong app type, and no key: nothing written', async () => {
    const plan = plans[0]!;
    const count = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM antihacking_sales')).rows[0]!.n;
    const before = await count();
    const { firstName: _, ...noName } = buyer(plan);
    const missing = await sell(noName);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('VALIDATION_FAILED');
    expect((await sell({ ...buyer(plan), mobile: '9845011111' })).statusCode).toBe(400);
    const meenasPlan = ((await t.get('/api/customer/get_plans_antihacking', { token: tokens.meena })).json().data as KindPlan[])[0]!;
    const foreign = await sell({ ...buyer(plan), plan_id: meenasPlan.id, app_type: meenasPlan.app_type });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ code: 'PLAN_NOT_AVAILABLE', message: 'This plan is not available. Choose another plan.' });
    const dpcPlan = (await t.get('/api/plans', { token: tokens.ravi })).json().data.find((p: { plan_type: number }) => p.plan_type === 0) as { id: number };
    expect((await sell({ ...buyer(plan), plan_id: dpcPlan.id, app_type: 0 })).json().code).toBe('PLAN_NOT_AVAILABLE');
    expect((await sell({ ...buyer(plan), app_type: 13 === plan.app_type ? 8 : 13 })).json().code).toBe('PLAN_NOT_AVAILABLE');
    // Arjun holds no anti-hacking keys.
    const arjunsPlan = plans.find((p) => p.product_type === 8)!;
    const noKey = await sell(buyer(arjunsPlan), tokens.arjun);
    expect(noKey.statusCode).toBe(409);
    expect(noKey.json().code).toBe('NO_LICENSE_KEY');
    expect(await count()).toBe(before);
  });

  it('uses each key once when a shop submits many sales at the same moment', async () => {
    const plan = plans.find((p) => p.product_type === 8)!;
    const stock = await keys(SUNITA, 8);
    expect(stock).toBeGreaterThan(0);
    const answers = await Promise.all(Array.from({ length: stock + 3 }, (_, i) => sell(buyer(plan, `+9198450200${String(i).padStart(2, '0')}`), tokens.sunita)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(stock);
    expect(codes.filter((c) => c === 409)).toHaveLength(3);
    expect(await keys(SUNITA, 8)).toBe(0);
    const sunita = (await t.db.query<{ n: number; lines: number }>(
      `SELECT (SELECT count(*)::int FROM antihacking_sales s JOIN users u ON u.id = s.retailer_id WHERE u.mobile = $1) AS n,
              (SELECT count(*)::int FROM license_ledger l JOIN users u ON u.id = l.user_id WHERE u.mobile = $1 AND l.reason = 'plan_sale') AS lines`, [SUNITA],
    )).rows[0]!;
    expect(sunita).toEqual({ n: stock, lines: stock });
  });

  it('lists sales within the caller\'s scope: the retailer its network\'s, a mini-retailer its own, no one another network\'s', async () => {
    const mine = (await t.get('/api/customer/antihacking?limit=100', { token: tokens.ravi })).json().data as { total: number; items: Sale[] };
    const sunitas = (await t.get('/api/customer/antihacking?limit=100', { token: tokens.sunita })).json().data as { total: number; items: Sale[] };
    const sunitaId = (await t.db.query<{ id: number }>('SELECT id FROM users WHERE mobile = $1', [SUNITA])).rows[0]!.id;
    expect(sunitas.total).toBeGreaterThan(0);
    expect(sunitas.items.every((s) => s.retailer_id === sunitaId)).toBe(true);
    // Ravi sees his own sales and those of his mini-retailer.
    expect(mine.total).toBeGreaterThan(sunitas.total);
    expect(sunitas.items.every((s) => mine.items.some((m) => m.id === s.id))).toBe(true);
    expect((await t.get('/api/customer/antihacking', { token: tokens.arjun })).json().data.total).toBe(0);
    expect((await t.get('/api/customer/antihacking', { token: tokens.meena })).json().data.total).toBe(0);
    // Search by the code (as read aloud, with spaces), by the mobile's last digits, by name.
    const one = mine.items.find((s) => s.antihacking_code)!;
    const byCode = (await t.get(`/api/customer/antihacking?search=${encodeURIComponent(formatActivationCode(one.antihacking_code!))}`, { token: tokens.ravi })).json().data;
    expect(byCode.items.map((s: Sale) => s.id)).toEqual([one.id]);
    expect((await t.get(`/api/customer/antihacking?search=${one.mobile.slice(-6)}`, { token: tokens.ravi })).json().data.items.map((s: Sale) => s.id)).toContain(one.id);
    expect((await t.get('/api/customer/antihacking?search=lakSHMI', { token: tokens.ravi })).json().data.total).toBeGreaterThan(0);
    expect((await t.get('/api/customer/antihacking?search=%25', { token: tokens.ravi })).json().data.total).toBe(0);
  });

  it('activates once, for the mobile it was sold to; the same installation asking again gets it back; another phone does not', async () => {
    const plan = plans.find((p) => p.product_type === 8)!;
    const sale = (await sell(buyer(plan, '+919845033333'))).json().data[0] as Sale;
    const code = formatActivationCode(sale.antihacking_code!);
    const wrongMobile = await activate({ code, mobile: '+919845033334', install_id: 'install-one-0001' });
    expect(wrongMobile.statusCode).toBe(404);
    expect(wrongMobile.json().code).toBe('ACTIVATION_CODE_UNKNOWN');
    const ok = await activate({ code, mobile: '+919845033333', install_id: 'install-one-0001', device_model: 'Redmi Note 13' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ plan_name: plan.name, app_type: 8, expires_at: sale.expires_at });
    const again = await activate({ code: sale.antihacking_code, mobile: '+919845033333', install_id: 'install-one-0001' });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.activated_at).toBe(ok.json().data.activated_at);
    const other = await activate({ code, mobile: '+919845033333', install_id: 'install-two-0002' });
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('ACTIVATION_CODE_USED');
    const read = (await t.get(`/api/customer/antihacking/readById?sale_id=${sale.id}`, { token: tokens.ravi })).json().data;
    expect(read).toMatchObject({ state: 'activated', device_model: 'Redmi Note 13', antihacking_code: sale.antihacking_code });
    // The seller's network sees the activation and the refusals in its activity log.
    const log = (await t.db.query<{ action: string; error_code: string | null }>(
      "SELECT action, error_code FROM audit_log WHERE action LIKE 'antihacking.activat%' AND targets->>'sale_id' = $1 ORDER BY id", [String(sale.id)],
    )).rows;
    expect(log).toEqual([{ action: 'antihacking.activated', error_code: null }, { action: 'antihacking.activation_refused', error_code: 'ACTIVATION_CODE_USED' }]);
  });

  it('refuses a mistyped code before any lookup, and stops an address that keeps guessing', async () => {
    const plan = plans.find((p) => p.product_type === 8)!;
    const sale = (await sell(buyer(plan, '+919845044444'))).json().data[0] as Sale;
    const code = sale.antihacking_code!;
    // One digit changed: the check digit catches it; it does not count as a guess.
    const typo = `${code.slice(0, 5)}${(Number(code[5]) + 1) % 10}${code.slice(6)}`;
    const mistyped = await activate({ code: typo, mobile: '+919845044444', install_id: 'install-guess-01' }, '10.9.9.9');
    expect(mistyped.statusCode).toBe(400);
    expect(mistyped.json().code).toBe('ACTIVATION_CODE_INVALID');
    // Well-formed guesses: each counts, and after the allowance the address waits, even with the right code.
    const guesses = Array.from({ length: ACTIVATION_FAILURES_ALLOWED }, (_, i) => {
      const body = `4${String(i).padStart(14, '7')}`;
      const check = Array.from({ length: 10 }, (_, d) => `${body}${d}`).find(passesVerhoeff)!;
      return check;
    });
    for (const guess of guesses) expect((await activate({ code: guess, mobile: '+919845044444', install_id: 'install-guess-01' }, '10.9.9.9')).statusCode).toBe(404);
    const stopped = await activate({ code, mobile: '+919845044444', install_id: 'install-guess-01' }, '10.9.9.9');
    expect(stopped.statusCode).toBe(429);
    expect(stopped.json()).toMatchObject({ code: 'RATE_LIMITED', retry_after_seconds: 3600 });
    // Another address is not held up by this one.
    expect((await activate({ code, mobile: '+919845044444', install_id: 'install-guess-01' }, '10.9.9.10')).statusCode).toBe(200);
  });

  it('revokes: the code stops working at once; the key comes back only if the code was never activated', async () => {
    const plan = plans.find((p) => p.product_type === 13)!;
    const stock = await keys(RAVI, 13);
    const unused = (await sell(buyer(plan, '+919845055555'))).json().data[0] as Sale;
    const used = (await sell(buyer(plan, '+919845055556'))).json().data[0] as Sale;
    expect((await activate({ code: used.antihacking_code, mobile: '+919845055556', install_id: 'install-used-01' })).statusCode).toBe(200);
    expect(await keys(RAVI, 13)).toBe(stock - 2);

    const revoked = await t.post('/api/customer/antihacking/revoke', { sale_id: unused.id, reason: 'Sold by mistake' }, { token: tokens.ravi });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().data).toMatchObject({ state: 'revoked', antihacking_code: null, revoke_reason: 'Sold by mistake' });
    expect(await keys(RAVI, 13)).toBe(stock - 1);
    // Revoking again changes nothing (no second key back).
    expect((await t.post('/api/customer/antihacking/revoke', { sale_id: unused.id, reason: 'Again' }, { token: tokens.ravi })).json().data.revoke_reason).toBe('Sold by mistake');
    expect(await keys(RAVI, 13)).toBe(stock - 1);
    const refused = await activate({ code: unused.antihacking_code, mobile: '+919845055555', install_id: 'install-late-01' });
    expect(refused.statusCode).toBe(410);
    expect(refused.json().code).toBe('ACTIVATION_CODE_REVOKED');

    // An activated code revoked: no key back; the phone's next check is refused.
    await t.post('/api/customer/antihacking/revoke', { sale_id: used.id, reason: 'Refunded' }, { token: tokens.ravi });
    expect(await keys(RAVI, 13)).toBe(stock - 1);
    expect((await activate({ code: used.antihacking_code, mobile: '+919845055556', install_id: 'install-used-01' })).json().code).toBe('ACTIVATION_CODE_REVOKED');
    const history = (await t.get('/api/retailer/transaction/top_up_history?product_type=13', { token: tokens.ravi })).json().data.items as Array<{ kind: string }>;
    expect(history.filter((h) => h.kind === 'released')).toHaveLength(1);
  });

  it('expires by the plan\'s validity: the list says so and the phone is told', async () => {
    const plan = plans.find((p) => p.product_type === 8)!;
    const sale = (await sell(buyer(plan, '+919845066666'))).json().data[0] as Sale;
    await t.db.query("UPDATE antihacking_sales SET expires_at = now() - interval '1 minute' WHERE id = $1", [sale.id]);
    const read = (await t.get(`/api/customer/antihacking/readById?sale_id=${sale.id}`, { token: tokens.ravi })).json().data;
    expect(read).toMatchObject({ state: 'expired', antihacking_code: null });
    const late = await activate({ code: sale.antihacking_code, mobile: '+919845066666', install_id: 'install-exp-001' });
    expect(late.statusCode).toBe(410);
    expect(late.json().code).toBe('ACTIVATION_CODE_EXPIRED');
    expect((await t.get('/api/customer/antihacking?state=expired', { token: tokens.ravi })).json().data.items.map((s: Sale) => s.id)).toContain(sale.id);
  });

  it('lets the operator add and change products and plans; a plan switched off is not sold, a sale keeps what it was sold with', async () => {
    const lines: string[] = [];
    const run = (...args: string[]) => runOperatorCommand(t.db, args, (line) => lines.push(line));
    expect(await run('plan-add', '46', '12', '365', '449.50', 'Anti-hacking', 'Pro', '-', 'Chennai')).toBe(1);
    expect(lines.pop()).toMatch(/no product of type 12/);
    expect(await run('product', '46', '12', 'Anti-hacking', 'Pro')).toBe(0);
    expect(await run('plan-add', '46', '12', '365', '449.50', 'Anti-hacking', 'Pro', '-', 'Chennai')).toBe(0);
    const planId = Number(/^Plan (\d+):/.exec(lines.pop()!)![1]);
    const meenas = (await t.get('/api/customer/get_plans_antihacking', { token: tokens.meena })).json().data as KindPlan[];
    expect(meenas.find((p) => p.id === planId)).toMatchObject({ name: 'Anti-hacking Pro - Chennai', app_type: 12, price_paise: 44_950, validity_days: 365 });
    expect(await run('plan-add', '46', '12', '365', '449.505', 'Too', 'precise')).toBe(1);
    expect(await run('plan-set', String(planId), 'price=abc')).toBe(1);

    // Sold, then renamed and switched off: the sale keeps the old name; the plan is no longer offered or sold.
    await t.db.query("INSERT INTO license_balances (user_id, product_type, balance) SELECT id, 12, 1 FROM users WHERE mobile = $1", [MEENA]);
    const sale = (await sell(buyer(meenas.find((p) => p.id === planId)!), tokens.meena)).json().data[0] as Sale;
    expect(await run('plan-set', String(planId), 'name=Renamed', 'active=off')).toBe(0);
    expect((await t.get(`/api/customer/antihacking/readById?sale_id=${sale.id}`, { token: tokens.meena })).json().data.plan_name).toBe('Anti-hacking Pro - Chennai');
    expect(((await t.get('/api/customer/get_plans_antihacking', { token: tokens.meena })).json().data as KindPlan[]).some((p) => p.id === planId)).toBe(false);
    expect((await sell({ ...buyer(meenas.find((p) => p.id === planId)!), plan_name: 'Renamed' }, tokens.meena)).json().code).toBe('PLAN_NOT_AVAILABLE');
    expect(await run('plans', '46')).toBe(0);
    expect(lines.some((l) => l.includes(`plan ${planId}\tRenamed`) && l.endsWith('(off)'))).toBe(true);
    const audited = (await t.db.query<{ action: string }>("SELECT action FROM audit_log WHERE action IN ('operator.product', 'operator.plan_add', 'operator.plan_set') ORDER BY id")).rows.map((r) => r.action);
    expect(audited).toEqual(['operator.product', 'operator.plan_add', 'operator.plan_set']);
  });

  it('answers in the caller\'s language', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/api/antihacking/activate', headers: { cookie: 'i18next=hn' },
      payload: { code: '1234 5678 9012 3456', mobile: '+919845011111', install_id: 'install-lang-01' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('ACTIVATION_CODE_INVALID');
    expect(res.json().message).toMatch(/[\u0900-\u097F]/);
  });
});
