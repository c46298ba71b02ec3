/**
 * Extended warranty: the plans and their rules, a sale with its certificate and its key (once, even when a shop
 * submits at the same moment), revocation (the key back only before any claim), the certificate in the customer's
 * language, claim photos (sniffed like every upload), claims refused outside the rules, a claim walked through its
 * states with the payable amount worked out, and every sale, claim and move kept to the seller's network.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { startTestApp, RAVI, SUNITA, ARJUN, MEENA, type TestApp } from './harness.ts';
import { deviceFixtures } from './device-fixtures.ts';
import { runOperatorCommand } from '../src/modules/operator/operator.service.ts';

const root = mkdtempSync(path.join(tmpdir(), 'kisht-warranty-'));
let t: TestApp;
const tokens = { ravi: '', sunita: '', arjun: '', meena: '' };
const ids = { ravi: 0, sunita: 0 };

interface Rules { cover_kind: string; insurer_name: string | null; waiting_days: number; term_months: number; max_claims: number; covers_accidental: boolean; covers_liquid: boolean; covers_defects: boolean; deductible_bands: unknown[] }
interface Plan { id: number; name: string; product_type: number; rules: Rules }
interface Sale {
  id: number; certificate_no: string; state: string; cover_start: string; cover_end: string; keys_left?: number; retailer_id: number; plan_name: string;
  invoice_date: string; imei: string; mobile: string; claims_used: number; revoke_reason: string | null; customer_id: number | null; rules: Rules;
}
interface Claim {
  id: number; sale_id: number; state: string; payable_paise: number | null; deductible_bps: number | null; deductible_paise: number | null; device_age_months: number | null;
  cover_limit_paise: number | null; reject_reason: string | null; photo_ids: number[]; events: Array<{ from_state: string | null; to_state: string; by_user_id: number; by_name: string | null; at: string; note: string | null }>;
}

let plans: Plan[] = [];
let insurance: Plan;
let contract: Plan;
let image: Buffer;
const today = todayInIndia();
let serial = 0;

beforeAll(async () => {
  t = await startTestApp({ env: { UPLOAD_DIR: root } });
  for (const [who, mobile] of [['ravi', RAVI], ['sunita', SUNITA], ['arjun', ARJUN], ['meena', MEENA]] as const) {
    const signed = await t.signIn(mobile);
    tokens[who] = signed.token;
    if (who === 'ravi' || who === 'sunita') ids[who] = signed.userId;
  }
  // More sales than the demo stock: Ravi's keys are topped up for this file.
  await t.db.query('UPDATE license_balances SET balance = 100 WHERE user_id = $1 AND product_type = 5', [ids.ravi]);
  plans = (await t.get('/api/customer/get_plans_warranty', { token: tokens.ravi })).json().data as Plan[];
  insurance = plans.find((p) => p.rules.cover_kind === 'insurance')!;
  contract = plans.find((p) => p.rules.cover_kind === 'service_contract')!;
  image = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 40 } } }).jpeg().toBuffer();
});
afterAll(async () => {
  await t.stop();
  rmSync(root, { recursive: true, force: true });
});

const nextImei = () => withImeiCheckDigit(`3569${String(process.pid % 1000).padStart(3, '0')}${String(++serial).padStart(7, '0')}`);
const buyer = (plan: Plan, over: Record<string, unknown> = {}) => ({
  plan_id: plan.id, first_name: 'Meenakshi', last_name: 'Sundaram', mobile: '+919845070001', email: 'meenakshi@example.com', imei: nextImei(), brand: 'Samsung',
  model: 'Galaxy A55', invoice_value_paise: 3_999_900, invoice_date: today, ...over,
});
const sell = (body: Record<string, unknown>, token = tokens.ravi) => t.post('/api/customer/extended_warranty', body, { token });
const sold = async (plan: Plan, over: Record<string, unknown> = {}, token = tokens.ravi): Promise<Sale> => {
  const res = await sell(buyer(plan, over), token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Sale;
};
const keys = async (userId: number) =>
  (await t.db.query<{ balance: number }>('SELECT balance FROM license_balances WHERE user_id = $1 AND product_type = 5', [userId])).rows[0]?.balance ?? 0;
const photo = (saleId: number, token = tokens.ravi, file = { name: 'screen.jpg', type: 'image/jpeg', bytes: image }) =>
  t.upload('/api/customer/extended_warranty/claims/photo', token, { sale_id: saleId }, file);
const photoId = async (saleId: number) => {
  const res = await photo(saleId);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.photo_id as number;
};
const claim = async (sale: Sale, over: Record<string, unknown> = {}, token = tokens.ravi) =>
  t.post('/api/customer/extended_warranty/claims', { sale_id: sale.id, imei: sale.imei, cause: 'accidental', description: 'Dropped on the road; the screen is cracked.', photo_ids: [await photoId(sale.id)], ...over }, { token });
const move = (claimId: number, to: string, extra: Record<string, unknown> = {}, token = tokens.ravi) =>
  t.post('/api/customer/extended_warranty/claims/transition', { claim_id: claimId, to, ...extra }, { token });
/** Puts a sale's dates as if the phone was invoiced on `invoice` and the plan sold two days later. */
async function backdate(sale: Sale, invoice: string): Promise<void> {
  const rules = sale.rules;
  const saleDate = addDays(invoice, 2);
  await t.db.query('UPDATE warranty_sales SET invoice_date = $2, sale_date = $3, cover_start = $4, cover_end = $5 WHERE id = $1',
    [sale.id, invoice, saleDate, addDays(saleDate, rules.waiting_days), addDays(addMonths(invoice, rules.term_months), -1)]);
}

