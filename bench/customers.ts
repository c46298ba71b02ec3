/**
 * The customer list, search and dashboard at scale, each against the same SQL run directly in the same run.
 *   node --import tsx bench/customers.ts [customers=50000] [rounds=60]                 (PGlite)
 *   DATABASE_URL=postgres://.../kisht_bench_lists node --import tsx bench/customers.ts 1000000
 * The database is created fresh: on PostgreSQL it drops and recreates the database named in DATABASE_URL.
 *
 * The book: N customers of one network, 1% of them sold by its mini-retailer, one payment for every second
 * customer over the last 180 days. Baselines: a list or search is compared with its page query alone (what
 * the list runs; its total comes from the maintained summaries or from the page itself), the dashboard
 * with its own four queries run in parallel as the route runs them. API, SQL and `request` (an authenticated
 * GET that reads nothing, /api/config/access-config: the fixed cost every call pays before the route's own
 * code runs) are timed in turns, so `ratio_net` = (API - request) / SQL is the share of the route itself.
 */
import { randomBytes } from 'node:crypto';
import { addDays } from '@kisht/domain/calendar';
import { createEmmAuthSession } from '@kisht/domain/emm-auth';
import { todayInIndia } from '@kisht/domain/format';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { DEMO_USERS } from '../packages/server/src/db/seed.ts';
import { createDashboardRepository } from '../packages/server/src/modules/dashboard/dashboard.repository.ts';
import { createCatalogueRepository } from '../packages/server/src/modules/catalogue/catalogue.repository.ts';
import { seedCustomers } from './seed-customers.ts';
import { percentile, fmt, freshBenchDatabase, markSeeded } from './lib.ts';

const total = Number(process.argv[2] ?? 50_000);
const rounds = Number(process.argv[3] ?? 60);
/** The dashboard takes seconds before the summaries on a big book: fewer rounds keep the run short. */
const slowRounds = Math.min(rounds, 20);
const url = process.env.DATABASE_URL;

// BENCH_REUSE=1 (PostgreSQL): keep the seeded database for the next run of the same size, and use one left by
// an earlier run; this bench only reads once seeded, so a second run at 1,000,000 need not seed again.
const reuseLabel = process.env.BENCH_REUSE === '1' && url ? `customers ${total}` : undefined;
const { db, remove, seeded } = await freshBenchDatabase(url, reuseLabel);
const userId = async (mobile: string) => (await db.query<{ id: number }>('SELECT id FROM users WHERE mobile = $1', [mobile])).rows[0]!.id;
const ravi = await userId(DEMO_USERS[0].mobile);
const sunita = await userId(DEMO_USERS[1].mobile);
const product = (await db.query<{ id: number }>('SELECT id FROM products WHERE org_id = 23 AND product_type = 0')).rows[0]!.id;
let seedSeconds = 0;
let moved = 0;
let moveMs = 0;
let paymentsSeconds = 0;
if (seeded) console.log(`Using the ${total.toLocaleString('en-IN')} customers seeded by an earlier run (BENCH_REUSE)`);
else {
  console.log(`Seeding ${total.toLocaleString('en-IN')} customers on ${db.driver}`);
  const seedStarted = performance.now();
  await seedCustomers(db, ravi, product, total);
  seedSeconds = (performance.now() - seedStarted) / 1000;

  // One set-based statement moves 1% of the book to the mini-retailer: the summaries' trigger handles it in one go.
  let t0 = performance.now();
  moved = (await db.query('UPDATE customers SET retailer_id = $2 WHERE account_id = $1 AND id % 100 = 0', [ravi, sunita])).rowCount;
  moveMs = performance.now() - t0;
  t0 = performance.now();
  await db.query(
    `INSERT INTO payments (customer_id, account_id, kind, amount_paise, method, receipt_no, created_by, created_at)
     SELECT c.id, c.account_id, 'payment', c.emi_paise, 'cash', 'B' || c.id, c.retailer_id, now() - make_interval(mins => (c.id::bigint * 7919 % 259200)::int)
       FROM customers c WHERE c.account_id = $1 AND c.id % 2 = 0`,
    [ravi],
  );
  paymentsSeconds = (performance.now() - t0) / 1000;
  await db.query('VACUUM ANALYZE');
  if (reuseLabel) await markSeeded(db, reuseLabel);
}
const drift = (await db.query<{ n: number }>(
  `SELECT count(*)::int AS n FROM (SELECT account_id, retailer_id, install_status, lock_status, count(*) AS n FROM customers GROUP BY 1, 2, 3, 4) exact
     FULL JOIN (SELECT account_id, retailer_id, install_status, lock_status, sum(customers) AS n FROM customer_summaries GROUP BY 1, 2, 3, 4) kept
     USING (account_id, retailer_id, install_status, lock_status) WHERE coalesce(exact.n, 0) <> coalesce(kept.n, 0)`,
)).rows[0]!.n;
if (drift !== 0) throw new Error(`customer_summaries differ from the customers in ${drift} keys`);

