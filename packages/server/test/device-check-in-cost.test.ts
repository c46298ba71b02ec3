/**
 * What a phone's check-in costs the database. Ten thousand phones reconnecting after an outage all check in
 * within a minute, and on PGlite every statement runs on the server's one thread: a check-in that changes
 * nothing but the time of the check-in writes that in one statement and opens no transaction, and one that
 * changes something still records all of it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database, Queryable, QueryResult } from '../src/db/database.ts';
import type { TestApp } from './harness.ts';
import { startDeviceApp, type deviceFixtures } from './device-fixtures.ts';
import type { Enrolled } from './phone.ts';

let t: TestApp;
let ravi: string;
let f: ReturnType<typeof deviceFixtures>;

beforeAll(async () => {
  ({ t, ravi, f } = await startDeviceApp());
});
afterAll(() => t.stop());

/** Which calls belong to the request being counted: the phone's own MQTT reports, applied in the background, do not. */
const request = new AsyncLocalStorage<true>();

/**
 * Counts the statements and transactions of the server's database made for `work` (one request): those started
 * in its own asynchronous context, not a report of the phone's that the server happens to apply meanwhile.
 */
async function counted<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[]; transactions: number }> {
  const db: Database = t.db;
  const { query, transaction } = db;
  const statements: string[] = [];
  let transactions = 0;
  const logged = (q: Queryable): Queryable => ({
    query<R>(sql: string, params?: unknown[]) {
      if (request.getStore()) statements.push(sql.replace(/\s+/g, ' ').slice(0, 120));
      return q.query<R>(sql, params);
    },
  });
  db.query = logged({ query: <R>(sql: string, params?: unknown[]) => query.call<Database, [string, unknown[] | undefined], Promise<QueryResult<R>>>(db, sql, params) }).query;
  db.transaction = <R>(run: (tx: Queryable) => Promise<R>) => {
    if (request.getStore()) transactions++;
    return transaction.call<Database, [(tx: Queryable) => Promise<R>], Promise<R>>(db, (tx) => run(logged(tx)));
  };
  try {
    const result = await request.run(true, work);
    return { result, statements, transactions };
  } finally {
    db.query = query;
    db.transaction = transaction;
  }
}

const SIMS = [{ slot: 0, operator: 'Jio', iccid: '8991000000000000001' }];
const state = { battery: 64, app_version: '1.0.0', sims: SIMS, location: { latitude: 12.9716, longitude: 77.5946, accuracy: 20, at: '2026-11-25T10:00:00.000Z' } };
const lastCheckIn = async (device: Enrolled) =>
  (await t.db.query<{ at: Date | null }>('SELECT last_check_in_at AS at FROM devices WHERE id = $1', [device.device_id])).rows[0]!.at;
const lockStatusOf = async (customerId: number) => (await t.db.query<{ lock_status: number }>('SELECT lock_status FROM customers WHERE id = $1', [customerId])).rows[0]!.lock_status;
const stateOf = async (commandId: string) => (await t.db.query<{ state: string }>('SELECT state FROM device_commands WHERE id = $1', [commandId])).rows[0]!.state;

describe('a check-in that changes nothing', () => {
  it('opens no transaction and only moves the time of the last check-in', async () => {
    const { device, phone } = await f.phone();
    await phone.close();
    expect((await f.checkIn(device, state)).statusCode).toBe(200);
    await t.db.query(`UPDATE devices SET last_check_in_at = now() - interval '1 hour' WHERE id = $1`, [device.device_id]);
    const before = await lastCheckIn(device);
    const { result: reply, statements, transactions } = await counted(() => f.checkIn(device, state));
    expect(reply.statusCode, reply.body).toBe(200);
    expect(transactions).toBe(0);
    // The device with its password hash, what the answer needs, the time of the check-in.
    expect(statements.length).toBeLessThanOrEqual(3);
    expect((await lastCheckIn(device))!.getTime()).toBeGreaterThan(before!.getTime());
    expect(reply.json().data).toMatchObject({ desired: { locked: false, lock_screen: null }, commands: [], want_location: false });
  });

  it('of a locked phone whose lock is confirmed: the lock screen is the only read more', async () => {
    const { customer: c, device, phone } = await f.phone();
    await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi });
    const lock = await phone.next();
    await phone.ack(lock, 'done');
    await expect.poll(() => lockStatusOf(c.id)).toBe(1);
    await phone.close();
    const body = { ...state, locked: true, last_seq: lock.seq, recent: [{ id: lock.id, seq: lock.seq, state: 'done' }] };
    expect((await f.checkIn(device, body)).statusCode).toBe(200);
    const { result: reply, statements, transactions } = await counted(() => f.checkIn(device, body));
    expect(reply.statusCode, reply.body).toBe(200);
    expect(transactions).toBe(0);
    expect(statements.length).toBeLessThanOrEqual(4);
    expect(reply.json().data).toMatchObject({ desired: { locked: true, lock_screen: { amount_due: 0 } }, commands: [] });
    expect(await lockStatusOf(c.id)).toBe(1);
  });

  it("answers with the organisation's policy as it is now, read in the same statement", async () => {
    const { device, phone } = await f.phone();
    await phone.close();
    const org = (await t.db.query<{ org_id: number }>('SELECT org_id FROM devices WHERE id = $1', [device.device_id])).rows[0]!.org_id;
    const days = (await f.checkIn(device, state)).json().data.offline_lock_days as number;
    try {
      await t.db.query('UPDATE organizations SET offline_lock_days = $2 WHERE id = $1', [org, days + 1]);
      const { result: reply, statements } = await counted(() => f.checkIn(device, state));
      expect(reply.json().data.offline_lock_days).toBe(days + 1);
      expect(statements.filter((sql) => /FROM organizations WHERE/.test(sql))).toEqual([]);
    } finally {
      await t.db.query('UPDATE organizations SET offline_lock_days = $2 WHERE id = $1', [org, days]);
    }
  });
});