describe('extended warranty plans', () => {
  it('lists both kinds with their rules: a service contract, and insurance naming its insurer', () => {
    expect(plans.every((p) => p.product_type === 5)).toBe(true);
    expect(contract.rules).toMatchObject({ insurer_name: null, covers_defects: true, covers_accidental: false, covers_liquid: false });
    expect(insurance.rules).toMatchObject({ covers_accidental: true, covers_liquid: true, waiting_days: 7, max_claims: 2 });
    expect(insurance.rules.insurer_name).toBeTruthy();
    expect(insurance.rules.deductible_bands).toEqual([{ from_months: 0, to_months: 6, bps: 0 }, { from_months: 6, to_months: 12, bps: 1000 }, { from_months: 12, to_months: null, bps: 2000 }]);
  });

  it("gives another organisation its own plans", async () => {
    const meenas = (await t.get('/api/customer/get_plans_warranty', { token: tokens.meena })).json().data as Plan[];
    expect(meenas.map((p) => p.rules.cover_kind).sort()).toEqual(['insurance', 'service_contract']);
    expect(meenas.some((p) => plans.some((q) => q.id === p.id))).toBe(false);
  });
});

describe('selling', () => {
  it('sells: a certificate number, the cover from the sale plus the waiting period, one key used and in the key history', async () => {
    const before = await keys(ids.ravi);
    const res = await sell(buyer(insurance));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Extended warranty sold. Share the certificate with the customer.');
    const sale = res.json().data as Sale;
    expect(sale.certificate_no).toMatch(/^KW-\d{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    expect(sale).toMatchObject({ state: 'waiting', plan_name: insurance.name, cover_start: addDays(today, 7), cover_end: addDays(addMonths(today, 12), -1), keys_left: before - 1, claims_used: 0 });
    expect(await keys(ids.ravi)).toBe(before - 1);
    const history = (await t.get('/api/retailer/transaction/top_up_history?product_type=5', { token: tokens.ravi })).json().data.items as Array<{ kind: string; change: number }>;
    expect(history[0]).toMatchObject({ kind: 'consumed', change: -1 });
    const audit = (await t.db.query<{ targets: { plan_id: number; result: { id: number } } }>("SELECT targets FROM audit_log WHERE action = 'warranty.sell' ORDER BY id DESC LIMIT 1")).rows[0]!;
    expect(audit.targets).toMatchObject({ plan_id: insurance.id, result: { id: sale.id } });
    // A service contract starts at once (its defects are covered after the brand warranty).
    const repairs = await sold(contract);
    expect(repairs).toMatchObject({ state: 'in_cover', cover_start: today, cover_end: addDays(addMonths(today, 24), -1) });
  });

  it('refuses outside the purchase window, a bad IMEI, a future invoice, another plan and no key; nothing written', async () => {
    const count = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM warranty_sales')).rows[0]!.n;
    const before = await count();
    const late = await sell(buyer(insurance, { invoice_date: addDays(today, -16) }));
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'WARRANTY_PURCHASE_WINDOW_CLOSED', message: expect.stringContaining('invoice date') });
    const hindi = await t.post('/api/customer/extended_warranty', buyer(insurance, { invoice_date: addDays(today, -16) }), { token: tokens.ravi, headers: { cookie: 'i18next=hn' } });
    expect(hindi.json().message).toMatch(/[\u0900-\u097F]/);
    // The last day of the window is still open.
    expect((await sell(buyer(insurance, { invoice_date: addDays(today, -15) }))).statusCode).toBe(200);

    const imei = nextImei();
    const badImei = await sell(buyer(insurance, { imei: `${imei.slice(0, 14)}${(Number(imei[14]) + 1) % 10}` }));
    expect(badImei.statusCode).toBe(400);
    expect(badImei.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'imei', rule: 'imei_invalid' }] });
    const future = await sell(buyer(insurance, { invoice_date: addDays(today, 1) }));
    expect(future.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'invoice_date', rule: 'not_future_date', message: 'This date cannot be in the future.' }] });
    expect((await sell(buyer(insurance, { invoice_value_paise: 0 }))).json().code).toBe('VALIDATION_FAILED');
    expect((await sell(buyer(insurance, { invoice_value_paise: 100_000_001 }))).json().code).toBe('VALIDATION_FAILED');

    const meenasPlan = ((await t.get('/api/customer/get_plans_warranty', { token: tokens.meena })).json().data as Plan[])[0]!;
    expect((await sell(buyer(insurance, { plan_id: meenasPlan.id }))).json()).toMatchObject({ code: 'PLAN_NOT_AVAILABLE' });
    const antihacking = ((await t.get('/api/customer/get_plans_antihacking', { token: tokens.ravi })).json().data as Array<{ id: number }>)[0]!;
    expect((await sell(buyer(insurance, { plan_id: antihacking.id }))).json().code).toBe('PLAN_NOT_AVAILABLE');
    // Arjun holds no extended warranty keys.
    const noKey = await sell(buyer(insurance), tokens.arjun);
    expect(noKey.statusCode).toBe(409);
    expect(noKey.json().code).toBe('NO_LICENSE_KEY');
    // A customer of another network does not exist for the seller.
    const meenasCustomer = await deviceFixtures(t, () => tokens.meena).customer();
    expect((await sell(buyer(insurance, { customer_id: meenasCustomer.id }))).statusCode).toBe(404);
    expect(await count()).toBe(before + 1);
  });

  it('uses the last key once when a shop submits five sales at the same moment', async () => {
    await t.db.query('UPDATE license_balances SET balance = 1 WHERE user_id = $1 AND product_type = 5', [ids.sunita]);
    const lines = async () => (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM license_ledger WHERE user_id = $1 AND reason = 'plan_sale' AND warranty_sale_id IS NOT NULL", [ids.sunita])).rows[0]!.n;
    const sales = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM warranty_sales WHERE retailer_id = $1', [ids.sunita])).rows[0]!.n;
    const [linesBefore, salesBefore] = [await lines(), await sales()];
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => sell(buyer(insurance, { mobile: `+91984507100${i}` }), tokens.sunita)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409 && a.json().code === 'NO_LICENSE_KEY')).toHaveLength(4);
    expect(await keys(ids.sunita)).toBe(0);
    expect(await sales()).toBe(salesBefore + 1);
    expect(await lines()).toBe(linesBefore + 1);
    const history = (await t.get('/api/retailer/transaction/top_up_history?product_type=5', { token: tokens.sunita })).json().data.items as Array<{ kind: string; balance_after: number }>;
    expect(history[0]).toMatchObject({ kind: 'consumed', balance_after: 0 });
  });

  it('revokes: the key comes back once, and only while no claim was ever raised', async () => {
    const stock = await keys(ids.ravi);
    const sale = await sold(insurance);
    const revoked = await t.post('/api/customer/extended_warranty/revoke', { sale_id: sale.id, reason: 'Sold by mistake' }, { token: tokens.ravi });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toMatchObject({ message: 'Extended warranty cancelled.', data: { state: 'revoked', revoke_reason: 'Sold by mistake' } });
    expect(await keys(ids.ravi)).toBe(stock);
    expect((await t.post('/api/customer/extended_warranty/revoke', { sale_id: sale.id, reason: 'Again' }, { token: tokens.ravi })).json().data.revoke_reason).toBe('Sold by mistake');
    expect(await keys(ids.ravi)).toBe(stock);

    // A plan with a claim raised (even one later rejected) keeps its key when revoked.
    const claimed = await sold(insurance);
    await backdate(claimed, addDays(today, -10));
    const raised = await claim(claimed);
    expect(raised.statusCode, raised.body).toBe(200);
    await t.post('/api/customer/extended_warranty/revoke', { sale_id: claimed.id, reason: 'Refunded' }, { token: tokens.ravi });
    expect(await keys(ids.ravi)).toBe(stock - 1);
    // No new claim on a revoked plan.
    expect((await claim(claimed)).json().code).toBe('WARRANTY_NOT_IN_COVER');
    const released = (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM license_ledger WHERE warranty_sale_id = ANY($1::bigint[]) AND reason = 'plan_sale_released'", [[sale.id, claimed.id]])).rows[0]!.n;
    expect(released).toBe(1);
  });
});

