/**
 * The ledger explains every rupee (issue 15, decision 028): payments split into penalty, interest, GST and
 * principal by the loan's product, reversals that take back the same parts, penalty waivers behind a switch,
 * every schedule change kept with who, when, before, after and why, a statement that adds up to what is owed
 * after any sequence of operations, and foreclosure at today's quote, after which the phone can be released.
 * Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { addDays, addMonths } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { STANDARD_PRODUCT, type LoanProductSettings } from '@kisht/domain/loan-product';
import type { EmiDetails, ForeclosureQuote, InstalmentChange, Receipt, Statement } from '@kisht/contract/emi';
import { RAVI, SUNITA, MEENA, type TestApp } from './harness.ts';
import { startDeviceApp, type deviceFixtures } from './device-fixtures.ts';

let t: TestApp;
let ravi: string;
let sunita: string;
let meena: string;
let f: ReturnType<typeof deviceFixtures>;
let seq = 1;
const today = todayInIndia();
/** Ravi's products made for these tests: one settling each part across instalments with a 2% foreclosure fee. */
let componentProduct: number;

beforeAll(async () => {
  ({ t, ravi, f } = await startDeviceApp());
  sunita = (await t.signIn(SUNITA)).token;
  meena = (await t.signIn(MEENA)).token;
  const settings: LoanProductSettings = { ...STANDARD_PRODUCT, allocation: { order: ['penalty', 'interest', 'principal'], across: 'component' }, foreclosureFeeBps: 200 };
  componentProduct = (await t.db.query<{ id: number }>(
    `INSERT INTO loan_products (org_id, name, settings) SELECT org_id, 'Ledger test: parts across instalments', $2 FROM users WHERE mobile = $1 RETURNING id`,
    [RAVI, JSON.stringify(settings)],
  )).rows[0]!.id;
});
afterAll(() => t.stop());

