/**
 * A phone's report is never lost: it is acknowledged only once recorded, a check-in carries the outcomes the
 * phone recorded and its real lock state, and a command left unconfirmed goes out again. Also the embedded
 * broker's limits: packet size, and a replaced phone's open connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { CommandMessage } from '@kisht/protocol/messages';
import { MAX_PACKET_BYTES } from '../src/broker/broker.ts';
import { MAX_BLIND_REPUBLISHES } from '../src/modules/devices/devices.repository.ts';
import type { TestApp } from './harness.ts';
import { startDeviceApp, type deviceFixtures } from './device-fixtures.ts';
import { connectPhone } from './phone.ts';

let t: TestApp;
let ravi: string;
let f: ReturnType<typeof deviceFixtures>;

beforeAll(async () => {
  ({ t, ravi, f } = await startDeviceApp());
});
afterAll(() => t.stop());

/** On Mosquitto (npm run test:services) the phone's PUBACK comes from the broker; the server's own acknowledgement after commit is what the restart drill checks there. */
const embedded = !process.env.TEST_MQTT_URL;

const stateOf = async (commandId: string) => (await t.db.query<{ state: string }>('SELECT state FROM device_commands WHERE id = $1', [commandId])).rows[0]!.state;
const lockStatusOf = async (customerId: number) => (await t.db.query<{ lock_status: number }>('SELECT lock_status FROM customers WHERE id = $1', [customerId])).rows[0]!.lock_status;

describe.skipIf(!embedded)('a report on the embedded broker', () => {
  it('is acknowledged to the phone only after it is recorded', async () => {
    const { customer: c, phone } = await f.phone();
    await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi });
    const lock = await phone.next();
    // The phone's publish resolves on the broker's PUBACK: by then the result is in the database, no waiting.
    await phone.ack(lock, 'delivered');
    expect(await stateOf(lock.id)).toBe('delivered');
    await phone.ack(lock, 'done');
    expect(await stateOf(lock.id)).toBe('done');
    expect(await lockStatusOf(c.id)).toBe(1);
    await phone.close();
  });
});

describe('a check-in', () => {
  it('takes the outcome of a command whose report was lost on the way', async () => {
    const { customer: c, device, phone } = await f.phone();
    await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi });
    const lock = await phone.next();
    await phone.close(); // carried out, but its report never left
    expect(await lockStatusOf(c.id)).toBe(0);
    const ahead = { id: '00000000-0000-4000-8000-000000000001', seq: lock.seq + 1, state: 'done' };
    const reply = await f.checkIn(device, { locked: true, last_seq: lock.seq, recent: [{ id: lock.id, seq: lock.seq, state: 'done' }, ahead] });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(await stateOf(lock.id)).toBe('done');
    expect(await lockStatusOf(c.id)).toBe(1);
    expect(reply.json().data.commands).toEqual([]);
  });

  it('takes a failure whose message spans lines, and refuses an outcome beyond its bounds', async () => {
    const { customer: c, device, phone } = await f.phone();
    await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi });
    const lock = await phone.next();
    await phone.close();
    const failed = { id: lock.id, seq: lock.seq, state: 'failed' };
    const tooMany = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, i]));
    for (const result of [{ error: 'x'.repeat(2001) }, tooMany, { error: 'nul\u0000inside' }, { nested: { deep: true } }]) {
      expect((await f.checkIn(device, { locked: false, last_seq: lock.seq, recent: [{ ...failed, result }] })).statusCode).toBe(400);
    }
    expect(await stateOf(lock.id)).toBe('sent');
    const error = 'SecurityException: not device owner\n\tat DevicePolicyManager.lockNow(DevicePolicyManager.java:42)';
    const reply = await f.checkIn(device, { locked: false, last_seq: lock.seq, recent: [{ ...failed, result: { error, code: 7 } }] });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(await stateOf(lock.id)).toBe('failed');
    expect((await t.db.query('SELECT result FROM device_commands WHERE id = $1', [lock.id])).rows[0]).toEqual({ result: { error, code: 7 } });
  });

  it('that arrives after a lock it predates was confirmed leaves the lock status alone', async () => {
    const { customer: c, device, phone } = await f.phone();
    await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi });
    const lock = await phone.next();
    await phone.ack(lock, 'done');
    await expect.poll(() => lockStatusOf(c.id)).toBe(1);
    // Sent by the phone before it took the lock, delivered late.
    expect((await f.checkIn(device, { locked: false, last_seq: lock.seq - 1 })).statusCode).toBe(200);
    expect(await lockStatusOf(c.id)).toBe(1);
    // A current one still counts.
    expect((await f.checkIn(device, { locked: false, last_seq: lock.seq })).statusCode).toBe(200);
    expect(await lockStatusOf(c.id)).toBe(0);
    await phone.close();
  });

  it("does not touch another phone's command with an outcome it names", async () => {
    const a = await f.phone();
    const b = await f.phone();
    await t.post('/api/device/lock', { customer_id: b.customer.id }, { token: ravi });
    const lock = await b.phone.next();
    await a.phone.close();
    await b.phone.close();
    expect((await f.checkIn(a.device, { locked: false, last_seq: lock.seq, recent: [{ id: lock.id, seq: lock.seq, state: 'done' }] })).statusCode).toBe(200);
    expect(await stateOf(lock.id)).not.toBe('done');
    expect(await lockStatusOf(b.customer.id)).toBe(0);
  });

  it("makes the customer's lock status the phone's own when nothing is on its way; a self-lock does not count", async () => {
    const { customer: c, device, phone } = await f.phone();
    await phone.close();
    await f.checkIn(device, { locked: true, self_locked: true });
    expect(await lockStatusOf(c.id)).toBe(0);
    await f.checkIn(device, { locked: true });
    expect(await lockStatusOf(c.id)).toBe(1);
    // An unlock on its way: the phone's word waits for it.
    await t.post('/api/device/unlock', { customer_id: c.id }, { token: ravi });
    const reply = (await f.checkIn(device, { locked: true })).json().data;
    expect(await lockStatusOf(c.id)).toBe(1);
    expect(reply.desired.locked).toBe(false);
  });
});

