/**
 * The customer summaries (migration 023) against the exact counts: random operations through the real code
 * paths (enrolment, edits, phones enrolling, locks and unlocks reported by phones one by one and in bulk,
 * check-ins, payments, the dues run completing and maturing loans, reversals reopening them, cancelled
 * enrolments, set-based statements straight on the table), from a seeded generator so a failure replays.
 * After each batch the summaries, the dashboard and the list's totals must equal GROUP BY over customers,
 * for the network, a mini-retailer and another network.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { slugOfInstallStatus } from '@kisht/domain/customer-status';
import { startTestApp, MEENA, RAVI, SUNITA, type TestApp } from './harness.ts';
import { deviceFixtures } from './device-fixtures.ts';
import { connectPhone, type Enrolled, type TestPhone } from './phone.ts';
import { runOperatorCommand } from '../src/modules/operator/operator.service.ts';

const SEED = Number(process.env.SUMMARY_SEED ?? 20_240_623);
const BATCHES = 8;
const OPERATIONS_PER_BATCH = 12;

/** mulberry32: small, fast and the same on every run for a seed. */
function randomFrom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T,>(items: readonly T[]): T | undefined => items[Math.floor(next() * items.length)] };
}

interface Seller {
  name: 'ravi' | 'sunita' | 'meena';
  mobile: string;
  token: string;
  userId: number;
  accountId: number;
}
interface Loan {
  id: number;
  seller: Seller;
  phone?: { device: Enrolled; phone: TestPhone };
}

let t: TestApp;
let f: ReturnType<typeof deviceFixtures>;
const sellers: Seller[] = [];
const loans: Loan[] = [];
let duesDay = todayInIndia();
let imeiSerial = 1;
const print = () => undefined;

beforeAll(async () => {
  t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 } });
  for (const [name, mobile] of [['ravi', RAVI], ['sunita', SUNITA], ['meena', MEENA]] as const) {
    const signed = await t.signIn(mobile);
    const accountId = (await t.db.query<{ a: number }>('SELECT coalesce(account_id, id) AS a FROM users WHERE id = $1', [signed.userId])).rows[0]!.a;
    sellers.push({ name, mobile, token: signed.token, userId: signed.userId, accountId });
    expect(await runOperatorCommand(t.db, ['keys', mobile, '0', '500'], print)).toBe(0);
  }
  f = deviceFixtures(t, () => sellers[0]!.token);
});
afterAll(async () => {
  for (const loan of loans) await loan.phone?.phone.close();
  await t.stop();
});

/** Summaries and exact counts in one statement (one snapshot): every key where they differ. */
async function summaryDrift() {
  return (await t.db.query(
    `WITH exact AS (SELECT account_id, retailer_id, install_status, lock_status, count(*)::int AS n FROM customers GROUP BY 1, 2, 3, 4),
          kept AS (SELECT account_id, retailer_id, install_status, lock_status, sum(customers)::int AS n FROM customer_summaries GROUP BY 1, 2, 3, 4)
     SELECT account_id, retailer_id, install_status, lock_status, coalesce(exact.n, 0) AS exact, coalesce(kept.n, 0) AS kept
       FROM exact FULL JOIN kept USING (account_id, retailer_id, install_status, lock_status)
      WHERE coalesce(exact.n, 0) <> coalesce(kept.n, 0)`,
  )).rows;
}