/** A reducing-balance loan of Rs 30,000 at 24% over 6 months, started `monthsAgo` months back. */
async function enrol(options: { token?: string; monthsAgo?: number; loan?: Record<string, unknown> } = {}) {
  const token = options.token ?? ravi;
  const kinds = (await t.get('/api/products', { token })).json().data as Array<{ id: number; product_type: number }>;
  const start = addMonths(today, -(options.monthsAgo ?? 0));
  const res = await t.post('/api/customer', {
    first_name: 'Ledger', last_name: `Customer${seq}`, mobile: '+919812300077', device_brand: 'Redmi', device_model: '13C',
    imei1: withImeiCheckDigit(`3588888${String(process.pid % 100).padStart(2, '0')}${String(seq++).padStart(5, '0')}`), provisioning_type: 0,
    product_id: kinds.find((p) => p.product_type === 0)!.id, price_paise: 30_000_00, down_payment_paise: 0, annual_rate_bps: 2400,
    interest_method: 'reducing', tenure_months: 6, start_date: start, first_due_date: addMonths(start, 1), ...options.loan,
  }, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.customer as { id: number };
}

const details = async (id: number, token = ravi) => (await t.get(`/api/emi/customer_emi_details?customer_id=${id}`, { token })).json().data as EmiDetails;
const statement = async (id: number, token = ravi) => (await t.get(`/api/emi/statement?customer_id=${id}`, { token })).json().data as Statement;
const changes = async (id: number) => (await t.get(`/api/emi/instalment_changes?customer_id=${id}`, { token: ravi })).json().data as InstalmentChange[];
const quote = async (id: number) => (await t.get(`/api/emi/foreclosure_quote?customer_id=${id}`, { token: ravi })).json().data as ForeclosureQuote;
const pay = async (id: number, amount: number) => {
  const res = await t.post('/api/emi/multiple_emi_paid', { customer_id: id, amount_paise: amount, method: 'cash' }, { token: ravi });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Receipt;
};
const partsSum = (p: { penalty_paise: number; interest_paise: number; tax_paise: number; principal_paise: number }) => p.penalty_paise + p.interest_paise + p.tax_paise + p.principal_paise;

/** What the database says each instalment has paid of each part, against its parts. */
async function paidParts(customerId: number) {
  return (await t.db.query<{ number: number; over: boolean; paid_penalty_paise: number; paid_interest_paise: number; paid_tax_paise: number; paid_principal_paise: number }>(
    `SELECT number, paid_penalty_paise, paid_interest_paise, paid_tax_paise, paid_principal_paise,
            (paid_penalty_paise > penalty_paise OR paid_interest_paise > interest_paise OR paid_tax_paise > tax_paise OR paid_principal_paise > principal_paise) AS over
       FROM emi_instalments WHERE customer_id = $1 ORDER BY number`,
    [customerId],
  )).rows;
}

describe('payments split into parts', () => {
  it('settles penalty, then interest, then principal of the oldest instalment first, and the receipt shows the parts', async () => {
    const c = await enrol({ monthsAgo: 2 });
    const [first, second] = (await details(c.id)).instalments;
    expect(first!.interest_paise).toBe(600_00); // 2% of Rs 30,000
    const penalty = await t.post('/api/emi/send_penalty', { customer_id: c.id, instalment_id: first!.id, amount_paise: 250_00, reason: 'Paid late' }, { token: ravi });
    expect(penalty.statusCode, penalty.body).toBe(200);
    const receipt = await pay(c.id, 1_000_00);
    expect(receipt.loan_product).toBeNull();
    expect(receipt.allocations).toEqual([
      expect.objectContaining({ instalment_number: 1, amount_paise: 1_000_00, parts: { penalty_paise: 250_00, interest_paise: 600_00, tax_paise: 0, principal_paise: 150_00 } }),
    ]);
    // The rest of the first instalment is principal; then the second's interest comes before its principal.
    const rest = first!.amount_paise + 250_00 - 1_000_00;
    const next = await pay(c.id, rest + second!.interest_paise + 1);
    expect(next.allocations.map((a) => a.parts)).toEqual([
      { penalty_paise: 0, interest_paise: 0, tax_paise: 0, principal_paise: rest },
      { penalty_paise: 0, interest_paise: second!.interest_paise, tax_paise: 0, principal_paise: 1 },
    ]);
    const again = (await t.get(`/api/emi/receipt?payment_id=${receipt.payment_id}`, { token: ravi })).json().data as Receipt;
    expect(again.allocations[0]!.parts).toEqual(receipt.allocations[0]!.parts);
    expect((await paidParts(c.id)).slice(0, 2)).toEqual([
      { number: 1, over: false, paid_penalty_paise: 250_00, paid_interest_paise: 600_00, paid_tax_paise: 0, paid_principal_paise: first!.principal_paise },
      { number: 2, over: false, paid_penalty_paise: 0, paid_interest_paise: second!.interest_paise, paid_tax_paise: 0, paid_principal_paise: 1 },
    ]);
  });

  it("takes each part from every instalment before the next part when the loan's product says so", async () => {
    const c = await enrol({ monthsAgo: 3, loan: { loan_product_id: componentProduct, annual_rate: '24' } });
    const open = (await details(c.id)).instalments.slice(0, 3);
    const interest = open.reduce((s, i) => s + i.interest_paise, 0);
    const receipt = await pay(c.id, interest + 100);
    expect(receipt.loan_product).toBe('Ledger test: parts across instalments');
    expect(receipt.allocations.map((a) => [a.instalment_number, a.parts])).toEqual([
      [1, { penalty_paise: 0, interest_paise: open[0]!.interest_paise, tax_paise: 0, principal_paise: 100 }],
      [2, { penalty_paise: 0, interest_paise: open[1]!.interest_paise, tax_paise: 0, principal_paise: 0 }],
      [3, { penalty_paise: 0, interest_paise: open[2]!.interest_paise, tax_paise: 0, principal_paise: 0 }],
    ]);
    // What is not yet due is paid ahead one instalment at a time (its interest, then its principal), never the
    // interest of every later instalment before the principal of the next.
    const now = (await details(c.id)).instalments;
    const fourth = now[3]!;
    const ahead = await pay(c.id, now.filter((i) => i.due_date <= today).reduce((s, i) => s + i.outstanding_paise, 0) + fourth.interest_paise + 10_00);
    expect(ahead.allocations.filter((a) => a.due_date > today)).toEqual([
      expect.objectContaining({ instalment_number: 4, parts: { penalty_paise: 0, interest_paise: fourth.interest_paise, tax_paise: 0, principal_paise: 10_00 } }),
    ]);
  });

  it('puts GST right after the interest it is charged on (no-cost loan)', async () => {
    const products = (await t.get('/api/loan_products', { token: ravi })).json().data as Array<{ id: number; name: string }>;
    const noCost = products.find((p) => p.name.startsWith('No-cost'))!;
    const c = await enrol({ monthsAgo: 1, loan: { loan_product_id: noCost.id, annual_rate: '16' } });
    const first = (await details(c.id)).instalments[0]!;
    expect(first.tax_paise).toBeGreaterThan(0);
    const receipt = await pay(c.id, first.interest_paise + first.tax_paise + 5);
    expect(receipt.allocations[0]!.parts).toEqual({ penalty_paise: 0, interest_paise: first.interest_paise, tax_paise: first.tax_paise, principal_paise: 5 });
  });

  it('a reversal takes back the same parts, and the instalment owes them again', async () => {
    const c = await enrol({ monthsAgo: 1 });
    const receipt = await pay(c.id, 700_00);
    const reversal = await t.post('/api/emi/reverse_payment', { payment_id: receipt.payment_id, reason: 'Cheque bounced' }, { token: ravi });
    expect(reversal.statusCode, reversal.body).toBe(200);
    expect((reversal.json().data as Receipt).allocations[0]!.parts).toEqual({ penalty_paise: 0, interest_paise: -600_00, tax_paise: 0, principal_paise: -100_00 });
    expect((await paidParts(c.id))[0]).toMatchObject({ paid_interest_paise: 0, paid_principal_paise: 0, over: false });
  });
});

describe('penalty waivers', () => {
  it('waive part, then the rest, with reasons kept; never more than is unpaid; each leaves a change record', async () => {
    const c = await enrol({ monthsAgo: 2 });
    const first = (await details(c.id)).instalments[0]!;
    await t.post('/api/emi/send_penalty', { customer_id: c.id, instalment_id: first.id, amount_paise: 500_00, reason: 'Paid late' }, { token: ravi });
    const tooMuch = await t.post('/api/emi/waive_penalty', { customer_id: c.id, instalment_id: first.id, amount_paise: 500_01, reason: 'Goodwill' }, { token: ravi, headers: { cookie: 'i18next=hn' } });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().details[0]).toMatchObject({ field: 'amount_paise', rule: 'amount_too_large' });
    expect(tooMuch.json().details[0].message).not.toMatch(/[a-z]{4}/); // in Hindi

    const part = await t.post('/api/emi/waive_penalty', { customer_id: c.id, instalment_id: first.id, amount_paise: 200_00, reason: 'Hospital stay, asked by phone' }, { token: ravi });
    expect(part.statusCode, part.body).toBe(200);
    expect(part.json().message).toBe('Penalty waived.');
    expect((part.json().data as EmiDetails).instalments[0]!.penalty_paise).toBe(300_00);
    const rest = await t.post('/api/emi/waive_penalty', { customer_id: c.id, instalment_id: first.id, reason: 'Settled with the shop' }, { token: ravi });
    expect((rest.json().data as EmiDetails).instalments[0]!.penalty_paise).toBe(0);
    expect((await t.post('/api/emi/waive_penalty', { customer_id: c.id, instalment_id: first.id, reason: 'Again' }, { token: ravi })).json().code).toBe('NOTHING_DUE');

    const history = await changes(c.id);
    expect(history.map((h) => [h.kind, h.before?.penalty_paise, h.after.penalty_paise, h.reason])).toEqual([
      ['waiver', 300_00, 0, 'Settled with the shop'],
      ['waiver', 500_00, 300_00, 'Hospital stay, asked by phone'],
    ]);
    expect(history[0]!.by).toMatch(/\S/);
    const waived = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM penalty_waivers WHERE customer_id = $1', [c.id])).rows[0]!.n;
    expect(waived).toBe(2);
    // The charge itself stays recorded, and the ledger tables refuse edits.
    await expect(t.db.query('UPDATE penalty_waivers SET amount_paise = 1 WHERE customer_id = $1', [c.id])).rejects.toThrow(/append-only/);
  });

  it('a paid penalty cannot be waived, and a user whose switch is off is refused', async () => {
    const c = await enrol({ monthsAgo: 2, token: sunita });
    const first = (await details(c.id, sunita)).instalments[0]!;
    await t.post('/api/emi/send_penalty', { customer_id: c.id, instalment_id: first.id, amount_paise: 100_00, reason: 'Paid late' }, { token: sunita });
    await t.db.query(`UPDATE users SET user_access = user_access || '{"penalty_waiver":"0"}' WHERE mobile = $1`, [SUNITA]);
    const switchedOff = (await t.signIn(SUNITA)).token;
    const refused = await t.post('/api/emi/waive_penalty', { customer_id: c.id, instalment_id: first.id, reason: 'Goodwill' }, { token: switchedOff });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('ACCESS_DENIED');
    await t.db.query(`UPDATE users SET user_access = user_access || '{"penalty_waiver":"1"}' WHERE mobile = $1`, [SUNITA]);
    const allowed = (await t.signIn(SUNITA)).token;
    await t.post('/api/emi/multiple_emi_paid', { customer_id: c.id, amount_paise: 100_00, method: 'cash' }, { token: allowed });
    expect((await t.post('/api/emi/waive_penalty', { customer_id: c.id, instalment_id: first.id, reason: 'Goodwill' }, { token: allowed })).json().code).toBe('NOTHING_DUE');
  });

  it("another network's, a sibling's or the parent's customer is not found", async () => {
    const c = await enrol({ monthsAgo: 2 });
    const first = (await details(c.id)).instalments[0]!;
    for (const token of [meena, sunita]) {
      for (const res of [
        await t.post('/api/emi/waive_penalty', { customer_id: c.id, instalment_id: first.id, reason: 'Not mine' }, { token }),
        await t.get(`/api/emi/statement?customer_id=${c.id}`, { token }),
        await t.get(`/api/emi/foreclosure_quote?customer_id=${c.id}`, { token }),
        await t.get(`/api/emi/instalment_changes?customer_id=${c.id}`, { token }),
        await t.post('/api/emi/foreclose', { customer_id: c.id, amount_paise: 100, method: 'cash' }, { token }),
      ]) {
        expect(res.statusCode, res.body).toBe(404);
        expect(res.body).not.toContain('Ledger');
      }
    }
  });
});