describe('claims', () => {
  it('refuses a claim before the waiting period ends, and on another phone or for a cause the plan does not cover', async () => {
    const sale = await sold(insurance);
    const early = await claim(sale);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'WARRANTY_NOT_IN_COVER', message: expect.stringContaining('waiting period') });
    await backdate(sale, addDays(today, -10));
    const wrong = await claim(sale, { imei: nextImei() });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'WARRANTY_IMEI_MISMATCH', message: 'This IMEI does not match the phone the plan was sold for.' });
    expect((await claim(sale, { cause: 'defect' })).json().code).toBe('WARRANTY_NOT_COVERED');
    // A service contract covers a defect only after the brand warranty.
    const repairs = await sold(contract);
    expect((await claim(repairs, { cause: 'defect' })).json().code).toBe('WARRANTY_NOT_COVERED');
    await backdate(repairs, addMonths(today, -13));
    expect((await claim(repairs, { cause: 'defect' })).statusCode).toBe(200);
    // Nothing was written for the refusals but that last claim.
    expect((await t.get(`/api/customer/extended_warranty/claims?sale_id=${sale.id}`, { token: tokens.ravi })).json().data).toEqual([]);
  });

  it('walks a claim from intimated to repaired, working out the payable amount by the deductible band, each move with who and when', async () => {
    const sale = await sold(insurance, { invoice_value_paise: 3_999_900 });
    // Seven months old at the claim date: the 10 % band.
    await backdate(sale, addMonths(today, -7));
    const started = Date.now();
    const raised = await claim(sale);
    expect(raised.statusCode, raised.body).toBe(200);
    expect(raised.json().message).toBe('Claim raised.');
    const c = raised.json().data as Claim;
    expect(c).toMatchObject({ state: 'intimated', payable_paise: null, photo_ids: [expect.any(Number)] });

    expect((await move(c.id, 'approved', { assessed_cost_paise: 100 })).json().code).toBe('WARRANTY_CLAIM_STATE');
    expect((await move(c.id, 'documents')).statusCode).toBe(200);
    expect((await move(c.id, 'approved')).json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'assessed_cost_paise', rule: 'required' }] });
    const approved = await move(c.id, 'approved', { assessed_cost_paise: 1_234_567 });
    expect(approved.statusCode, approved.body).toBe(200);
    // 10 % of 12,345.67 rupees is 1,234.567: 1,234.57 off, 11,111.10 paid.
    expect(approved.json().data).toMatchObject({ state: 'approved', cover_limit_paise: 3_999_900, device_age_months: 7, deductible_bps: 1000, deductible_paise: 123_457, payable_paise: 1_111_110 });
    const repaired = await move(c.id, 'repaired', { reason: 'Screen replaced at the service centre' });
    expect(repaired.statusCode).toBe(200);
    const done = repaired.json().data as Claim;
    expect(done.events.map((e) => [e.from_state, e.to_state])).toEqual([[null, 'intimated'], ['intimated', 'documents'], ['documents', 'approved'], ['approved', 'repaired']]);
    for (const event of done.events) {
      expect(event).toMatchObject({ by_user_id: ids.ravi, by_name: 'Ravi Kumar' });
      expect(Date.parse(event.at)).toBeGreaterThanOrEqual(started - 1000);
      expect(Date.parse(event.at)).toBeLessThanOrEqual(Date.now() + 1000);
    }
    expect(done.events.at(-1)!.note).toBe('Screen replaced at the service centre');
    // Repaired is the end.
    expect((await move(c.id, 'settled')).json().code).toBe('WARRANTY_CLAIM_STATE');
    // The cost above the cover limit is capped: a second claim assessed at twice the invoice pays the limit less 10 %.
    const second = (await claim(sale, { cause: 'liquid' })).json().data as Claim;
    await move(second.id, 'documents');
    expect((await move(second.id, 'approved', { assessed_cost_paise: 8_000_000 })).json().data).toMatchObject({ payable_paise: 3_599_910 });
    // Every sale, claim and move is in the log.
    const log = (await t.db.query<{ action: string; status: number; targets: Record<string, unknown> }>(
      "SELECT action, status, targets FROM audit_log WHERE action LIKE 'warranty.claim%' AND (targets->>'claim_id' = $1 OR targets->'result'->>'id' = $1) ORDER BY id", [String(c.id)],
    )).rows;
    expect(log.map((r) => [r.action, r.status])).toEqual([
      ['warranty.claim', 200], ['warranty.claim_transition', 409], ['warranty.claim_transition', 200], ['warranty.claim_transition', 400],
      ['warranty.claim_transition', 200], ['warranty.claim_transition', 200], ['warranty.claim_transition', 409],
    ]);
    expect(log[2]!.targets).toMatchObject({ claim_id: c.id, to: 'documents' });
  });

  it('needs a reason to reject; a rejected claim does not count against the limit; over the limit is refused', async () => {
    const sale = await sold(insurance);
    await backdate(sale, addDays(today, -10));
    const first = (await claim(sale)).json().data as Claim;
    const noReason = await move(first.id, 'rejected');
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'reason', rule: 'required' }] });
    const rejected = await move(first.id, 'rejected', { reason: 'Damage happened before the plan was bought' });
    expect(rejected.json().data).toMatchObject({ state: 'rejected', reject_reason: 'Damage happened before the plan was bought' });
    expect((await move(first.id, 'documents')).json().code).toBe('WARRANTY_CLAIM_STATE');
    // Two claims the plan allows, the rejected one aside; a third is refused.
    expect((await claim(sale)).statusCode).toBe(200);
    expect((await claim(sale, { cause: 'liquid' })).statusCode).toBe(200);
    const over = await claim(sale);
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'WARRANTY_CLAIM_LIMIT', message: 'This plan has no claims left.' });
    expect((await t.get(`/api/customer/extended_warranty/readById?sale_id=${sale.id}`, { token: tokens.ravi })).json().data.claims_used).toBe(2);
  });

  it('refuses a claim on an expired plan, and the list says it expired', async () => {
    const sale = await sold(insurance);
    await backdate(sale, addMonths(today, -13));
    const late = await claim(sale);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('WARRANTY_NOT_IN_COVER');
    expect((await t.get(`/api/customer/extended_warranty/readById?sale_id=${sale.id}`, { token: tokens.ravi })).json().data.state).toBe('expired');
    expect((await t.get('/api/customer/extended_warranty?state=expired&limit=100', { token: tokens.ravi })).json().data.items.map((s: Sale) => s.id)).toContain(sale.id);
  });

  it('refuses a disguised photo and one of another sale, and stores a real one re-encoded', async () => {
    const sale = await sold(insurance);
    const photos = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM warranty_photos')).rows[0]!.n;
    const before = await photos();
    const text = await photo(sale.id, tokens.ravi, { name: 'screen.jpg', type: 'image/jpeg', bytes: Buffer.from('this is a text file, not a photo of a phone\n') });
    expect(text.statusCode).toBe(415);
    expect(text.json().code).toBe('UNSUPPORTED_FILE');
    const broken = await photo(sale.id, tokens.ravi, { name: 'screen.jpg', type: 'image/jpeg', bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('not really a jpeg')]) });
    expect(broken.json().code).toBe('IMAGE_INVALID');
    expect(await photos()).toBe(before);

    const stored = await photo(sale.id);
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toMatchObject({ message: 'Photo saved.', data: { sale_id: sale.id, content_type: 'image/jpeg' } });
    const read = await t.get(`/api/customer/extended_warranty/claims/photo?photo_id=${stored.json().data.photo_id}`, { token: tokens.ravi });
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(read.rawPayload).metadata()).width).toBe(64);

    // A photo uploaded for one sale cannot be used on another.
    const other = await sold(insurance);
    await backdate(other, addDays(today, -10));
    const misplaced = await claim(other, { photo_ids: [stored.json().data.photo_id] });
    expect(misplaced.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'photo_ids.0', rule: 'photo_unavailable' }] });
  });
});