/** The open dues and the collections kept by migration 024 against the instalments and the ledger, the same way. */
async function moneyDrift() {
  const dues = (await t.db.query(
    `WITH exact AS (SELECT e.account_id, c.retailer_id, e.due_date, count(*)::int AS n, sum(e.amount_paise + e.penalty_paise - e.paid_paise)::bigint::text AS paise
                      FROM emi_instalments e JOIN customers c ON c.id = e.customer_id
                     WHERE c.install_status NOT IN (3, 5) AND e.paid_paise < e.amount_paise + e.penalty_paise GROUP BY 1, 2, 3),
          kept AS (SELECT account_id, retailer_id, due_date, sum(instalments)::int AS n, sum(outstanding_paise)::bigint::text AS paise
                     FROM dues_summaries GROUP BY 1, 2, 3 HAVING sum(instalments) <> 0 OR sum(outstanding_paise) <> 0)
     SELECT account_id, retailer_id, due_date, exact.n AS exact_n, kept.n AS kept_n, exact.paise AS exact_paise, kept.paise AS kept_paise
       FROM exact FULL JOIN kept USING (account_id, retailer_id, due_date)
      WHERE exact.n IS DISTINCT FROM kept.n OR exact.paise IS DISTINCT FROM kept.paise`,
  )).rows;
  const collections = (await t.db.query(
    `WITH exact AS (SELECT p.account_id, c.retailer_id, (p.created_at AT TIME ZONE 'Asia/Kolkata')::date AS day, sum(p.amount_paise)::bigint::text AS paise
                      FROM payments p JOIN customers c ON c.id = p.customer_id GROUP BY 1, 2, 3 HAVING sum(p.amount_paise) <> 0),
          kept AS (SELECT account_id, retailer_id, day, sum(amount_paise)::bigint::text AS paise FROM collection_days GROUP BY 1, 2, 3 HAVING sum(amount_paise) <> 0)
     SELECT account_id, retailer_id, day, exact.paise AS exact, kept.paise AS kept FROM exact FULL JOIN kept USING (account_id, retailer_id, day)
      WHERE exact.paise IS DISTINCT FROM kept.paise`,
  )).rows;
  return { dues, collections };
}

async function exactCounts(seller: Seller) {
  const own = seller.name === 'sunita' ? seller.userId : null;
  return (await t.db.query<{ install_status: number; lock_status: number; n: number }>(
    `SELECT install_status, lock_status, count(*)::int AS n FROM customers WHERE account_id = $1 AND ($2::int IS NULL OR retailer_id = $2) GROUP BY 1, 2`,
    [seller.accountId, own],
  )).rows;
}