describe('a command sent but not confirmed', () => {
  it('goes out again, less often each time, and the repeated answer finishes it', async () => {
    const { customer: c, phone } = await f.phone();
    await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi });
    const lock = await phone.next();
    expect((await t.services.devices.channel.sweep(5, 0)).repeated).toBeGreaterThanOrEqual(1);
    const again = await phone.next();
    expect(again).toMatchObject({ id: lock.id, seq: lock.seq });
    // Published again only after twice the wait now.
    await t.db.query(`UPDATE device_commands SET last_sent_at = now() - interval '1 second' WHERE id = $1`, [lock.id]);
    await t.services.devices.channel.sweep(5, 1);
    await expect(phone.next(500)).rejects.toThrow('no command arrived');
    await phone.ack(again, 'done');
    await expect.poll(() => stateOf(lock.id)).toBe('done');
    expect(await lockStatusOf(c.id)).toBe(1);
    await phone.close();
  });
});

describe('a command a phone that is away never confirms', () => {
  it('goes again a bounded number of times, then only after the phone checked in since', async () => {
    const { customer: c, device, phone } = await f.phone();
    await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi });
    const lock = await phone.next();
    const age = () => t.db.query(`UPDATE device_commands SET last_sent_at = now() - interval '1 day' WHERE id = $1`, [lock.id]);
    await t.db.query(`UPDATE device_commands SET republish_count = $2 WHERE id = $1`, [lock.id, MAX_BLIND_REPUBLISHES - 1]);
    await t.db.query(`UPDATE devices SET last_check_in_at = now() - interval '2 days' WHERE id = $1`, [device.device_id]);
    await age();
    expect((await t.services.devices.channel.sweep(5, 1)).repeated).toBe(1); // the last blind one
    await phone.next();
    await age();
    expect((await t.services.devices.channel.sweep(5, 1)).repeated).toBe(0);
    // The phone checks in without having carried it out (its session lost it): the command goes again.
    expect((await f.checkIn(device, { locked: false, last_seq: lock.seq - 1 })).statusCode).toBe(200);
    expect((await t.services.devices.channel.sweep(5, 1)).repeated).toBe(1);
    expect(await phone.next()).toMatchObject({ id: lock.id });
    await phone.close();
  });
});