describe('the certificate', () => {
  it("words the certificate in the language asked for, else the caller's", async () => {
    const sale = await sold(insurance);
    const hindi = (await t.get(`/api/customer/extended_warranty/certificate?sale_id=${sale.id}&lng=hn`, { token: tokens.ravi })).json().data;
    expect(hindi.lng).toBe('hn');
    expect(hindi.title).toMatch(/[\u0900-\u097F]/);
    expect(hindi.certificate_no).toBe(sale.certificate_no);
    expect(hindi.lines.find((l: { key: string }) => l.key === 'insurer').value).toBe(insurance.rules.insurer_name);
    expect(hindi.lines.find((l: { key: string }) => l.key === 'invoice_value').value).toBe('₹39,999');
    expect(hindi.lines.find((l: { key: string }) => l.key === 'cover_from').value).toBe(addDays(today, 7).split('-').reverse().join('-'));
    expect(hindi.covers).toHaveLength(2);
    expect(hindi.deductibles).toHaveLength(3);
    expect(hindi.deductibles[1]).toContain('10%');
    const english = (await t.get(`/api/customer/extended_warranty/certificate?sale_id=${sale.id}`, { token: tokens.ravi })).json().data;
    expect(english.title).toBe('Extended warranty certificate');
    expect(english.notes[0]).toContain(insurance.rules.insurer_name);
    expect(english.notes).toContain('Cover starts 7 days after the date of sale.');
    const tamil = (await t.call('GET', `/api/customer/extended_warranty/certificate?sale_id=${sale.id}`, { token: tokens.ravi, headers: { cookie: 'i18next=tm' } })).json().data;
    expect(tamil.lng).toBe('tm');
    expect(tamil.title).toMatch(/[\u0B80-\u0BFF]/);
    const repairs = (await t.get(`/api/customer/extended_warranty/certificate?sale_id=${(await sold(contract)).id}`, { token: tokens.ravi })).json().data;
    expect(repairs.notes[0]).toContain('It is not insurance.');
    expect(repairs.lines.some((l: { key: string }) => l.key === 'insurer')).toBe(false);
  });
});