async function listTotal(seller: Seller, query: string) {
  const res = await t.get(`/api/customer/get_customers_keygen?limit=5&${query}`, { token: seller.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { total: number; total_capped: boolean; items: unknown[] };
}

async function compare(label: string) {
  expect(await summaryDrift(), label).toEqual([]);
  expect(await moneyDrift(), label).toEqual({ dues: [], collections: [] });
  for (const seller of sellers) {
    const exact = await exactCounts(seller);
    const sum = (keep: (r: { install_status: number; lock_status: number }) => boolean) => exact.filter(keep).reduce((n, r) => n + r.n, 0);
    const dashboard = (await t.get('/api/customer/get_keygen_dashboardV1?days=7', { token: seller.token })).json().data;
    expect(dashboard.total_customers, `${label}: ${seller.name} total`).toBe(sum(() => true));
    expect(dashboard.customers_by_status, `${label}: ${seller.name} by status`).toEqual([0, 1, 2, 3, 4, 5, 6].map((s) => ({ install_status: s, count: sum((r) => r.install_status === s) })));
    expect(dashboard.lock, `${label}: ${seller.name} lock`).toEqual({ locked: sum((r) => r.lock_status === 1), unlocked: sum((r) => r.lock_status === 0) });
    // The list's totals: from the summaries (status and lock), from the last page, and counted with a search.
    expect((await listTotal(seller, 'status=all')).total, `${label}: ${seller.name} list`).toBe(sum(() => true));
    for (const s of [0, 1, 5, 6]) {
      expect((await listTotal(seller, `status=${slugOfInstallStatus(s)}`)).total, `${label}: ${seller.name} status ${s}`).toBe(sum((r) => r.install_status === s));
    }
    for (const lock of [0, 1]) {
      expect((await listTotal(seller, `status=install&lock_status=${lock}`)).total).toBe(sum((r) => r.install_status === 1 && r.lock_status === lock));
    }
    const named = (await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM customers WHERE account_id = $1 AND ($2::int IS NULL OR retailer_id = $2) AND first_name = 'Summary'`,
      [seller.accountId, seller.name === 'sunita' ? seller.userId : null],
    )).rows[0]!.n;
    const searched = await listTotal(seller, 'search=summary');
    expect(searched.total_capped).toBe(false);
    expect(searched.total, `${label}: ${seller.name} search`).toBe(named);
  }
}

async function settledLock(loan: Loan, locked: 0 | 1) {
  await expect.poll(async () => (await f.profile(loan.id, loan.seller.token)).lock_status, { timeout: 5000 }).toBe(locked);
}

const lastSeq = (phone: TestPhone) => phone.received.reduce((max, c) => Math.max(max, c.seq), 0);

describe('customer summaries', () => {
  it('equal the exact counts after random operations, for the network, a mini-retailer and another network', async () => {
    const random = randomFrom(SEED);
    const pickLoan = (keep: (loan: Loan) => boolean) => random.pick(loans.filter(keep));
    const status = async (loan: Loan) => (await t.db.query<{ install_status: number; lock_status: number }>('SELECT install_status, lock_status FROM customers WHERE id = $1', [loan.id])).rows[0];

    const operations: Record<string, () => Promise<void>> = {
      async enrol() {
        const seller = random.pick(sellers)!;
        const products = (await t.get('/api/products', { token: seller.token })).json().data as Array<{ id: number; product_type: number }>;
        const due = addDays(todayInIndia(), random.int(120) - 60);
        const res = await t.post('/api/customer', {
          first_name: 'Summary', last_name: `Case${imeiSerial}`, mobile: `+9198${String(10_000_000 + imeiSerial).slice(-8)}`, device_brand: 'Vivo', device_model: 'Y28',
          imei1: withImeiCheckDigit(`3577${String(imeiSerial++).padStart(10, '0')}`), provisioning_type: 0, product_id: products.find((p) => p.product_type === 0)!.id,
          price_paise: 300_000, down_payment_paise: 0, annual_rate_bps: 0, interest_method: 'flat', tenure_months: 1 + random.int(3),
          start_date: addDays(due, -30), first_due_date: due,
        }, { token: seller.token });
        expect(res.statusCode, res.body).toBe(200);
        loans.push({ id: res.json().data.customer.id, seller });
      },
      async edit() {
        const loan = pickLoan(() => true);
        if (!loan) return;
        const res = await t.post('/api/customer/update_customer_detailsV3', { customer_id: loan.id, last_name: `Edited${random.int(1000)}` }, { token: loan.seller.token });
        expect(res.statusCode, res.body).toBe(200);
      },
      async enrolPhone() {
        const loan = pickLoan((l) => !l.phone);
        if (!loan || (await status(loan))!.install_status !== 0) return;
        const res = await f.enrolDevice({ token: await f.qrToken(loan.id, loan.seller.token), imei1: (await f.profile(loan.id, loan.seller.token)).imei1 });
        expect(res.statusCode, res.body).toBe(200);
        const device = res.json().data as Enrolled;
        loan.phone = { device, phone: await connectPhone(t.broker.status().url, device) };
      },
      async lockOrUnlock() {
        const loan = pickLoan((l) => Boolean(l.phone));
        if (!loan) return;
        const current = (await status(loan))!;
        if (current.install_status === 3 || current.install_status === 5) return;
        const action = current.lock_status === 1 ? 'unlock' : 'lock';
        const res = await t.post(`/api/device/${action}`, { customer_id: loan.id }, { token: loan.seller.token });
        if (res.statusCode !== 200) return; // a plan or state that does not allow it
        await loan.phone!.phone.ack(await loan.phone!.phone.next(), 'done');
        await settledLock(loan, action === 'lock' ? 1 : 0);
      },
      async checkIn() {
        const loan = pickLoan((l) => Boolean(l.phone));
        if (!loan) return;
        const locked = random.int(2) === 1;
        const res = await f.checkIn(loan.phone!.device, { locked, last_seq: lastSeq(loan.phone!.phone) });
        expect(res.statusCode, res.body).toBe(200);
      },
      async bulk() {
        const seller = sellers[random.int(2)]!;
        const action = random.int(2) === 0 ? 'lock' : 'unlock';
        const chosen = loans.filter((l) => l.phone && l.seller.accountId === seller.accountId && (seller.name === 'ravi' || l.seller === seller)).slice(0, 6);
        if (chosen.length === 0) return;
        const res = await t.post('/api/device/multiple_lock_unlock', { action, customer_ids: chosen.map((l) => l.id) }, { token: seller.token });
        if (res.statusCode !== 200) return;
        const sent = (res.json().data.items as Array<{ customer_id: number; state: string }>).filter((i) => i.state !== 'skipped').map((i) => i.customer_id);
        // The phones answer together, so their reports arrive at once.
        const answering = chosen.filter((l) => sent.includes(l.id));
        await Promise.all(answering.map(async (l) => l.phone!.phone.ack(await l.phone!.phone.next(), 'done')));
        for (const l of answering) await settledLock(l, action === 'lock' ? 1 : 0);
      },
      async concurrentCheckIns() {
        const phones = loans.filter((l) => l.phone);
        await Promise.all(phones.map(async (l) => {
          const res = await f.checkIn(l.phone!.device, { locked: random.int(2) === 1, last_seq: lastSeq(l.phone!.phone) });
          expect(res.statusCode, res.body).toBe(200);
        }));
      },
      async payInFull() {
        const loan = pickLoan(() => true);
        if (!loan) return;
        const owed = (await t.db.query<{ n: number }>('SELECT coalesce(sum(amount_paise + penalty_paise - paid_paise), 0)::int AS n FROM emi_instalments WHERE customer_id = $1', [loan.id])).rows[0]!.n;
        if (owed === 0) return;
        const res = await t.post('/api/emi/multiple_emi_paid', { customer_id: loan.id, amount_paise: owed, method: 'cash' }, { token: loan.seller.token });
        expect(res.statusCode, res.body).toBe(200);
      },
      async payPart() {
        // A part payment leaves its instalment open with less outstanding: the kept paise must follow.
        const loan = pickLoan(() => true);
        if (!loan) return;
        const owed = (await t.db.query<{ n: number }>('SELECT coalesce(sum(amount_paise + penalty_paise - paid_paise), 0)::int AS n FROM emi_instalments WHERE customer_id = $1', [loan.id])).rows[0]!.n;
        if (owed < 2) return;
        const res = await t.post('/api/emi/multiple_emi_paid', { customer_id: loan.id, amount_paise: 1 + random.int(owed - 1), method: 'upi' }, { token: loan.seller.token });
        expect(res.statusCode, res.body).toBe(200);
      },
      async duesRun() {
        duesDay = addDays(duesDay, 1 + random.int(20));
        expect(await runOperatorCommand(t.db, ['dues', duesDay], print)).toBe(0);
        // The run drops the summary rows that net to nothing, so the dashboard's sum reads only days still owed.
        expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM dues_summaries WHERE instalments = 0 AND outstanding_paise = 0')).rows[0]!.n).toBe(0);
      },
      async reverse() {
        const payment = random.pick((await t.db.query<{ id: number; customer_id: number }>(
          `SELECT p.id, p.customer_id FROM payments p WHERE p.kind = 'payment' AND NOT EXISTS (SELECT 1 FROM payments r WHERE r.reverses_id = p.id) ORDER BY p.id`,
        )).rows);
        const loan = payment && loans.find((l) => l.id === payment.customer_id);
        if (!loan) return;
        const res = await t.post('/api/emi/reverse_payment', { payment_id: payment.id, reason: 'random reversal' }, { token: loan.seller.token });
        expect([200, 409], res.body).toContain(res.statusCode);
      },
      async cancel() {
        const loan = pickLoan((l) => !l.phone);
        if (!loan) return;
        const res = await t.post('/api/customer/cancel_enrolment', { customer_id: loan.id }, { token: loan.seller.token });
        if (res.statusCode === 200) loans.splice(loans.indexOf(loan), 1);
      },
      // Writers that go straight to the table in one set-based statement: a bulk seed, an operator's fix.
      async setBasedFlip() {
        const seller = random.pick(sellers)!;
        await t.db.query('UPDATE customers SET lock_status = 1 - lock_status WHERE account_id = $1 AND id % 3 = $2', [seller.accountId, random.int(3)]);
      },
      async moveBetweenRetailers() {
        // No route moves a customer to another retailer yet; the statement stands for whatever will.
        const [ravi, sunita] = [sellers[0]!, sellers[1]!];
        const loan = pickLoan((l) => l.seller.accountId === ravi.accountId);
        if (!loan) return;
        const to = loan.seller === ravi ? sunita : ravi;
        await t.db.query('UPDATE customers SET retailer_id = $2 WHERE id = $1', [loan.id, to.userId]);
        loan.seller = to;
      },
    };
    const weights: Array<[keyof typeof operations, number]> = [
      ['enrol', 10], ['edit', 2], ['enrolPhone', 4], ['lockOrUnlock', 3], ['checkIn', 3], ['bulk', 1], ['concurrentCheckIns', 1],
      ['payInFull', 3], ['payPart', 2], ['duesRun', 2], ['reverse', 2], ['cancel', 1], ['setBasedFlip', 1], ['moveBetweenRetailers', 1],
    ];
    const totalWeight = weights.reduce((n, [, w]) => n + w, 0);
    const choose = () => {
      let r = random.int(totalWeight);
      for (const [name, w] of weights) if ((r -= w) < 0) return name;
      return 'enrol';
    };

    const done: string[] = [];
    const seen = new Set<number>();
    for (let batch = 1; batch <= BATCHES; batch++) {
      for (let i = 0; i < OPERATIONS_PER_BATCH; i++) {
        const name = batch === 1 && i < 4 ? 'enrol' : choose();
        await operations[name]!();
        done.push(name);
      }
      await compare(`seed ${SEED}, batch ${batch}`);
      for (const r of (await t.db.query<{ s: number }>('SELECT DISTINCT install_status AS s FROM customers')).rows) seen.add(r.s);
    }
    // The walk went through the statuses worth checking.
    expect([...seen]).toEqual(expect.arrayContaining([0, 1]));
    expect(new Set(done).size).toBeGreaterThan(8);
  }, 180_000);

  it('counts a bulk insert in one statement, and caps the count of a broad search', async () => {
    const meena = sellers[2]!;
    const product = (await t.db.query<{ id: number }>('SELECT id FROM products WHERE org_id = (SELECT org_id FROM users WHERE id = $1) AND product_type = 0', [meena.userId])).rows[0]!.id;
    // As bench/seed-customers.ts writes: one INSERT ... SELECT of many rows, straight to the table.
    await t.db.query(
      `INSERT INTO customers (org_id, account_id, retailer_id, first_name, last_name, mobile, device_brand, device_model, imei1, provisioning_type,
         product_id, price_paise, down_payment_paise, annual_rate_bps, interest_method, tenure_months, start_date, first_due_date, emi_paise,
         install_status, lock_status)
       SELECT (SELECT org_id FROM users WHERE id = $1), $1, $1, 'Bulk', 'Row' || g, '+9170' || lpad(g::text, 8, '0'), 'Vivo', 'Y28',
              lpad((358000000000000 + g)::text, 15, '0'), 0, $2, 300000, 0, 0, 'flat', 3, current_date, current_date + 30, 100000, g % 7, g % 2
         FROM generate_series(1, 1050) AS g`,
      [meena.userId, product],
    );
    expect(await summaryDrift()).toEqual([]);
    const broad = await listTotal(meena, 'search=bulk');
    expect(broad).toMatchObject({ total: 1000, total_capped: true });
    // Past the cap the pages go on, and the total never reads less than what was shown.
    const deep = (await t.get('/api/customer/get_customers_keygen?search=bulk&limit=100&page=11', { token: meena.token })).json().data;
    expect(deep).toMatchObject({ total: 1050, total_capped: true });
    expect(deep.items).toHaveLength(50);
    const narrow = await listTotal(meena, 'search=bulk%20row104');
    expect(narrow).toMatchObject({ total: 11, total_capped: false }); // Row104 and Row1040-1049
    // A first page that is not full is its own count; a full one, or a later page, is counted.
    const whole = (await t.get('/api/customer/get_customers_keygen?search=bulk%20row104&limit=20', { token: meena.token })).json().data;
    expect(whole).toMatchObject({ total: 11, total_capped: false });
    expect(whole.items).toHaveLength(11);
    const exact = (await t.get('/api/customer/get_customers_keygen?search=bulk%20row104&limit=11', { token: meena.token })).json().data;
    expect(exact).toMatchObject({ total: 11, total_capped: false });
    const second = (await t.get('/api/customer/get_customers_keygen?search=bulk%20row104&limit=10&page=2', { token: meena.token })).json().data;
    expect(second).toMatchObject({ total: 11, total_capped: false });
    expect(second.items).toHaveLength(1);
    const byImei = (await t.get('/api/customer/get_customers_keygen?search=358000000001049', { token: meena.token })).json().data;
    expect(byImei).toMatchObject({ total: 1, total_capped: false });
    const noMatch = (await t.get('/api/customer/get_customers_keygen?search=nobody%20here', { token: meena.token })).json().data;
    expect(noMatch).toMatchObject({ total: 0, total_capped: false, items: [] });
    await compare('after a bulk insert');
  });

  it('lets one network change many customers at once on separate connections without waiting on each other', async () => {
    const ravi = sellers[0]!;
    const ids = [(await f.customer()).id, (await f.customer()).id];
    if (t.db.driver === 'postgres') {
      // A transaction that changed a customer and stays open (a long dues run, a bulk batch) does not hold up another
      // connection changing another customer of the same network and retailer: the two write different slots.
      await t.db.transaction(async (tx) => {
        await tx.query('UPDATE customers SET lock_status = 1 - lock_status WHERE id = $1', [ids[0]]);
        await t.db.transaction(async (other) => {
          await other.query("SET LOCAL lock_timeout = '2s'");
          await other.query('UPDATE customers SET lock_status = 1 - lock_status WHERE id = $1', [ids[1]]);
        });
      });
      expect((await t.db.query<{ n: number }>('SELECT count(DISTINCT slot)::int AS n FROM customer_summaries')).rows[0]!.n).toBeGreaterThan(1);
      // Many single-row changes at once through the pool, in both directions.
      await Promise.all(Array.from({ length: 40 }, (_, i) => t.db.query('UPDATE customers SET lock_status = 1 - lock_status WHERE id = $1', [ids[i % 2]])));
    }
    // A statement that changes nothing relevant (an edit) writes nothing; a rolled-back change leaves nothing.
    const before = (await t.db.query('SELECT * FROM customer_summaries ORDER BY 1, 2, 3, 4, 5')).rows;
    await t.db.query(`UPDATE customers SET last_name = last_name || '' WHERE account_id = $1`, [ravi.accountId]);
    await expect(t.db.transaction(async (tx) => {
      await tx.query('UPDATE customers SET install_status = 2 WHERE account_id = $1', [ravi.accountId]);
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    expect((await t.db.query('SELECT * FROM customer_summaries ORDER BY 1, 2, 3, 4, 5')).rows).toEqual(before);
    // After the rollback the connection still writes its own slot, and the counts still add up.
    await t.db.query('UPDATE customers SET lock_status = 1 - lock_status WHERE id = $1', [ids[0]]);
    await compare('after the contention checks');
  });
});