describe('schedule changes', () => {
  it('an edited amount or date and an added instalment keep who, when, before, after and why', async () => {
    const c = await enrol({ monthsAgo: 0 });
    const [, second] = (await details(c.id)).instalments;
    const moved = addDays(second!.due_date, 5);
    const edit = await t.post('/api/emi/update_emi_details', { customer_id: c.id, instalment_id: second!.id, due_date: moved, amount_paise: 4_000_00, reason: 'Salary comes on the 10th' }, { token: ravi });
    expect(edit.statusCode, edit.body).toBe(200);
    const add = await t.post('/api/emi/add_emi_details', { customer_id: c.id, due_date: addMonths(today, 8), amount_paise: 1_500_00 }, { token: ravi });
    expect(add.statusCode, add.body).toBe(200);
    const [added, edited] = await changes(c.id);
    expect(edited).toMatchObject({ kind: 'edit', instalment_number: 2, before: { due_date: second!.due_date, amount_paise: second!.amount_paise }, after: { due_date: moved, amount_paise: 4_000_00 }, reason: 'Salary comes on the 10th' });
    expect(added).toMatchObject({ kind: 'add', instalment_number: 7, before: null, after: { amount_paise: 1_500_00, penalty_paise: 0 }, reason: null });
    expect(Date.parse(added!.at)).toBeGreaterThan(Date.now() - 60_000);
    const bad = await t.post('/api/emi/update_emi_details', { customer_id: c.id, instalment_id: second!.id, amount_paise: 100, reason: 'x' }, { token: ravi });
    expect(bad.statusCode).toBe(400);
  });

  it('an edit below what was paid of a part spreads the paid amount again, within the parts', async () => {
    const c = await enrol({ monthsAgo: 1 });
    const first = (await details(c.id)).instalments[0]!;
    await pay(c.id, 2_000_00);
    const edit = await t.post('/api/emi/update_emi_details', { customer_id: c.id, instalment_id: first.id, amount_paise: 2_100_00, reason: 'Discount agreed' }, { token: ravi });
    expect(edit.statusCode, edit.body).toBe(200);
    const [row] = await paidParts(c.id);
    expect(row!.over).toBe(false);
    expect(row!.paid_interest_paise + row!.paid_principal_paise).toBe(2_000_00);
  });
});