describe('scope', () => {
  it("lists and searches the caller's sales: a mini-retailer its own, no one another network's", async () => {
    const sale = await sold(insurance, { first_name: 'Vasanthi', last_name: 'Krishnan', mobile: '+919845079999' });
    const search = async (q: string, token = tokens.ravi) => ((await t.get(`/api/customer/extended_warranty?limit=100&search=${encodeURIComponent(q)}`, { token })).json().data.items as Sale[]).map((s) => s.id);
    expect(await search(sale.certificate_no.toLowerCase())).toEqual([sale.id]);
    expect(await search(sale.imei)).toEqual([sale.id]);
    expect(await search('9999')).toContain(sale.id);
    expect(await search('vasanthi krish')).toEqual([sale.id]);
    expect(await search('%')).toEqual([]);
    const sunitas = (await t.get('/api/customer/extended_warranty?limit=100', { token: tokens.sunita })).json().data as { total: number; items: Sale[] };
    expect(sunitas.total).toBeGreaterThan(0);
    expect(sunitas.items.every((s) => s.retailer_id === ids.sunita)).toBe(true);
    expect(await search(sale.certificate_no, tokens.sunita)).toEqual([]);
    for (const token of [tokens.arjun, tokens.meena]) expect((await t.get('/api/customer/extended_warranty', { token })).json().data.total).toBe(0);
  });

  it("answers NOT_FOUND to a mini-retailer, a sibling retailer and another network for every sale, claim and photo of Ravi's", async () => {
    const sale = await sold(insurance, { first_name: 'Saraswathi', last_name: 'Ravindran' });
    await backdate(sale, addDays(today, -10));
    const c = (await claim(sale)).json().data as Claim;
    const photoOf = c.photo_ids[0]!;
    const spare = await photoId(sale.id);
    for (const [who, token] of [['sunita', tokens.sunita], ['arjun', tokens.arjun], ['meena', tokens.meena]] as const) {
      const answers = [
        await t.get(`/api/customer/extended_warranty/readById?sale_id=${sale.id}`, { token }),
        await t.get(`/api/customer/extended_warranty/claims?sale_id=${sale.id}`, { token }),
        await t.get(`/api/customer/extended_warranty/certificate?sale_id=${sale.id}`, { token }),
        await t.get(`/api/customer/extended_warranty/claims/photo?photo_id=${photoOf}`, { token }),
        await photo(sale.id, token),
        await t.post('/api/customer/extended_warranty/claims', { sale_id: sale.id, imei: sale.imei, cause: 'accidental', description: 'Mine now', photo_ids: [spare] }, { token }),
        await move(c.id, 'documents', {}, token),
        await move(c.id, 'rejected', { reason: 'Not covered' }, token),
        await t.post('/api/customer/extended_warranty/revoke', { sale_id: sale.id, reason: 'Taken over' }, { token }),
      ];
      for (const res of answers) {
        expect(res.statusCode, `${who}: ${res.body}`).toBe(404);
        expect(res.json().code).toBe('NOT_FOUND');
        expect(res.body).not.toContain('Saraswathi');
        expect(res.body).not.toContain(sale.imei);
      }
    }
    // Nothing moved.
    const after = (await t.get(`/api/customer/extended_warranty/claims?sale_id=${sale.id}`, { token: tokens.ravi })).json().data as Claim[];
    expect(after.map((x) => x.state)).toEqual(['intimated']);
    expect((await t.get(`/api/customer/extended_warranty/readById?sale_id=${sale.id}`, { token: tokens.ravi })).json().data.state).toBe('in_cover');
  });
});

