/**
 * Phone reports taken in groups (one transaction for many): each report keeps the outcome it would have had
 * alone, in the order the reports came, and a report the group cannot take does not hold back the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventTopic } from '@kisht/protocol/topics';
import { seal } from '@kisht/protocol/signing';
import type { CommandMessage } from '@kisht/protocol/messages';
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

/** A sealed report as the phone would publish it, handed to the server as the broker would. */
const report = (device: Enrolled, n: number, body: Record<string, unknown>) =>
  t.services.devices.onDeviceEvent(eventTopic(device.device_id), seal(device.offline_secret, { v: 1, n, at: new Date().toISOString(), ...body }));
const ack = (device: Enrolled, n: number, command: CommandMessage, state: string, result?: unknown) =>
  report(device, n, { kind: 'ack', id: command.id, state, ...(result === undefined ? {} : { result }) });

async function lockAll(count: number) {
  const phones = await Promise.all(Array.from({ length: count }, () => f.phone()));
  const started = await t.post('/api/device/multiple_lock_unlock', { action: 'lock', customer_ids: phones.map((p) => p.customer.id) }, { token: ravi });
  expect(started.statusCode, started.body).toBe(200);
  const commands = await Promise.all(phones.map((p) => p.phone.next()));
  for (const p of phones) await p.phone.close();
  const batchId = started.json().data.id as string;
  // Published and marked sent, so what the reports leave untouched reads 'sent'.
  await expect.poll(async () => (await t.get(`/api/device/multiple_lock_unlock?batch_id=${batchId}`, { token: ravi })).json().data.counts.sent).toBe(count);
  return { phones, commands };
}

describe('phone reports arriving together', () => {
  it('are taken at once with the outcome each would have alone: replays and older numbers refused, another phone\'s command untouched', async () => {
    const { phones, commands } = await lockAll(6);
    const [a, b, c, d, e, g] = phones.map((p) => p.device);
    const before = t.services.devices.channel.groupStats();
    const outcomes = await Promise.all([
      ack(a!, 1, commands[0]!, 'delivered'),
      ack(a!, 2, commands[0]!, 'done'), // delivered and done together: done
      ack(b!, 1, commands[1]!, 'done'),
      ack(b!, 1, commands[1]!, 'done'), // the same number again: a replay
      ack(c!, 5, commands[2]!, 'delivered'),
      ack(c!, 4, commands[2]!, 'done'), // an older number after a newer one
      ack(d!, 1, commands[4]!, 'done'), // names e's command
      ack(e!, 1, commands[4]!, 'failed', { error: 'device_admin_disabled' }),
      ack(g!, 1, commands[5]!, 'done'),
      ack(g!, 2, commands[5]!, 'failed'), // an end state is final
    ]);
    expect(outcomes).toEqual(['taken', 'taken', 'taken', 'ignored', 'taken', 'ignored', 'taken', 'taken', 'taken', 'taken']);
    // They went together: fewer transactions than reports.
    const after = t.services.devices.channel.groupStats();
    expect(after.reports - before.reports).toBeGreaterThan(after.groups - before.groups);
    const states = await Promise.all(phones.map(async (p) => (await f.commands(p.customer.id))[0]));
    expect(states.map((s) => s?.state)).toEqual(['done', 'done', 'delivered', 'sent', 'failed', 'done']);
    expect(states[4]).toMatchObject({ result: { error: 'device_admin_disabled' } });
    const locks = await Promise.all(phones.map(async (p) => (await f.profile(p.customer.id)).lock_status));
    expect(locks).toEqual([1, 1, 0, 0, 0, 1]);
    // The phone's reported state follows a confirmed lock.
    const reported = (await t.db.query<{ locked: boolean | null }>(`SELECT (reported ->> 'locked')::boolean AS locked FROM devices WHERE id = $1`, [a!.device_id])).rows[0];
    expect(reported?.locked).toBe(true);
  });

  it('take the good ones when one of them cannot be stored, and leave the bad one unacknowledged', async () => {
    const { phones, commands } = await lockAll(3);
    const [a, b, c] = phones.map((p) => p.device);
    const settled = await Promise.allSettled([
      ack(a!, 1, commands[0]!, 'done'),
      ack(b!, 1, commands[1]!, 'done', { note: 'bad \u0000 byte' }), // JSON PostgreSQL refuses
      ack(c!, 1, commands[2]!, 'done'),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const locks = await Promise.all(phones.map(async (p) => (await f.profile(p.customer.id)).lock_status));
    expect(locks).toEqual([1, 0, 1]);
    // The refused report's number stays free: the same report without the bad byte is taken when it comes again.
    expect(await ack(b!, 1, commands[1]!, 'done')).toBe('taken');
    expect((await f.profile(phones[1]!.customer.id)).lock_status).toBe(1);
  });

  it('keep a device\'s order around a SIM change, which is taken on its own', async () => {
    const { phones, commands } = await lockAll(1);
    const device = phones[0]!.device;
    const outcomes = await Promise.all([
      ack(device, 1, commands[0]!, 'delivered'),
      report(device, 2, { kind: 'sim_change', old: [{ slot: 0, operator: 'Jio', iccid: '8991000000000000001' }], new: [{ slot: 0, operator: 'Airtel', iccid: '8991000000000000002' }], location: null }),
      ack(device, 3, commands[0]!, 'done'),
    ]);
    expect(outcomes).toEqual(['taken', 'taken', 'taken']);
    expect((await f.commands(phones[0]!.customer.id))[0]).toMatchObject({ state: 'done' });
    const taken = (await t.db.query<{ n: string }>('SELECT last_event_n::text AS n FROM devices WHERE id = $1', [device.device_id])).rows[0];
    expect(taken?.n).toBe('3');
  });
  /** The statements that read device rows while `work` runs. */
  async function deviceReads(work: () => Promise<unknown>): Promise<string[]> {
    const reads: string[] = [];
    const { query } = t.db;
    t.db.query = (<R>(sql: string, params?: unknown[]) => {
      if (/FROM devices WHERE id = (\$1|ANY)/.test(sql) && !/FOR UPDATE|last_event_n::text/.test(sql)) reads.push(sql);
      return query.call(t.db, sql, params) as Promise<{ rows: R[]; rowCount: number | null }>;
    }) as typeof t.db.query;
    try {
      await work();
    } finally {
      t.db.query = query;
    }
    return reads;
  }

  it('from phones the server has not read lately read their devices in one statement; after a bulk command, in none', async () => {
    const fresh = await Promise.all(Array.from({ length: 5 }, () => f.phone()));
    for (const p of fresh) await p.phone.close();
    let outcomes: string[] = [];
    const cold = await deviceReads(async () => {
      outcomes = await Promise.all(fresh.map((p) => report(p.device, 1, { kind: 'offers_opt_out', opted_out: true })));
    });
    expect(outcomes).toEqual(Array(5).fill('taken'));
    expect(cold).toHaveLength(1);
    expect(cold[0]).toMatch(/ANY/);
    const optedOut = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM devices WHERE id = ANY($1::uuid[]) AND offers_opt_out', [fresh.map((p) => p.device.device_id)]);
    expect(optedOut.rows[0]!.n).toBe(5);

    // The bulk lock read its phones to publish to them: their reports find them.
    const { phones, commands } = await lockAll(4);
    const warm = await deviceReads(async () => {
      outcomes = await Promise.all(phones.map((p, i) => ack(p.device, 1, commands[i]!, 'done')));
    });
    expect(outcomes).toEqual(Array(4).fill('taken'));
    expect(warm).toEqual([]);
  });
});