describe('the statement', () => {
  it('lists dues, charges, waivers, payments, reversals and edits in date order, and its balance is what is owed', async () => {
    const c = await enrol({ monthsAgo: 2 });
    const [first, second] = (await details(c.id)).instalments;
    await t.post('/api/emi/send_penalty', { customer_id: c.id, instalment_id: first!.id, amount_paise: 300_00, reason: 'Paid late' }, { token: ravi });
    await t.post('/api/emi/waive_penalty', { customer_id: c.id, instalment_id: first!.id, amount_paise: 100_00, reason: 'First time late' }, { token: ravi });
    const paid = await pay(c.id, 3_000_00);
    await t.post('/api/emi/reverse_payment', { payment_id: paid.payment_id, reason: 'Wrong customer' }, { token: ravi });
    await pay(c.id, 2_500_00);
    await t.post('/api/emi/update_emi_details', { customer_id: c.id, instalment_id: second!.id, amount_paise: second!.amount_paise + 1_000, reason: 'Rounding agreed' }, { token: ravi });
    const s = await statement(c.id);
    expect(s.balance_paise).toBe(s.outstanding_paise);
    expect(s.outstanding_paise).toBe((await details(c.id)).totals.outstanding_paise);
    expect(s.lines.filter((l) => l.kind !== 'due').map((l) => [l.kind, l.delta_paise])).toEqual([
      ['penalty', 300_00], ['waiver', -100_00], ['payment', -3_000_00], ['reversal', 3_000_00], ['payment', -2_500_00], ['edit', 1_000],
    ]);
    expect(s.lines.filter((l) => l.kind === 'due')).toHaveLength(6);
    const payment = s.lines.find((l) => l.kind === 'payment')!;
    expect(payment.parts).toEqual({ penalty_paise: 200_00, interest_paise: 600_00, tax_paise: 0, principal_paise: 2_200_00 });
    expect(payment.receipt_no).toMatch(/^RCP-/);
    expect(s.lines.find((l) => l.kind === 'reversal')!.reason).toBe('Wrong customer');
    for (const [i, line] of s.lines.entries()) expect(line.balance_after_paise).toBe((s.lines[i - 1]?.balance_after_paise ?? 0) + line.delta_paise);
    expect(partsSum(s.paid_parts)).toBe((await details(c.id)).totals.paid_paise);
  });

  it('adds up to what is owed after any sequence of payments, reversals, penalties, waivers and edits', async () => {
    type Op = { kind: 'pay'; amount: number } | { kind: 'reverse'; which: number } | { kind: 'penalty'; which: number; amount: number } | { kind: 'waive'; which: number; share: number } | { kind: 'edit'; which: number; delta: number } | { kind: 'add'; amount: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('pay' as const), amount: fc.integer({ min: 1, max: 12_000_00 }) }),
      fc.record({ kind: fc.constant('reverse' as const), which: fc.nat() }),
      fc.record({ kind: fc.constant('penalty' as const), which: fc.nat(), amount: fc.integer({ min: 1, max: 900_00 }) }),
      fc.record({ kind: fc.constant('waive' as const), which: fc.nat(), share: fc.integer({ min: 1, max: 100 }) }),
      fc.record({ kind: fc.constant('edit' as const), which: fc.nat(), delta: fc.integer({ min: -2_000_00, max: 2_000_00 }) }),
      fc.record({ kind: fc.constant('add' as const), amount: fc.integer({ min: 1, max: 3_000_00 }) }),
    );
    await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 9 }), fc.boolean(), async (ops, component) => {
      const c = await enrol({ monthsAgo: 3, ...(component ? { loan: { loan_product_id: componentProduct, annual_rate: '24' } } : {}) });
      const receipts: number[] = [];
      for (const o of ops) {
        const open = (await details(c.id)).instalments.filter((i) => i.outstanding_paise > 0);
        const pick = <T>(list: T[], n: number) => list[n % list.length];
        if (o.kind === 'pay') {
          const owed = open.reduce((s, i) => s + i.outstanding_paise, 0);
          if (owed > 0) receipts.push((await pay(c.id, Math.min(o.amount, owed))).payment_id);
        } else if (o.kind === 'reverse' && receipts.length > 0) {
          const id = receipts.splice(o.which % receipts.length, 1)[0]!;
          expect((await t.post('/api/emi/reverse_payment', { payment_id: id, reason: 'Property test' }, { token: ravi })).statusCode).toBe(200);
        } else if (o.kind === 'penalty' && open.length > 0) {
          const target = pick(open, o.which)!;
          expect((await t.post('/api/emi/send_penalty', { customer_id: c.id, instalment_id: target.id, amount_paise: o.amount, reason: 'Property test' }, { token: ravi })).statusCode).toBe(200);
        } else if (o.kind === 'waive') {
          const rows = await paidParts(c.id);
          const withPenalty = (await details(c.id)).instalments.filter((i) => i.penalty_paise > (rows.find((r) => r.number === i.number)?.paid_penalty_paise ?? 0));
          const target = pick(withPenalty, o.which);
          if (target) {
            const unpaid = target.penalty_paise - rows.find((r) => r.number === target.number)!.paid_penalty_paise;
            const amount = Math.max(1, Math.floor((unpaid * o.share) / 100));
            const res = await t.post('/api/emi/waive_penalty', { customer_id: c.id, instalment_id: target.id, amount_paise: amount, reason: 'Property test' }, { token: ravi });
            expect(res.statusCode, res.body).toBe(200);
          }
        } else if (o.kind === 'edit' && open.length > 0) {
          const target = pick(open, o.which)!;
          const amount = Math.max(target.paid_paise - target.penalty_paise, 1, target.amount_paise + o.delta);
          const res = await t.post('/api/emi/update_emi_details', { customer_id: c.id, instalment_id: target.id, amount_paise: amount, reason: 'Property test' }, { token: ravi });
          expect(res.statusCode, res.body).toBe(200);
        } else if (o.kind === 'add') {
          expect((await t.post('/api/emi/add_emi_details', { customer_id: c.id, due_date: addMonths(today, 7), amount_paise: o.amount }, { token: ravi })).statusCode).toBe(200);
        }
        const s = await statement(c.id);
        const d = await details(c.id);
        expect(s.balance_paise).toBe(d.totals.outstanding_paise);
        expect(partsSum(s.paid_parts)).toBe(d.totals.paid_paise);
        expect((await paidParts(c.id)).filter((r) => r.over)).toEqual([]);
      }
    }), { numRuns: 12 });
  }, 240_000);
});

