/**
 * The retailer network at scale: a tree of retailers 5 levels deep under one retailer; its subtree list and
 * search through the API against the same SQL run directly, and key transfers per second through the API
 * against bare INSERTs of the same rows, all in one run. Ends with one JSON line of results.
 *   node --import tsx bench/network.ts [members=100000] [transfers=2000]          (PGlite)
 *   DATABASE_URL=postgres://.../kisht_bench node --import tsx bench/network.ts
 * The database is created fresh: on PostgreSQL it drops and recreates the database named in DATABASE_URL.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createEmmAuthSession } from '@kisht/domain/emm-auth';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { DEMO_USERS } from '../packages/server/src/db/seed.ts';
import { percentile, fmt, freshBenchDatabase } from './lib.ts';

const members = Number(process.argv[2] ?? 100_000);
const transfers = Number(process.argv[3] ?? 2_000);
const rounds = 40;
const url = process.env.DATABASE_URL;

const { db, remove } = await freshBenchDatabase(url);
const ravi = (await db.query<{ id: number; path: string }>('SELECT id, path::text AS path FROM users WHERE mobile = $1', [DEMO_USERS[0].mobile])).rows[0]!;

// Five levels below Ravi, each node with `branch` children, until `members` are placed (level by level).
const branch = Math.max(2, Math.ceil(members ** (1 / 5)));
console.log(`Seeding ${members.toLocaleString('en-IN')} members (${branch} children each, 5 levels) on ${db.driver}`);
const seedStarted = performance.now();
let placed = 0;
for (let level = 1; level <= 5 && placed < members; level++) {
  const res = await db.query(
    `INSERT INTO users (id, org_id, user_type, parent_id, account_id, first_name, last_name, mobile, shop_name, city, path)
     SELECT n.id, 23, 'retailer', p.id, n.id, 'Member' || n.id, CASE WHEN n.id % 7 = 0 THEN 'Sharma' ELSE 'Verma' END,
            '+917' || lpad(n.id::text, 9, '0'), 'Shop ' || n.id, 'Jaipur', p.path || text2ltree(n.id::text)
       FROM (SELECT id, path FROM users WHERE path <@ $1::ltree AND nlevel(path) = $2 ORDER BY id LIMIT $4) p
       CROSS JOIN LATERAL (SELECT nextval(pg_get_serial_sequence('users', 'id'))::int AS id FROM generate_series(1, $3) g) n`,
    [ravi.path, ravi.path.split('.').length + level - 1, branch, Math.ceil((members - placed) / branch)],
  );
  placed += res.rowCount ?? 0;
}
await db.query('ANALYZE users');
const seedSeconds = (performance.now() - seedStarted) / 1000;

const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: 'memory://', MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', CONSOLE_DIST: '/nonexistent', DUES_CHECK_SECONDS: '0', ...(url ? { DATABASE_URL: url } : {}) });
const built = await buildApp(config, { db, secret: randomBytes(32).toString('hex') });
const inject = async (method: 'GET' | 'POST', target: string, token?: string, payload?: object) =>
  built.app.inject({ method, url: target, headers: { 'x-emm-auth-session': await createEmmAuthSession(target, 23), ...(token ? { authorization: `Bearer ${token}` } : {}) }, ...(payload ? { payload } : {}) });
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

// The same statements the repository runs, with the viewer's path.
const member = `SELECT u.id, u.user_type, u.first_name, u.last_name, u.shop_name, u.mobile, u.city, u.email, u.active, u.parent_id,
    (nlevel(u.path) - nlevel($1::ltree))::int AS depth, u.user_access, u.lock_access,
    coalesce((SELECT json_agg(json_build_object('product_type', b.product_type, 'balance', b.balance) ORDER BY b.product_type) FROM license_balances b WHERE b.user_id = u.id), '[]'::json) AS balances,
    (SELECT count(*)::int FROM customers c WHERE c.retailer_id = u.id) AS customers FROM users u`;
const page = async (where: string, params: unknown[]) => {
  await db.query(`SELECT count(*)::int FROM users u WHERE u.path <@ $1::ltree AND u.path <> $1::ltree ${where}`, [ravi.path, ...params]);
  await db.query(`${member} WHERE u.path <@ $1::ltree AND u.path <> $1::ltree ${where} ORDER BY u.path LIMIT 20 OFFSET 0`, [ravi.path, ...params]);
};
const someMobile = (await db.query<{ mobile: string }>('SELECT mobile FROM users WHERE path <@ $1::ltree ORDER BY id DESC OFFSET 777 LIMIT 1', [ravi.path])).rows[0]!.mobile;
const nameLike = `lower(u.first_name || ' ' || u.last_name) LIKE $2 OR lower(u.last_name) LIKE $2 OR lower(coalesce(u.shop_name, '')) LIKE $2`;
const scenarios: Array<{ name: string; api: string; sql: () => Promise<unknown> }> = [
  { name: 'subtree, first page', api: '/api/country/getUsers', sql: () => page('', []) },
  { name: 'search by name start', api: '/api/country/getUsers?search=member123', sql: () => page(`AND (${nameLike})`, ['member123%']) },
  { name: 'search by mobile digits', api: `/api/country/getUsers?search=${someMobile.slice(-7)}`, sql: () => page(`AND (${nameLike} OR u.mobile LIKE $3)`, [`${someMobile.slice(-7)}%`, `%${someMobile.slice(-7)}%`]) },
];

console.log(`\nRetailer network (${db.driver}, ${placed.toLocaleString('en-IN')} members below one retailer, seeded in ${fmt(seedSeconds)} s, ${rounds} rounds)`);
console.log(`${'query'.padEnd(26)} ${'API p50'.padStart(9)} ${'API p99'.padStart(9)} ${'SQL p50'.padStart(9)} ${'SQL p99'.padStart(9)} ${'p50 ratio'.padStart(10)}`);
const results: Record<string, unknown> = { driver: db.driver, members: placed };
for (const s of scenarios) {
  const api = await time(async () => {
    const res = await inject('GET', s.api, token);
    if (res.statusCode !== 200) throw new Error(`${s.api}: ${res.statusCode} ${res.body}`);
  });
  const sql = await time(s.sql);
  const [a50, a99, s50, s99] = [percentile(api, 50), percentile(api, 99), percentile(sql, 50), percentile(sql, 99)];
  console.log(`${s.name.padEnd(26)} ${fmt(a50, 2).padStart(9)} ${fmt(a99, 2).padStart(9)} ${fmt(s50, 2).padStart(9)} ${fmt(s99, 2).padStart(9)} ${fmt(a50 / s50, 2).padStart(10)}x`);
  results[s.name] = { api_p50_ms: +fmt(a50, 2), api_p99_ms: +fmt(a99, 2), sql_p50_ms: +fmt(s50, 2), sql_p99_ms: +fmt(s99, 2), ratio_p50: +fmt(a50 / s50, 2) };
}

// Key transfers: Ravi sends one key at a time to his children through the API, against bare INSERTs of the
// same rows (the transfer and its two ledger lines, no checks, no balance update) in one transaction each.
const children = (await db.query<{ id: number }>('SELECT id FROM users WHERE parent_id = $1 ORDER BY id', [ravi.id])).rows.map((r) => r.id);
await db.query('UPDATE license_balances SET balance = balance + $2 WHERE user_id = $1 AND product_type = 0', [ravi.id, transfers]);
const t0 = performance.now();
for (let i = 0; i < transfers; i++) {
  const res = await inject('POST', '/api/keys/transfer', token, { id: randomUUID(), kind: 'send', to_user_id: children[i % children.length], product_type: 0, quantity: 1 });
  if (res.statusCode !== 200) throw new Error(`transfer: ${res.statusCode} ${res.body}`);
}
const apiSeconds = (performance.now() - t0) / 1000;
const t1 = performance.now();
for (let i = 0; i < transfers; i++) {
  const id = randomUUID();
  const to = children[i % children.length]!;
  await db.transaction(async (tx) => {
    await tx.query(`INSERT INTO key_transfers (id, kind, state, product_type, quantity, from_user_id, to_user_id) VALUES ($1, 'send', 'done', 0, 1, $2, $3)`, [id, ravi.id, to]);
    await tx.query(`INSERT INTO license_ledger (user_id, product_type, change, reason, transfer_id, counterpart_id) VALUES ($1, 0, -1, 'bench', $3, $2), ($2, 0, 1, 'bench', $3, $1)`, [ravi.id, to, id]);
  });
}
const rawSeconds = (performance.now() - t1) / 1000;
const [apiRate, rawRate] = [transfers / apiSeconds, transfers / rawSeconds];
console.log(`\nkey transfers: ${transfers.toLocaleString('en-IN')} through the API in ${fmt(apiSeconds, 2)} s = ${Math.round(apiRate)}/s; bare INSERTs of the same rows ${fmt(rawSeconds, 2)} s = ${Math.round(rawRate)}/s (raw/API ${fmt(rawRate / apiRate, 2)}x)`);
results.transfers = { count: transfers, api_per_s: Math.round(apiRate), raw_per_s: Math.round(rawRate), ratio: +fmt(rawRate / apiRate, 2) };

await built.close();
await db.close();
remove();
console.log(JSON.stringify({ bench: 'network', ...results }));