describe('a report the server cannot take', () => {
  it('is tried a few times, then let go so the next ones pass; its number stays free for when it comes again', async () => {
    const { customer: c, device, phone } = await f.phone();
    // A SIM change that fails inside its transaction for a reason that is not an outage.
    await t.db.query(`CREATE OR REPLACE FUNCTION refuse_poison_sim() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.new_sims::text LIKE '%Poison%' THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`);
    await t.db.query('CREATE TRIGGER refuse_poison_sim BEFORE INSERT ON sim_changes FOR EACH ROW EXECUTE FUNCTION refuse_poison_sim()');
    const lastEventN = async () => (await t.db.query<{ n: number }>('SELECT last_event_n::int AS n FROM devices WHERE id = $1', [device.device_id])).rows[0]!.n;
    const before = await lastEventN();
    const change = { kind: 'sim_change', old: [{ slot: 0, operator: 'Jio' }], new: [{ slot: 0, operator: 'Poison' }], n: before + 1 } as never;
    try {
      await phone.send(change); // resolves on the PUBACK, after the tries
      expect((await t.db.query('SELECT 1 FROM sim_changes WHERE customer_id = $1', [c.id])).rowCount).toBe(0);
      expect(await lastEventN()).toBe(before);
    } finally {
      await t.db.query('DROP TRIGGER refuse_poison_sim ON sim_changes');
    }
    // The failed change did not take its number: sent again with it, it is recorded.
    await phone.send(change);
    await expect.poll(async () => (await t.db.query('SELECT 1 FROM sim_changes WHERE customer_id = $1', [c.id])).rowCount).toBe(1);
    expect(await lastEventN()).toBe(before + 1);
    // And the phone's next reports pass.
    await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi });
    const lock = await phone.next();
    await phone.send({ kind: 'ack', id: lock.id, state: 'done', n: before + 2 } as never);
    await expect.poll(() => stateOf(lock.id)).toBe('done');
    await phone.close();
  });
});

describe.skipIf(!embedded)('the embedded broker', () => {
  it('closes a connection that sends a packet above the size limit', async () => {
    const { customer: c, device, phone } = await f.phone();
    const closed = new Promise<void>((resolve) => phone.client.once('close', () => resolve()));
    phone.client.publish(device.mqtt.event_topic, Buffer.alloc(MAX_PACKET_BYTES + 1024, 0x61), { qos: 0 });
    await closed;
    await phone.close();
    // The server is unharmed and the phone comes back with normal reports.
    const back = await connectPhone(t.broker.status().url, device);
    await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi });
    const lock: CommandMessage = await back.next();
    await back.ack(lock, 'done');
    expect(await lockStatusOf(c.id)).toBe(1);
    await back.close();
  });

  it('acknowledges the report that releases a phone before it closes the connection', async () => {
    const { customer: c, phone } = await f.phone();
    await t.db.query('UPDATE emi_instalments SET paid_paise = amount_paise + penalty_paise WHERE customer_id = $1', [c.id]);
    expect((await t.post('/api/device/unclaim', { customer_id: c.id }, { token: ravi })).statusCode).toBe(200);
    const unclaim = await phone.next();
    const closed = new Promise<void>((resolve) => phone.client.once('close', () => resolve()));
    // Resolves on the PUBACK; a connection closed first would leave the phone to send it again forever.
    await phone.ack(unclaim, 'done');
    expect(phone.client.connected).toBe(true);
    expect(await stateOf(unclaim.id)).toBe('done');
    await closed;
    await phone.close();
  });

  it("closes a replaced phone's open connection, and lets it in no more", async () => {
    const { customer: c, device, phone } = await f.phone();
    const closed = new Promise<void>((resolve) => phone.client.once('close', () => resolve()));
    const again = await f.enrolDevice({ token: await f.qrToken(c.id), imei1: c.imei1 });
    expect(again.statusCode, again.body).toBe(200);
    await closed;
    await phone.close();
    await expect(mqtt.connectAsync(t.broker.status().url.replace('0.0.0.0', '127.0.0.1'), {
      clientId: device.mqtt.username, username: device.mqtt.username, password: device.mqtt.password, reconnectPeriod: 0, connectTimeout: 3000,
    })).rejects.toThrow();
  });
});