describe('foreclosure', () => {
  it('quotes principal, interest accrued to today, charges and the product fee; a stale quote is refused; closing settles the loan', async () => {
    const c = await enrol({ monthsAgo: 2, loan: { loan_product_id: componentProduct, annual_rate: '24', start_date: addDays(addMonths(today, -2), -10), first_due_date: addDays(addMonths(today, -1), -10) } });
    const before = await details(c.id);
    const first = before.instalments[0]!;
    await t.post('/api/emi/send_penalty', { customer_id: c.id, instalment_id: first.id, amount_paise: 200_00, reason: 'Paid late' }, { token: ravi });
    const q = await quote(c.id);
    const due = before.instalments.filter((i) => i.due_date <= today);
    const principal = before.instalments.reduce((s, i) => s + i.principal_paise, 0);
    expect(q.principal_paise).toBe(principal);
    expect(q.penalty_paise).toBe(200_00);
    // Interest of the two periods due, plus 10 days of the current one's.
    const current = before.instalments.find((i) => i.due_date > today)!;
    expect(q.interest_paise).toBeGreaterThan(due.reduce((s, i) => s + i.interest_paise, 0));
    expect(q.interest_paise).toBeLessThan(due.reduce((s, i) => s + i.interest_paise, 0) + current.interest_paise);
    const notYetDue = before.instalments.filter((i) => i.due_date > today).reduce((s, i) => s + i.principal_paise, 0);
    expect(q.fee_paise).toBe(Math.round(notYetDue * 0.02));
    expect(q.total_paise).toBe(q.principal_paise + q.interest_paise + q.tax_paise + q.penalty_paise + q.fee_paise);
    expect(q.saving_paise).toBe(q.outstanding_paise - q.total_paise);
    expect(q.saving_paise).toBeGreaterThan(0);

    const stale = await t.post('/api/emi/foreclose', { customer_id: c.id, amount_paise: q.total_paise - 1, method: 'upi' }, { token: ravi });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('QUOTE_CHANGED');
    expect((await details(c.id)).totals).toMatchObject({ paid_paise: 0, outstanding_paise: before.totals.outstanding_paise + 200_00 });

    const closed = await t.post('/api/emi/foreclose', { customer_id: c.id, amount_paise: q.total_paise, method: 'upi', reference: 'UPI-55120', idempotency_key: `close-${c.id}-once` }, { token: ravi });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().message).toBe('Loan closed.');
    const receipt = closed.json().data as Receipt;
    expect(receipt.amount_paise).toBe(q.total_paise);
    expect(receipt.outstanding_after_paise).toBe(0);
    expect(receipt.allocations.reduce((s, a) => s + partsSum(a.parts!), 0)).toBe(q.total_paise);
    const again = await t.post('/api/emi/foreclose', { customer_id: c.id, amount_paise: q.total_paise, method: 'upi', idempotency_key: `close-${c.id}-once` }, { token: ravi });
    expect((again.json().data as Receipt).payment_id).toBe(receipt.payment_id);
    expect((await details(c.id)).totals.outstanding_paise).toBe(0);
    expect((await t.get(`/api/emi/foreclosure_quote?customer_id=${c.id}`, { token: ravi })).json().code).toBe('NOTHING_DUE');

    const s = await statement(c.id);
    expect(s.balance_paise).toBe(0);
    // The later instalments fell due the day the loan closed: the running balance never dips below 0.
    expect(s.lines.filter((l) => l.balance_after_paise < 0)).toEqual([]);
    expect(s.lines.filter((l) => l.kind === 'due' && l.date > today)).toEqual([]);
    expect(s.lines.filter((l) => l.kind === 'edit').length).toBeGreaterThan(0);
    expect(s.lines.some((l) => l.kind === 'penalty' && l.reason === 'foreclosure_fee' && l.delta_paise === q.fee_paise)).toBe(true);
    expect((await changes(c.id)).filter((h) => h.kind === 'foreclosure').length).toBe(before.instalments.filter((i) => i.due_date > today).length);

    // An instalment added after the loan closed (it reopens) falls due on its own date, not on the closing day.
    const later = addDays(today, 120);
    const added = await t.post('/api/emi/add_emi_details', { customer_id: c.id, due_date: later, amount_paise: 5_000 }, { token: ravi });
    expect(added.statusCode, added.body).toBe(200);
    const reopened = await statement(c.id);
    expect(reopened.lines.filter((l) => l.kind === 'due' && l.date > today).map((l) => l.date)).toEqual([later]);
    expect(reopened.lines.filter((l) => l.balance_after_paise < 0)).toEqual([]);
    expect(reopened.balance_paise).toBe(5_000);
  });

  it('credits interest paid ahead for periods that have not run as principal, and keeps the foreclosure final', async () => {
    const start = addDays(today, -10);
    const c = await enrol({ loan: { start_date: start, first_due_date: addMonths(start, 1) } });
    const before = (await details(c.id)).instalments;
    // Three instalments paid ahead: their interest (Rs 600, 504.xx, 406.xx) was paid for months that have not run.
    const ahead = before.slice(0, 3).reduce((s, i) => s + i.amount_paise, 0);
    const paid = await pay(c.id, ahead);
    const q = await quote(c.id);
    const principal = before.reduce((s, i) => s + i.principal_paise, 0);
    const paidPrincipal = before.slice(0, 3).reduce((s, i) => s + i.principal_paise, 0);
    const paidInterest = before.slice(0, 3).reduce((s, i) => s + i.interest_paise, 0);
    // Ten days of the first period's interest are earned; the rest of what was paid as interest counts as principal.
    const accrued = Math.round((before[0]!.interest_paise * 10) / (Date.parse(before[0]!.due_date) - Date.parse(start)) * 86_400_000);
    expect(q.interest_paise).toBe(0);
    expect(q.principal_paise).toBe(principal - paidPrincipal - (paidInterest - accrued));
    expect(q.total_paise).toBe(q.principal_paise);
    // What was paid plus what closes the loan is the principal plus the interest earned: nothing more.
    expect(ahead + q.total_paise).toBe(principal + accrued);
    const closed = await t.post('/api/emi/foreclose', { customer_id: c.id, amount_paise: q.total_paise, method: 'cash', idempotency_key: `close-ahead-${c.id}` }, { token: ravi });
    expect(closed.statusCode, closed.body).toBe(200);
    expect((await details(c.id)).totals.outstanding_paise).toBe(0);
    const s = await statement(c.id);
    expect(s.balance_paise).toBe(0);
    // Paid ahead, then closed: every instalment fell due the day the loan closed, and the balance never went below 0.
    expect(s.lines.filter((l) => l.balance_after_paise < 0)).toEqual([]);
    expect(s.lines.filter((l) => l.kind === 'due').map((l) => l.date)).toEqual(before.map(() => today));
    expect((await paidParts(c.id)).filter((r) => r.over)).toEqual([]);
    // A foreclosure's payment is final; an ordinary payment's key cannot be used to close the loan, nor the other way.
    const reversed = await t.post('/api/emi/reverse_payment', { payment_id: (closed.json().data as Receipt).payment_id, reason: 'UPI failed' }, { token: ravi });
    expect(reversed.statusCode).toBe(409);
    expect(reversed.json().code).toBe('FORECLOSURE_FINAL');
    const other = await enrol({ monthsAgo: 1 });
    const keyed = await t.post('/api/emi/multiple_emi_paid', { customer_id: other.id, amount_paise: 100, method: 'cash', idempotency_key: `pay-${other.id}-1` }, { token: ravi });
    expect(keyed.statusCode).toBe(200);
    const misuse = await t.post('/api/emi/foreclose', { customer_id: other.id, amount_paise: (await quote(other.id)).total_paise, method: 'cash', idempotency_key: `pay-${other.id}-1` }, { token: ravi });
    expect(misuse.statusCode).toBe(400);
    expect(misuse.json().details[0]).toMatchObject({ field: 'idempotency_key' });
    expect((await details(other.id)).totals.outstanding_paise).toBeGreaterThan(0);
    void paid;
  });

  it("releases the phone as a final payment does: the retailer can release it, and the phone hears it", async () => {
    const { customer: c, phone } = await f.phone();
    const release = () => t.post('/api/device/unclaim', { customer_id: c.id }, { token: ravi });
    expect((await release()).json().code).toBe('LOAN_OPEN');
    const q = await quote(c.id);
    const closed = await t.post('/api/emi/foreclose', { customer_id: c.id, amount_paise: q.total_paise, method: 'cash' }, { token: ravi });
    expect(closed.statusCode, closed.body).toBe(200);
    expect((await release()).statusCode).toBe(200);
    expect((await phone.next()).type).toBe('unclaim');
    await phone.close();
  });
});