const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: 'memory://', MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', CONSOLE_DIST: '/nonexistent', DUES_CHECK_SECONDS: '0', DEVICE_SWEEP_SECONDS: '0', ...(url ? { DATABASE_URL: url } : {}) });
const built = await buildApp(config, { db, secret: randomBytes(32).toString('hex') });
const inject = async (method: 'GET' | 'POST', path: string, token?: string, payload?: object) =>
  built.app.inject({ method, url: path, headers: { 'x-emm-auth-session': await createEmmAuthSession(path, 23), ...(token ? { authorization: `Bearer ${token}` } : {}) }, ...(payload ? { payload } : {}) });
async function signIn(mobile: string): Promise<string> {
  const requested = (await inject('POST', '/api/auth/loginWithOtp', undefined, { mobile })).json().data.request_id;
  const otp = /\b(\d{6})\b/.exec((await db.query<{ body: string }>('SELECT body FROM sms_outbox WHERE recipient = $1 ORDER BY id DESC LIMIT 1', [mobile])).rows[0]!.body)![1];
  return (await inject('POST', '/api/auth/verifyOtpAuth', undefined, { request_id: requested, otp })).json().data.token as string;
}
const tokens = { ravi: await signIn(DEMO_USERS[0].mobile), sunita: await signIn(DEMO_USERS[1].mobile) };

async function time(fn: () => Promise<unknown>, n = rounds): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b);
}
/**
 * Times several functions in turns (a, b, c, a, b, c, ...), so a load that comes and goes on a shared machine
 * weighs on each the same and their ratios hold; each gets 10 warm-up calls first.
 */
async function timeInTurns(fns: Array<() => Promise<unknown>>, n: number): Promise<number[][]> {
  for (let i = 0; i < 10; i++) for (const fn of fns) await fn();
  const samples = fns.map(() => [] as number[]);
  for (let i = 0; i < n; i++) {
    for (const [k, fn] of fns.entries()) {
      const started = performance.now();
      await fn();
      samples[k]!.push(performance.now() - started);
    }
  }
  return samples.map((s) => s.sort((a, b) => a - b));
}
const api = (path: string, token: string) => async () => {
  const res = await inject('GET', path, token);
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
};

const someImei = (await db.query<{ imei1: string }>('SELECT imei1 FROM customers WHERE account_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1', [ravi, Math.floor(total / 3)])).rows[0]!.imei1;
const someMobile = (await db.query<{ mobile: string }>('SELECT mobile FROM customers WHERE account_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1', [ravi, Math.floor(total / 2)])).rows[0]!.mobile;
const today = todayInIndia();
// The list's page query as the repository writes it (customers.repository.ts list()).
const pageSql = (where: string, next: number) => `SELECT c.id, c.first_name, c.last_name, c.mobile, c.imei1, c.device_brand, c.device_model, c.install_status, c.lock_status,
    c.provisioning_type, c.emi_paise, c.retailer_id, c.created_at,
    to_char(due.next_due, 'YYYY-MM-DD') AS next_due_date, coalesce(due.overdue, 0)::bigint::text AS overdue_paise
  FROM customers c
  LEFT JOIN LATERAL (
    SELECT min(e.due_date) AS next_due,
           sum(e.amount_paise + e.penalty_paise - e.paid_paise) FILTER (WHERE e.due_date < (now() AT TIME ZONE 'Asia/Kolkata')::date) AS overdue
      FROM emi_instalments e WHERE e.customer_id = c.id AND e.paid_paise < e.amount_paise + e.penalty_paise
  ) due ON true
  WHERE c.account_id = $1 ${where}
  ORDER BY c.created_at DESC, c.id DESC LIMIT $${next}::int OFFSET $${next + 1}::bigint`;
const page = (where: string, params: unknown[] = [], offset = 0) => async () => db.query(pageSql(where, params.length + 2), [ravi, ...params, 20, offset]);
const nameLike = `AND (lower(c.first_name || ' ' || c.last_name) LIKE $2 || '%' OR lower(c.last_name) LIKE $2 || '%')`;

const dashboard = createDashboardRepository(db);
const catalogue = createCatalogueRepository(db);
const from = addDays(today, -29);
const dashboardSql = (user: number, own: number | null) => async () =>
  Promise.all([dashboard.statusCounts(ravi, own), dashboard.dues(ravi, own, today), dashboard.collections(ravi, own, from, today), catalogue.licenseBalances(user)]);

