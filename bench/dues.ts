/**
 * The daily dues run over a whole book against one UPDATE, both measured in the same run on a vacuumed table:
 * (a) the run's penalty update as one statement with the same predicate, (b) the same update without the
 * organisation and active-loan filter (the cheapest way to touch the same instalments; the target is the run in
 * at most twice its time). Then the next day's run (only what changed) and the device policies' sweep over the
 * events both runs emitted.
 *   node --import tsx bench/dues.ts [loans=20000]                                  (PGlite)
 *   DATABASE_URL=postgres://.../kisht_bench_dues node --import tsx bench/dues.ts 1000000
 * The database is created fresh: on PostgreSQL it drops and recreates the database named in DATABASE_URL. With
 * BENCH_REUSE=1 (PostgreSQL) the seed is kept in a database of its own (the name with `_seed` added) and each run
 * works on a copy of it, so only the first run of a size seeds (8 minutes at 1,000,000 loans).
 */
import { randomBytes } from 'node:crypto';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { DEMO_USERS } from '../packages/server/src/db/seed.ts';
import { createDuesRepository, type DuesRepository } from '../packages/server/src/modules/dues/dues.repository.ts';
import { createDuesService } from '../packages/server/src/modules/dues/dues.service.ts';
import { seedCustomers } from './seed-customers.ts';
import { copyOfSeeded, fmt, freshBenchDatabase } from './lib.ts';
import type { Database } from '../packages/server/src/db/database.ts';

const total = Number(process.argv[2] ?? 20_000);
const url = process.env.DATABASE_URL;

async function seed(into: Database): Promise<void> {
  const ravi = (await into.query<{ id: number }>('SELECT id FROM users WHERE mobile = $1', [DEMO_USERS[0].mobile])).rows[0]!.id;
  const product = (await into.query<{ id: number }>('SELECT id FROM products WHERE org_id = 23 AND product_type = 0')).rows[0]!.id;
  console.log(`Seeding ${total.toLocaleString('en-IN')} loans on ${into.driver}`);
  await seedCustomers(into, ravi, product, total);
}
const seedStarted = performance.now();
let db: Database;
let remove = () => {};
let copied = false;
if (url && process.env.BENCH_REUSE === '1') {
  ({ db, copied } = await copyOfSeeded(url, `dues ${total}`, seed));
} else {
  ({ db, remove } = await freshBenchDatabase(url));
  await seed(db);
}
const seedSeconds = (performance.now() - seedStarted) / 1000;
if (copied) console.log(`Using a copy of the ${total.toLocaleString('en-IN')} loans seeded by an earlier run (BENCH_REUSE)`);

// The app supplies the device policies (the sweep); the run itself goes through a repository that times each statement.
const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: 'memory://', MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', CONSOLE_DIST: '/nonexistent', DUES_CHECK_SECONDS: '0', DEVICE_SWEEP_SECONDS: '0', ...(url ? { DATABASE_URL: url } : {}) });
const built = await buildApp(config, { db, secret: randomBytes(32).toString('hex') });
const stepMs = new Map<string, number>();
const repository = createDuesRepository(db);
const timed = Object.fromEntries(Object.entries(repository).map(([name, fn]) => [name, async (...args: unknown[]) => {
  const t0 = performance.now();
  try {
    return await (fn as (...a: unknown[]) => Promise<unknown>)(...args);
  } finally {
    stepMs.set(name, (stepMs.get(name) ?? 0) + performance.now() - t0);
  }
}])) as unknown as DuesRepository;
const dues = createDuesService({ db, dues: timed });

const today = todayInIndia();
const rule = (await repository.rules()).find((r) => r.org_id === 23)!;
const instalments = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM emi_instalments')).rows[0]!.n;
const set = `penalty_paise = e.penalty_paise + ${rule.penalty_value}, penalty_applied_at = now()`;
const due = `e.paid_paise < e.amount_paise + e.penalty_paise AND e.penalty_applied_at IS NULL AND e.due_date < $1::date - ${rule.penalty_grace_days}`;
const samePredicate = `UPDATE emi_instalments e SET ${set} WHERE e.org_id = 23 AND e.loan_active AND ${due}`;
const joinLess = `UPDATE emi_instalments e SET ${set} WHERE ${due}`;