describe("the customer's details", () => {
  it("lists a financed customer's warranties with their claims, and anti-hacking plans on the same mobile", async () => {
    const f = deviceFixtures(t, () => tokens.ravi);
    const customer = await f.customer({ mobile: '+919845078888' });
    const linked = await sold(insurance, { customer_id: customer.id, mobile: '+919845078888' });
    expect(linked.customer_id).toBe(customer.id);
    await backdate(linked, addDays(today, -10));
    await claim(linked);
    const other = await sold(contract, { mobile: '+919845078888' });
    const ah = ((await t.get('/api/customer/get_plans_antihacking', { token: tokens.ravi })).json().data as Array<{ id: number; app_type: number }>)[0]!;
    const code = await t.post('/api/customer/add_customer_antihacking', { firstName: 'Device', lastName: 'Owner', mobile: '+919845078888', plan_id: ah.id, app_type: ah.app_type }, { token: tokens.ravi });
    expect(code.statusCode, code.body).toBe(200);
    const res = await t.get(`/api/customer/plans?customer_id=${customer.id}`, { token: tokens.ravi });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as { warranty: Array<Sale & { claims: Claim[] }>; antihacking: Array<{ id: number; mobile: string }> };
    expect(data.warranty.map((s) => s.id)).toEqual([other.id, linked.id]);
    expect(data.warranty[1]!.claims.map((c) => c.state)).toEqual(['intimated']);
    expect(data.antihacking.map((s) => s.id)).toEqual([code.json().data[0].id]);
    for (const token of [tokens.sunita, tokens.arjun, tokens.meena]) expect((await t.get(`/api/customer/plans?customer_id=${customer.id}`, { token })).statusCode).toBe(404);
  });
});

