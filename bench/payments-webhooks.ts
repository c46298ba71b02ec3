/**
 * Gateway webhooks applied end to end (verified, stored, answered, then applied by the worker: the order found
 * and locked, the ledger payment with its allocation and receipt, the order settled) against a bare INSERT of
 * the same event rows, one statement each, in the same run. Orders are opened first through the real Razorpay
 * adapter against the local fake (test/support/fake-razorpay.ts).
 *   node --import tsx bench/payments-webhooks.ts [webhooks=500] [concurrency=16]                 (PGlite)
 *   DATABASE_URL=postgres://.../kisht_bench_payments node --import tsx bench/payments-webhooks.ts 2000
 * `BENCH_PORT=n` puts the fake gateway on port n (default: a free one).
 */
import { randomBytes } from 'node:crypto';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { DEMO_USERS } from '../packages/server/src/db/seed.ts';
import { FAKE_KEY_ID, FAKE_KEY_SECRET, FAKE_WEBHOOK_SECRET, sign, startFakeRazorpay } from '../packages/server/test/support/fake-razorpay.ts';
import { seedCustomers } from './seed-customers.ts';
import { fmt, freshBenchDatabase } from './lib.ts';

const total = Number(process.argv[2] ?? 500);
const concurrency = Number(process.argv[3] ?? 16);
const url = process.env.DATABASE_URL;
const WEBHOOK = '/api/payments/webhook/razorpay';

const { db, remove } = await freshBenchDatabase(url);
const fake = await startFakeRazorpay({ port: Number(process.env.BENCH_PORT ?? 0) });
const ravi = (await db.query<{ id: number }>('SELECT id FROM users WHERE mobile = $1', [DEMO_USERS[0].mobile])).rows[0]!.id;
const product = (await db.query<{ id: number }>('SELECT id FROM products WHERE org_id = 23 AND product_type = 0')).rows[0]!.id;
await seedCustomers(db, ravi, product, Math.max(total * 2, 1000));
await db.query(`UPDATE organizations SET features = features || '{"payment_gateway": true}' WHERE id = 23`);

// The worker's sweep is off: the webhook's own kick applies each event, and the measure waits for the last.
const config = loadConfig({
  APP_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: 'memory://', MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', CONSOLE_DIST: '/nonexistent', DUES_CHECK_SECONDS: '0', DEVICE_SWEEP_SECONDS: '0',
  PAYMENT_GATEWAY: 'razorpay', RAZORPAY_BASE_URL: fake.baseUrl, RAZORPAY_KEY_ID: FAKE_KEY_ID, RAZORPAY_KEY_SECRET: FAKE_KEY_SECRET, RAZORPAY_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
  PAYMENT_RECONCILE_SECONDS: '0', ...(url ? { DATABASE_URL: url } : {}),
});
const built = await buildApp(config, { db, secret: randomBytes(32).toString('hex') });
const payments = built.services.payments;

// Customers that owe something, one order of Rs 100 each.
const customers = (await db.query<{ id: number }>(
  `SELECT c.id FROM customers c WHERE c.install_status NOT IN (3, 5)
      AND EXISTS (SELECT 1 FROM emi_instalments e WHERE e.customer_id = c.id AND e.paid_paise < e.amount_paise) ORDER BY c.id LIMIT $1`,
  [total],
)).rows.map((r) => r.id);
if (customers.length < total) throw new Error(`only ${customers.length} customers owe something`);
console.log(`Opening ${total} orders through the adapter and the fake gateway`);
const orders = [];
for (const id of customers) orders.push(await payments.createCustomerOrder(id, { createdBy: null, amountPaise: 10_000 }));

/** The webhook Razorpay would send for a captured payment of the order. */
const bodies = orders.map((o, i) => {
  const link = fake.linkFor(o.id);
  const body = JSON.stringify({
    entity: 'event', account_id: 'acc_bench', event: 'payment.captured', contains: ['payment'], created_at: Math.floor(Date.now() / 1000),
    payload: { payment: { entity: { id: `pay_bench${String(i).padStart(8, '0')}`, entity: 'payment', amount: o.amount_paise, currency: 'INR', status: 'captured', order_id: link.order_id, method: 'upi', captured: true, notes: link.notes } } },
  });
  return { body, headers: { 'content-type': 'application/json', 'x-razorpay-signature': sign(body), 'x-razorpay-event-id': `evt_bench${String(i).padStart(8, '0')}` } };
});

async function inParallel(count: number, work: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count) await work(next++);
  }));
}

// Baseline: the same event rows, one bare INSERT each, into a table of the same shape.
await db.query('CREATE TABLE bench_events (LIKE payment_gateway_events INCLUDING ALL)');
let t0 = performance.now();
await inParallel(total, async (i) => {
  await db.query('INSERT INTO bench_events (gateway, event_id, event_type, body) VALUES ($1, $2, $3, $4)', ['razorpay', bodies[i]!.headers['x-razorpay-event-id'], 'payment.captured', bodies[i]!.body]);
});
const insertMs = performance.now() - t0;

// End to end: every webhook answered, then every event applied.
t0 = performance.now();
await inParallel(total, async (i) => {
  const res = await built.app.inject({ method: 'POST', url: WEBHOOK, headers: bodies[i]!.headers, payload: bodies[i]!.body });
  if (res.statusCode !== 200) throw new Error(`webhook answered ${res.statusCode}: ${res.body}`);
});
const answeredMs = performance.now() - t0;
for (;;) {
  await payments.drain();
  const open = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_gateway_events WHERE applied_at IS NULL')).rows[0]!.n;
  if (open === 0) break;
}
const appliedMs = performance.now() - t0;
const credited = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payment_orders WHERE status = 'paid'`)).rows[0]!.n;
const ledgerRows = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payments WHERE method = 'upi' AND reference LIKE 'pay_bench%'`)).rows[0]!.n;
if (credited !== total || ledgerRows !== total) throw new Error(`credited ${credited} orders and ${ledgerRows} ledger payments of ${total}`);

const perSecond = (ms: number) => total / (ms / 1000);
const row = (name: string, ms: number, note = '') => console.log(`${name.padEnd(44)} ${fmt(perSecond(ms), 0).padStart(8)} /s  ${fmt(ms / 1000, 2).padStart(7)} s  ${note}`);
console.log(`\nGateway webhooks (${db.driver}, ${total} events, ${concurrency} in flight)`);
row('bare INSERT of the event rows', insertMs);
row('webhooks answered (verified and stored)', answeredMs, `${fmt(answeredMs / insertMs, 2)}x the INSERTs`);
row('webhooks applied end to end', appliedMs, `${fmt(appliedMs / insertMs, 2)}x the INSERTs`);
console.log(JSON.stringify({
  bench: 'payments-webhooks', driver: db.driver, events: total, concurrency,
  insert_per_s: Math.round(perSecond(insertMs)), answered_per_s: Math.round(perSecond(answeredMs)), applied_per_s: Math.round(perSecond(appliedMs)),
  ratio_answered: Number((answeredMs / insertMs).toFixed(2)), ratio_applied: Number((appliedMs / insertMs).toFixed(2)),
}));

await built.close();
await fake.close();
await db.close();
remove();