/** Vacuumed tables and a checkpoint just taken, so no measure pays for the writes of the one before it. */
async function vacuumed() {
  await db.query('VACUUM ANALYZE emi_instalments');
  await db.query('VACUUM ANALYZE customers');
  await db.query('CHECKPOINT');
}
async function timeStatement(sql: string): Promise<{ ms: number; rows: number }> {
  await vacuumed();
  const t0 = performance.now();
  const res = await db.query(sql, [today]);
  const ms = performance.now() - t0;
  await db.query('UPDATE emi_instalments SET penalty_paise = 0, penalty_applied_at = NULL WHERE penalty_applied_at IS NOT NULL');
  return { ms, rows: res.rowCount };
}

// (b) runs before and after the rest, so the table's growth between runs (each update leaves index entries) and
// the machine's other work weigh on both sides; the ratio uses their mean.
const rawBefore = await timeStatement(joinLess);
const same = await timeStatement(samePredicate);
await vacuumed();
let t0 = performance.now();
const first = (await dues.runDue(today)).get(23)!;
const jobMs = performance.now() - t0;
const firstSteps = new Map(stepMs);
stepMs.clear();
t0 = performance.now();
const next = (await dues.runDue(addDays(today, 1))).get(23)!;
const nextMs = performance.now() - t0;
const nextSteps = new Map(stepMs);
const events = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM customer_events WHERE handled_at IS NULL AND type IN ('emi_reminder', 'emi_overdue')`)).rows[0]!.n;
t0 = performance.now();
await built.services.policies.handleEvents();
const sweepMs = performance.now() - t0;
await db.query('UPDATE emi_instalments SET penalty_paise = 0, penalty_applied_at = NULL WHERE penalty_applied_at IS NOT NULL');
const rawAfter = await timeStatement(joinLess);
const raw = { ms: (rawBefore.ms + rawAfter.ms) / 2, rows: rawBefore.rows };
if (new Set([first.penalties, same.rows, rawBefore.rows, rawAfter.rows]).size !== 1) {
  throw new Error(`penalties differ: run ${first.penalties}, (a) ${same.rows}, (b) ${rawBefore.rows} and ${rawAfter.rows}`);
}

const row = (name: string, ms: number, note = '') => console.log(`${name.padEnd(44)} ${fmt(ms / 1000, 2).padStart(8)} s  ${note}`);
console.log(`\nDaily dues run (${db.driver}, ${total.toLocaleString('en-IN')} loans, ${instalments.toLocaleString('en-IN')} instalments; ${copied ? 'copied' : 'seeded'} in ${fmt(seedSeconds)} s)`);
row('(b) penalty UPDATE, no organisation filter', raw.ms, `${raw.rows.toLocaleString('en-IN')} rows; mean of ${fmt(rawBefore.ms / 1000, 2)} s before and ${fmt(rawAfter.ms / 1000, 2)} s after`);
row('(a) penalty UPDATE, the run\'s predicate', same.ms, `${same.rows.toLocaleString('en-IN')} rows`);
row('dues run, first day over the whole book', jobMs, `${fmt(jobMs / raw.ms, 2)}x (b), ${fmt(jobMs / same.ms, 2)}x (a)`);
for (const [name, ms] of firstSteps) row(`  ${name}`, ms);
console.log(`  ${JSON.stringify(first)}`);
row('dues run, the next day', nextMs, JSON.stringify(next));
for (const [name, ms] of nextSteps) if (ms >= 1) row(`  ${name}`, ms);
row('device policies sweep', sweepMs, `${events.toLocaleString('en-IN')} events, ${Math.round(events / (sweepMs / 1000)).toLocaleString('en-IN')}/s`);

console.log(JSON.stringify({
  bench: 'dues', driver: db.driver, loans: total, instalments, job_s: Number((jobMs / 1000).toFixed(2)), raw_s: Number((raw.ms / 1000).toFixed(2)),
  ratio: Number((jobMs / raw.ms).toFixed(2)), raw_before_s: Number((rawBefore.ms / 1000).toFixed(2)), raw_after_s: Number((rawAfter.ms / 1000).toFixed(2)), same_predicate_s: Number((same.ms / 1000).toFixed(2)), ratio_same_predicate: Number((jobMs / same.ms).toFixed(2)),
  penalties: first.penalties, overdue_events: first.overdue, next_day_s: Number((nextMs / 1000).toFixed(2)), next_day_overdue_events: next.overdue,
  sweep_events: events, sweep_per_s: Math.round(events / (sweepMs / 1000)),
}));

await built.close();
await db.close();
remove();
