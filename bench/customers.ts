/**
 * Customer list, dashboard and dues run at scale, each against the same SQL run directly in the same run.
 *   node --import tsx bench/customers.ts [customers=50000]                       (PGlite)
 *   DATABASE_URL=postgres://.../kisht_bench node --import tsx bench/customers.ts 1000000
 * The database is created fresh: on PostgreSQL it drops and recreates the database named in DATABASE_URL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createEmmAuthSession } from '@kisht/domain/emm-auth';
import { todayInIndia } from '@kisht/domain/format';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { openDatabase } from '../packages/server/src/db/database.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { seedDemo, DEMO_USERS } from '../packages/server/src/db/seed.ts';
import { seedCustomers } from './seed-customers.ts';
import { percentile, fmt } from './lib.ts';

const total = Number(process.argv[2] ?? 50_000);
const rounds = Number(process.argv[3] ?? 60);
const url = process.env.DATABASE_URL;

let dataDir: string | null = null;
if (url) {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new pg.Client({ connectionString: url.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
} else {
  dataDir = mkdtempSync(path.join(tmpdir(), 'kisht-bench-'));
}
const db = await openDatabase({ databaseUrl: url, dataDir: dataDir ? path.join(dataDir, 'pglite') : 'memory://' });
await migrate(db);
await seedDemo(db);
const ravi = (await db.query<{ id: number }>('SELECT id FROM users WHERE mobile = $1', [DEMO_USERS[0].mobile])).rows[0]!.id;
const product = (await db.query<{ id: number }>('SELECT id FROM products WHERE org_id = 23 AND product_type = 0')).rows[0]!.id;
console.log(`Seeding ${total.toLocaleString('en-IN')} customers on ${db.driver}`);
const seedStarted = performance.now();
await seedCustomers(db, ravi, product, total);
const seedSeconds = (performance.now() - seedStarted) / 1000;

const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: 'memory://', MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', CONSOLE_DIST: '/nonexistent', DUES_CHECK_SECONDS: '0', ...(url ? { DATABASE_URL: url } : {}) });
const built = await buildApp(config, { db, secret: randomBytes(32).toString('hex') });
const inject = async (method: 'GET' | 'POST', path: string, token?: string, payload?: object) =>
  built.app.inject({ method, url: path, headers: { 'x-emm-auth-session': await createEmmAuthSession(path, 23), ...(token ? { authorization: `Bearer ${token}` } : {}) }, ...(payload ? { payload } : {}) });
const requested = (await inject('POST', '/api/auth/loginWithOtp', undefined, { mobile: DEMO_USERS[0].mobile })).json().data.request_id;
const otp = /\b(\d{6})\b/.exec((await db.query<{ body: string }>('SELECT body FROM sms_outbox ORDER BY id DESC LIMIT 1')).rows[0]!.body)![1];
const token = (await inject('POST', '/api/auth/verifyOtpAuth', undefined, { request_id: requested, otp })).json().data.token as string;

async function time(fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return samples.sort((a, b) => a - b);
}

const someImei = (await db.query<{ imei1: string }>('SELECT imei1 FROM customers WHERE account_id = $1 ORDER BY id DESC OFFSET 12345 LIMIT 1', [ravi])).rows[0]!.imei1;
const today = todayInIndia();
const listSql = (where: string) => `SELECT c.id, c.first_name, c.last_name, c.mobile, c.imei1, c.install_status, c.lock_status, c.emi_paise, c.created_at,
    due.next_due, due.overdue FROM customers c
    LEFT JOIN LATERAL (SELECT min(e.due_date) AS next_due, sum(e.amount_paise + e.penalty_paise - e.paid_paise) FILTER (WHERE e.due_date < current_date) AS overdue
      FROM emi_instalments e WHERE e.customer_id = c.id AND e.paid_paise < e.amount_paise + e.penalty_paise) due ON true
    WHERE c.account_id = $1 ${where} ORDER BY c.created_at DESC, c.id DESC LIMIT 20`;
const countSql = (where: string) => `SELECT count(*)::int FROM customers c WHERE c.account_id = $1 ${where}`;

const scenarios: Array<{ name: string; api: string; sql: () => Promise<unknown> }> = [
  { name: 'list, first page, all', api: '/api/customer/get_customers_keygen', sql: async () => { await db.query(countSql(''), [ravi]); await db.query(listSql(''), [ravi]); } },
  { name: 'list, status installed', api: '/api/customer/get_customers_keygen?status=install', sql: async () => { await db.query(countSql('AND c.install_status = 1'), [ravi]); await db.query(listSql('AND c.install_status = 1'), [ravi]); } },
  { name: 'list, locked', api: '/api/customer/get_customers_keygen?lock_status=1', sql: async () => { await db.query(countSql('AND c.lock_status = 1'), [ravi]); await db.query(listSql('AND c.lock_status = 1'), [ravi]); } },
  { name: 'search by IMEI', api: `/api/customer/get_customers_keygen?search=${someImei}`, sql: async () => { await db.query(countSql('AND (c.imei1 = $2 OR c.imei2 = $2)'), [ravi, someImei]); await db.query(listSql('AND (c.imei1 = $2 OR c.imei2 = $2)'), [ravi, someImei]); } },
  { name: 'search by mobile', api: '/api/customer/get_customers_keygen?search=7000012345', sql: async () => { await db.query(countSql('AND (c.mobile = $2 OR c.alt_mobile = $2)'), [ravi, '+917000012345']); await db.query(listSql('AND (c.mobile = $2 OR c.alt_mobile = $2)'), [ravi, '+917000012345']); } },
  { name: 'search by name start', api: '/api/customer/get_customers_keygen?search=zoya1', sql: async () => { const w = `AND lower(c.first_name || ' ' || c.last_name) LIKE $2 || '%'`; await db.query(countSql(w), [ravi, 'zoya1']); await db.query(listSql(w), [ravi, 'zoya1']); } },
  {
    name: 'dashboard stats (30 days)', api: '/api/customer/get_keygen_dashboardV1',
    sql: async () => {
      await db.query('SELECT install_status, lock_status, count(*) FROM customers WHERE account_id = $1 GROUP BY 1, 2', [ravi]);
      await db.query(`SELECT count(*) FILTER (WHERE e.due_date = $2::date), count(*) FILTER (WHERE e.due_date < $2::date), sum(e.amount_paise - e.paid_paise) FROM emi_instalments e JOIN customers c ON c.id = e.customer_id WHERE e.account_id = $1 AND e.due_date <= $2::date AND e.paid_paise < e.amount_paise + e.penalty_paise AND c.install_status NOT IN (3, 5)`, [ravi, today]);
      await db.query(`SELECT (p.created_at AT TIME ZONE 'Asia/Kolkata')::date, sum(p.amount_paise) FROM payments p WHERE p.account_id = $1 AND p.created_at > now() - interval '30 days' GROUP BY 1`, [ravi]);
      await db.query('SELECT product_type, balance FROM license_balances WHERE user_id = $1', [ravi]);
    },
  },
];

console.log(`\nCustomers at scale (${db.driver}, ${total.toLocaleString('en-IN')} customers, ${rounds} rounds; seeded in ${fmt(seedSeconds)} s)`);
console.log(`${'query'.padEnd(30)} ${'API p50'.padStart(9)} ${'API p99'.padStart(9)} ${'SQL p50'.padStart(9)} ${'SQL p99'.padStart(9)} ${'p50 ratio'.padStart(10)}`);
for (const s of scenarios) {
  const api = await time(async () => {
    const res = await inject('GET', s.api, token);
    if (res.statusCode !== 200) throw new Error(`${s.api}: ${res.statusCode} ${res.body}`);
  });
  const sql = await time(s.sql);
  const [a50, a99, s50, s99] = [percentile(api, 50), percentile(api, 99), percentile(sql, 50), percentile(sql, 99)];
  console.log(`${s.name.padEnd(30)} ${fmt(a50, 2).padStart(9)} ${fmt(a99, 2).padStart(9)} ${fmt(s50, 2).padStart(9)} ${fmt(s99, 2).padStart(9)} ${fmt(a50 / s50, 2).padStart(10)}x`);
}

// The dues run over the whole book, against its slowest statement (the penalty update) run directly.
const rows = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM emi_instalments')).rows[0]!.n;
const t0 = performance.now();
await built.services.dues.rerun(23, today);
const jobMs = performance.now() - t0;
await db.query('UPDATE emi_instalments SET penalty_paise = 0, penalty_applied_at = NULL');
const t1 = performance.now();
await db.query(`UPDATE emi_instalments e SET penalty_paise = e.penalty_paise + 5000, penalty_applied_at = now() FROM customers c
  WHERE c.id = e.customer_id AND c.org_id = 23 AND c.install_status NOT IN (3, 5) AND e.paid_paise < e.amount_paise + e.penalty_paise
  AND e.penalty_applied_at IS NULL AND e.due_date + 3 < $1::date`, [today]);
const rawMs = performance.now() - t1;
console.log(`\ndues run: ${rows.toLocaleString('en-IN')} instalments in ${fmt(jobMs / 1000, 2)} s = ${Math.round(rows / (jobMs / 1000)).toLocaleString('en-IN')} rows/s; ` +
  `its penalty statement alone, run directly: ${fmt(rawMs / 1000, 2)} s (job/raw ${fmt(jobMs / rawMs, 2)}x, the job also completes, matures and emits events)`);

await built.close();
await db.close();
if (dataDir) rmSync(dataDir, { recursive: true, force: true });