const scenarios: Array<{ name: string; api: () => Promise<void>; sql: () => Promise<unknown>; slow?: boolean }> = [
  { name: 'list, first page, all', api: api('/api/customer/get_customers_keygen', tokens.ravi), sql: page('') },
  { name: 'list, page 50', api: api('/api/customer/get_customers_keygen?page=50', tokens.ravi), sql: page('', [], 980) },
  { name: 'list, status installed', api: api('/api/customer/get_customers_keygen?status=install', tokens.ravi), sql: page('AND c.install_status = $2', [1]) },
  { name: 'list, locked', api: api('/api/customer/get_customers_keygen?lock_status=1', tokens.ravi), sql: page('AND c.lock_status = $2', [1]) },
  { name: 'list, mini-retailer', api: api('/api/customer/get_customers_keygen', tokens.sunita), sql: page('AND c.retailer_id = $2', [sunita]) },
  { name: 'search by IMEI', api: api(`/api/customer/get_customers_keygen?search=${someImei}`, tokens.ravi), sql: page('AND (c.imei1 = $2 OR c.imei2 = $2)', [someImei]) },
  { name: 'search by mobile', api: api(`/api/customer/get_customers_keygen?search=${someMobile.slice(3)}`, tokens.ravi), sql: page('AND (c.mobile = $2 OR c.alt_mobile = $2)', [someMobile]) },
  { name: 'search by name start', api: api('/api/customer/get_customers_keygen?search=zoya1', tokens.ravi), sql: page(nameLike, ['zoya1']) },
  { name: 'dashboard (30 days)', api: api('/api/customer/get_keygen_dashboardV1', tokens.ravi), sql: dashboardSql(ravi, null), slow: true },
  { name: 'dashboard, mini-retailer', api: api('/api/customer/get_keygen_dashboardV1', tokens.sunita), sql: dashboardSql(sunita, sunita), slow: true },
];

console.log(`\nCustomers at scale (${db.driver}, ${total.toLocaleString('en-IN')} customers, ${rounds} rounds, dashboards ${slowRounds}; seeded in ${fmt(seedSeconds)} s, ` +
  `${moved.toLocaleString('en-IN')} moved to the mini-retailer in one statement in ${fmt(moveMs)} ms, payments in ${fmt(paymentsSeconds)} s)`);
console.log(`${'query'.padEnd(28)} ${'API p50'.padStart(9)} ${'API p99'.padStart(9)} ${'SQL p50'.padStart(9)} ${'SQL p99'.padStart(9)} ${'p50 ratio'.padStart(10)} ${'request'.padStart(9)} ${'net ratio'.padStart(10)}`);
const results: Record<string, Record<string, number>> = {};
const request = api('/api/config/access-config', tokens.ravi);
const requestSamples: number[] = [];
for (const s of scenarios) {
  // The fixed request cost is measured in the same turns, so the net ratio compares like with like.
  const [a, q, r] = await timeInTurns([s.api, s.sql, request], s.slow ? slowRounds : rounds);
  requestSamples.push(...r!);
  const [a50, a99, s50, s99, r50] = [percentile(a!, 50), percentile(a!, 99), percentile(q!, 50), percentile(q!, 99), percentile(r!, 50)];
  const net = Math.max(0, a50 - r50) / s50;
  console.log(`${s.name.padEnd(28)} ${fmt(a50, 2).padStart(9)} ${fmt(a99, 2).padStart(9)} ${fmt(s50, 2).padStart(9)} ${fmt(s99, 2).padStart(9)} ${fmt(a50 / s50, 2).padStart(9)}x ${fmt(r50, 2).padStart(9)} ${fmt(net, 2).padStart(9)}x`);
  results[s.name] = { api_p50_ms: Number(a50.toFixed(2)), api_p99_ms: Number(a99.toFixed(2)), sql_p50_ms: Number(s50.toFixed(2)), sql_p99_ms: Number(s99.toFixed(2)), ratio_p50: Number((a50 / s50).toFixed(2)), request_p50_ms: Number(r50.toFixed(2)), ratio_net_p50: Number(net.toFixed(2)) };
}
const requestMs = percentile(requestSamples.sort((x, y) => x - y), 50);

// Where the dashboard's time goes: each of its queries alone, and the exact count the summaries replace.
const parts: Array<[string, () => Promise<unknown>]> = [
  ['status counts (summaries)', () => dashboard.statusCounts(ravi, null)],
  ['status counts (exact GROUP BY)', () => db.query('SELECT install_status, lock_status, count(*)::int FROM customers WHERE account_id = $1 GROUP BY 1, 2', [ravi])],
  ['dues()', () => dashboard.dues(ravi, null, today)],
  ['dues(), mini-retailer', () => dashboard.dues(ravi, sunita, today)],
  ['collections(), 30 days', () => dashboard.collections(ravi, null, from, today)],
  ['collections(), mini-retailer', () => dashboard.collections(ravi, sunita, from, today)],
  ['keys left', () => catalogue.licenseBalances(ravi)],
];
console.log(`\nDashboard queries, each alone (${slowRounds} rounds)`);
const dashboardParts: Record<string, { p50_ms: number; p99_ms: number }> = {};
for (const [name, fn] of parts) {
  const samples = await time(fn, slowRounds);
  console.log(`${name.padEnd(32)} p50 ${fmt(percentile(samples, 50), 2).padStart(9)} ms   p99 ${fmt(percentile(samples, 99), 2).padStart(9)} ms`);
  dashboardParts[name] = { p50_ms: Number(percentile(samples, 50).toFixed(2)), p99_ms: Number(percentile(samples, 99).toFixed(2)) };
}

console.log(JSON.stringify({ bench: 'customers', driver: db.driver, customers: total, request_ms: Number(requestMs.toFixed(2)), ...results, dashboard_parts: dashboardParts }));

await built.close();
await db.close();
remove();