describe("the operator's warranty rules", () => {
  it('changes a plan for later sales only, refuses rules that break the plan checks, and audits the change', async () => {
    const lines: string[] = [];
    const run = (...args: string[]) => runOperatorCommand(t.db, args, (line) => lines.push(line));
    const meenas = (await t.get('/api/customer/get_plans_warranty', { token: tokens.meena })).json().data as Plan[];
    const meenasInsurance = meenas.find((p) => p.rules.cover_kind === 'insurance')!;
    const meenasContract = meenas.find((p) => p.rules.cover_kind === 'service_contract')!;
    const before = await sold(meenasInsurance, {}, tokens.meena);
    expect(before.rules.waiting_days).toBeGreaterThan(0);

    // Damage cover on a repair plan, a brand warranty past the term, unknown keys and bad values: refused, nothing changed.
    expect(await run('warranty-rules', String(meenasContract.id), 'covers_accidental=on')).toBe(1);
    expect(lines.pop()).toMatch(/break the plan's checks/);
    expect(await run('warranty-rules', String(meenasContract.id), 'brand_warranty_months=60')).toBe(1);
    expect(await run('warranty-rules', String(meenasContract.id), 'colour=red')).toBe(1);
    expect(await run('warranty-rules', String(meenasInsurance.id), 'waiting_days=-1')).toBe(1);
    expect(await run('warranty-rules', '999999', 'waiting_days=0')).toBe(1);
    expect(((await t.get('/api/customer/get_plans_warranty', { token: tokens.meena })).json().data as Plan[]).find((p) => p.id === meenasContract.id)!.rules).toEqual(meenasContract.rules);

    expect(await run('warranty-rules', String(meenasInsurance.id), 'waiting_days=0')).toBe(0);
    // The earlier sale keeps its rules; a new one starts its cover at once and takes a claim the same day.
    expect((await t.get(`/api/customer/extended_warranty/readById?sale_id=${before.id}`, { token: tokens.meena })).json().data.rules.waiting_days).toBe(before.rules.waiting_days);
    const after = await sold(meenasInsurance, {}, tokens.meena);
    expect(after.rules.waiting_days).toBe(0);
    expect(after.cover_start).toBe(today);
    const meenasClaim = async (sale: Sale) => t.post('/api/customer/extended_warranty/claims', {
      sale_id: sale.id, imei: sale.imei, cause: 'accidental', description: 'Fell into a bucket of water.',
      photo_ids: [(await photo(sale.id, tokens.meena)).json().data.photo_id as number],
    }, { token: tokens.meena });
    const raised = await meenasClaim(after);
    expect(raised.statusCode, raised.body).toBe(200);
    expect((await meenasClaim(before)).json().code).toBe('WARRANTY_NOT_IN_COVER');
    const audited = (await t.db.query<{ targets: { plan_id: number; waiting_days: number } }>("SELECT targets FROM audit_log WHERE action = 'operator.warranty_rules'")).rows;
    expect(audited.map((r) => r.targets)).toEqual([expect.objectContaining({ plan_id: meenasInsurance.id, waiting_days: 0 })]);
  });
});

describe('blank text', () => {
  it('refuses a name, reason or description of spaces alone with 400 VALIDATION_FAILED, and writes nothing', async () => {
    const sale = await sold(contract);
    const blankName = await sell(buyer(contract, { first_name: '   ' }));
    expect([blankName.statusCode, blankName.json().code]).toEqual([400, 'VALIDATION_FAILED']);
    const blankClaim = await t.post('/api/customer/extended_warranty/claims', { sale_id: sale.id, imei: sale.imei, cause: 'defect', description: ' \n ', photo_ids: [await photoId(sale.id)] }, { token: tokens.ravi });
    expect([blankClaim.statusCode, blankClaim.json().code]).toEqual([400, 'VALIDATION_FAILED']);
    const blankRevoke = await t.post('/api/customer/extended_warranty/revoke', { sale_id: sale.id, reason: '  ' }, { token: tokens.ravi });
    expect([blankRevoke.statusCode, blankRevoke.json().code]).toEqual([400, 'VALIDATION_FAILED']);
    const still = (await t.get(`/api/customer/extended_warranty/readById?sale_id=${sale.id}`, { token: tokens.ravi })).json().data as Sale;
    expect([still.state, still.claims_used, still.revoke_reason]).toEqual([sale.state, 0, null]);
  });
});