describe('a check-in that changes something', () => {
  it('records what the phone reports in one statement, without a transaction', async () => {
    const { device, phone } = await f.phone();
    await phone.close();
    expect((await f.checkIn(device, state)).statusCode).toBe(200);
    const { result: reply, statements, transactions } = await counted(() => f.checkIn(device, { ...state, battery: 41 }));
    expect(reply.statusCode, reply.body).toBe(200);
    expect(transactions).toBe(0);
    expect(statements.length).toBeLessThanOrEqual(3);
    const reported = (await t.db.query<{ reported: Record<string, unknown> }>('SELECT reported FROM devices WHERE id = $1', [device.device_id])).rows[0]!.reported;
    expect(reported).toMatchObject({ battery: 41, app_version: '1.0.0', locked: false, location: state.location });
  });

  it('tells the phone once that a location is wanted', async () => {
    const { device, phone } = await f.phone();
    await phone.close();
    expect((await f.checkIn(device, state)).statusCode).toBe(200);
    await t.db.query('UPDATE devices SET want_location = true WHERE id = $1', [device.device_id]);
    expect((await f.checkIn(device, state)).json().data.want_location).toBe(true);
    expect((await f.checkIn(device, state)).json().data.want_location).toBe(false);
  });

  it('takes the outcome of a lost report and the lock state in one transaction, and answers from what it wrote', async () => {
    const { customer: c, device, phone } = await f.phone();
    await t.post('/api/device/camera_lock', { customer_id: c.id, on: true }, { token: ravi });
    await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi });
    const camera = await phone.next();
    const lock = await phone.next();
    await phone.close(); // both carried out, their reports never left
    const body = { ...state, locked: true, last_seq: lock.seq, recent: [{ id: camera.id, seq: camera.seq, state: 'done' }, { id: lock.id, seq: lock.seq, state: 'done' }] };
    const { result: reply, statements, transactions } = await counted(() => f.checkIn(device, body));
    expect(reply.statusCode, reply.body).toBe(200);
    expect(transactions).toBe(1);
    expect(await stateOf(camera.id)).toBe('done');
    expect(await stateOf(lock.id)).toBe('done');
    expect(await lockStatusOf(c.id)).toBe(1);
    expect(reply.json().data).toMatchObject({ desired: { locked: true }, commands: [] });
    // Beside the writes of the two outcomes (the second settles the lock): the device, what it needs read before and after them, the lock status, the lock screen.
    expect(statements.length).toBeLessThanOrEqual(11);
    // The same check-in again finds both settled: nothing to write.
    const again = await counted(() => f.checkIn(device, body));
    expect(again.transactions).toBe(0);
  });

  it("makes the phone's own lock state the customer's when nothing is on its way", async () => {
    const { customer: c, device, phone } = await f.phone();
    await phone.close();
    expect((await f.checkIn(device, state)).statusCode).toBe(200);
    const { result: reply, transactions } = await counted(() => f.checkIn(device, { ...state, locked: true }));
    expect(reply.statusCode, reply.body).toBe(200);
    expect(transactions).toBe(1);
    expect(await lockStatusOf(c.id)).toBe(1);
    expect(reply.json().data.desired.locked).toBe(true);
    // A self-lock is the phone's precaution, not the retailer's lock: reported, but the status stays.
    expect((await f.checkIn(device, { ...state, locked: false })).statusCode).toBe(200);
    expect(await lockStatusOf(c.id)).toBe(0);
    const self = await counted(() => f.checkIn(device, { ...state, locked: true, self_locked: true }));
    expect(self.transactions).toBe(0);
    expect(await lockStatusOf(c.id)).toBe(0);
  });

  it('answers with queued commands and marks them sent', async () => {
    const { customer: c, device, phone } = await f.phone();
    await phone.close();
    expect((await f.checkIn(device, state)).statusCode).toBe(200);
    // Written but never published (the server stopped in between).
    const sent = await t.post('/api/device/camera_lock', { customer_id: c.id, on: true }, { token: ravi });
    const id = sent.json().data.id as string;
    // The publish is marked after the answer: it must be over before the command is rewound, or its write lands
    // inside the counted check-in (it did on a loaded machine).
    await vi.waitFor(async () => expect(await stateOf(id)).toBe('sent'), { timeout: 10_000 });
    await t.db.query(`UPDATE device_commands SET state = 'queued', sent_at = NULL WHERE id = $1`, [id]);
    const { result: reply, transactions } = await counted(() => f.checkIn(device, state));
    expect(transactions).toBe(0);
    expect(reply.json().data.commands).toHaveLength(1);
    expect(await stateOf(id)).toBe('sent');
  });
});
