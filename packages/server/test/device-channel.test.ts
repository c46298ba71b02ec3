/** The channel's guarantees: check-in, offline codes and log, forged and replayed messages, crashes and restarts. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { acceptOfflineCode, HOTP_LOOK_AHEAD, initialCodeState } from '@kisht/protocol/offline-codes';
import { unseal } from '@kisht/protocol/signing';
import type { CommandMessage } from '@kisht/protocol/messages';
import { buildApp } from '../src/app.ts';
import { RAVI, MEENA, type TestApp } from './harness.ts';
import { startDeviceApp, type deviceFixtures } from './device-fixtures.ts';
import { connectPhone } from './phone.ts';

let t: TestApp;
let ravi: string;
let f: ReturnType<typeof deviceFixtures>;

beforeAll(async () => {
  ({ t, ravi, f } = await startDeviceApp());
});
afterAll(() => t.stop());

describe('check-in', () => {
  it('takes only the device\'s own credentials', async () => {
    const { device, phone } = await f.phone();
    await phone.close();
    expect((await f.checkIn(device, {})).statusCode).toBe(200);
    expect((await f.checkIn(device, {}, 'wrong')).statusCode).toBe(401);
    expect((await t.post('/api/device/check-in', { v: 1, locked: false, last_seq: 0 }, { emm: false, token: ravi })).statusCode).toBe(401);
    const other = await f.phone();
    await other.phone.close();
    // One device's username with another's password.
    expect((await f.checkIn(device, {}, other.device.mqtt.password)).statusCode).toBe(401);
  });

  it('answers with the open commands in order, sealed, and the desired state', async () => {
    const { customer: c, device, phone } = await f.phone();
    await phone.close();
    await t.post('/api/device/camera_lock', { customer_id: c.id, on: true }, { token: ravi });
    await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi });
    const reply = (await f.checkIn(device, { battery: 64, app_version: '1.0.0' })).json().data;
    const opened = (reply.commands as string[]).map((s) => unseal<CommandMessage>(device.offline_secret, s)!);
    expect(opened.map((o) => o.type)).toEqual(['camera_lock', 'lock']);
    expect(opened[0]!.seq).toBeLessThan(opened[1]!.seq);
    expect(reply.desired.locked).toBe(true);
    expect(reply.desired.lock_screen).toMatchObject({ retailer_mobile: RAVI });
    expect(reply.offline_lock_days).toBeGreaterThan(0);
    // Above last_seq only.
    const later = (await f.checkIn(device, { last_seq: opened[0]!.seq })).json().data;
    expect(later.commands).toHaveLength(1);
    const panel = (await t.get(`/api/device/details?customer_id=${c.id}`, { token: ravi })).json().data;
    expect(panel.device.reported).toMatchObject({ battery: 64, app_version: '1.0.0' });
    expect(panel.device.last_check_in_at).not.toBeNull();
  });
});

describe('order', () => {
  it('a command left unpublished goes out before a later one, so the phone sees them in order', async () => {
    const { customer: c, device, phone } = await f.phone();
    const early = await writeWithoutPublishing(device.device_id);
    const later = await t.post('/api/device/camera_lock', { customer_id: c.id, on: true }, { token: ravi });
    const first = await phone.next();
    const second = await phone.next();
    expect([first.id, second.id]).toEqual([early.id, later.json().data.id]);
    expect(first.seq).toBeLessThan(second.seq);
    await phone.close();
  });
});

describe('check-in racing a report', () => {
  it('keeps a lock the phone has carried out while its report is still on the way', async () => {
    const { customer: c, device, phone } = await f.phone();
    await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi });
    const lock = await phone.next();
    await phone.ack(lock, 'delivered');
    await expect.poll(async () => (await f.commands(c.id))[0]!.state).toBe('delivered');
    // The phone has locked (seq taken) but its "done" has not reached the server yet.
    const reply = (await f.checkIn(device, { locked: true, last_seq: lock.seq })).json().data;
    expect(reply.commands).toEqual([]);
    expect(reply.desired.locked).toBe(true);
    expect((await f.profile(c.id)).lock_status).toBe(0);
    await phone.close();
  });
});

describe('offline codes', () => {
  it('issues unlock and lock codes the phone verifies alone, each once', async () => {
    const { customer: c, device, phone } = await f.phone();
    await phone.close();
    const unlock = (await t.post('/api/auth/offline_lock_unlock', { customer_id: c.id, action: 'unlock' }, { token: ravi })).json().data;
    const unlock2 = (await t.post('/api/auth/offline_lock_unlock', { customer_id: c.id, action: 'unlock' }, { token: ravi })).json().data;
    expect(unlock.code).toMatch(/^[0-9]{8}$/);
    expect(unlock2.code).not.toBe(unlock.code);
    const first = acceptOfflineCode(device.offline_secret, unlock.code, initialCodeState(), Date.now());
    expect(first).toMatchObject({ purpose: 'unlock', counter: 1 });
    expect(acceptOfflineCode(device.offline_secret, unlock.code, first!.state, Date.now())).toBeNull();
    const lock = (await t.post('/api/auth/offline_lock_unlock', { customer_id: c.id, action: 'lock' }, { token: ravi })).json().data;
    expect(acceptOfflineCode(device.offline_secret, lock.code, initialCodeState(), Date.now())?.purpose).toBe('lock');
    const ouc = (await t.get(`/api/customer/ouc-code?customer_id=${c.id}`, { token: ravi })).json().data;
    expect(acceptOfflineCode(device.offline_secret, ouc.code, initialCodeState(), Date.now())?.purpose).toBe('ouc');
    expect(Date.parse(ouc.valid_until)).toBeGreaterThan(Date.now());
  });

  it('gives a bypass code only after the customer\'s BYPASS_CODE OTP', async () => {
    const { customer: c, device, phone } = await f.phone({ mobile: '+919812300222' });
    await phone.close();
    const otp = (await t.post('/api/auth/send-otp-to-user', { purpose: 'BYPASS_CODE', mobile: c.mobile }, { token: ravi })).json().data;
    expect((await t.post('/api/device/bypass_code', { customer_id: c.id, request_id: otp.request_id, otp: '000000' }, { token: ravi })).json().code).toBe('OTP_INVALID');
    const res = await t.post('/api/device/bypass_code', { customer_id: c.id, request_id: otp.request_id, otp: await t.latestOtp(c.mobile) }, { token: ravi });
    expect(res.statusCode, res.body).toBe(200);
    expect(acceptOfflineCode(device.offline_secret, res.json().data.code, initialCodeState(), Date.now())?.purpose).toBe('bypass');
  });

  it('stops issuing codes the phone could not recognise, until it reports using one', async () => {
    const { customer: c, device, phone } = await f.phone();
    await phone.close();
    const issue = async () => (await t.post('/api/auth/offline_lock_unlock', { customer_id: c.id, action: 'unlock' }, { token: ravi })).json().data.code as string;
    const codes: string[] = [];
    for (let i = 0; i < HOTP_LOOK_AHEAD + 3; i++) codes.push(await issue());
    // Past the phone's look-ahead the newest recognisable code comes again.
    expect(codes.slice(HOTP_LOOK_AHEAD)).toEqual([codes[HOTP_LOOK_AHEAD - 1], codes[HOTP_LOOK_AHEAD - 1], codes[HOTP_LOOK_AHEAD - 1]]);
    expect(acceptOfflineCode(device.offline_secret, codes.at(-1)!, initialCodeState(), Date.now())).toMatchObject({ counter: HOTP_LOOK_AHEAD });
    // Once the phone reports taking code 5, the window moves on.
    await f.checkIn(device, { log: [{ n: 1, at: new Date().toISOString(), kind: 'code_unlock', ref: 5 }] });
    const next = await issue();
    expect(acceptOfflineCode(device.offline_secret, next, { ...initialCodeState(), used: { unlock: 5, lock: 0, bypass: 0 } }, Date.now())).toMatchObject({ counter: HOTP_LOOK_AHEAD + 1 });
  });

  it('a code used before a newer confirmed lock does not undo it', async () => {
    const { customer: c, device, phone } = await f.phone();
    const usedAt = new Date(Date.now() - 60_000).toISOString();
    await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi });
    await phone.ack(await phone.next(), 'done');
    await expect.poll(async () => (await f.profile(c.id)).lock_status).toBe(1);
    await f.checkIn(device, { locked: true, log: [{ n: 1, at: usedAt, kind: 'code_unlock', ref: 1 }] });
    expect((await f.profile(c.id)).lock_status).toBe(1);
    await phone.close();
  });

  it('takes the offline log once: an unlock code used offline makes the customer Unlocked', async () => {
    const { customer: c, device, phone } = await f.phone();
    await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi });
    const lock = await phone.next();
    await phone.ack(lock, 'done');
    await expect.poll(async () => (await f.profile(c.id)).lock_status).toBe(1);
    await phone.close();
    const log = [
      { n: 1, at: new Date(Date.now() - 60_000).toISOString(), kind: 'code_rejected' },
      { n: 2, at: new Date().toISOString(), kind: 'code_unlock', ref: 1 },
    ];
    expect((await f.checkIn(device, { locked: false, last_seq: lock.seq, log })).statusCode).toBe(200);
    expect((await f.profile(c.id)).lock_status).toBe(0);
    // A replay of the same log adds nothing; an older lock entry replayed cannot lock again.
    const again = await t.post('/api/device/offline_command_log', { log: [...log, { n: 1, at: new Date().toISOString(), kind: 'code_lock' }] }, { emm: false, headers: { authorization: f.basic(device) } });
    expect(again.json().data.taken).toBe(0);
    expect((await f.profile(c.id)).lock_status).toBe(0);
    const read = (await t.get(`/api/device/offline_command_log?customer_id=${c.id}`, { token: ravi })).json().data;
    expect(read.map((r: { kind: string }) => r.kind)).toEqual(['code_unlock', 'code_rejected']);
  });
});

describe('forged, replayed and reordered messages', () => {
  it('are ignored', async () => {
    const { customer: c, device, phone } = await f.phone();
    await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi });
    const lock = await phone.next();
    // Signed with another secret: ignored.
    await phone.send({ kind: 'ack', id: lock.id, state: 'done', n: 50 } as never, randomBytes(32).toString('base64url'));
    // Properly signed: taken.
    await phone.send({ kind: 'ack', id: lock.id, state: 'delivered', n: 10 } as never);
    await expect.poll(async () => (await f.commands(c.id))[0]!.state).toBe('delivered');
    // An older number (reordered or replayed) is ignored even when well signed.
    await phone.send({ kind: 'ack', id: lock.id, state: 'done', n: 9 } as never);
    await phone.send({ kind: 'ack', id: lock.id, state: 'done', n: 10 } as never);
    await new Promise((r) => setTimeout(r, 200));
    expect((await f.commands(c.id))[0]!.state).toBe('delivered');
    expect((await f.profile(c.id)).lock_status).toBe(0);
    // Through the service directly: the verdicts.
    expect(await t.services.devices.onDeviceEvent(`kisht/v1/d/${device.device_id}/evt`, 'not json')).toBe('ignored');
    await phone.send({ kind: 'ack', id: lock.id, state: 'done', n: 11 } as never);
    await expect.poll(async () => (await f.profile(c.id)).lock_status).toBe(1);
    await phone.close();
  });

  it("one phone's event cannot touch another phone's command", async () => {
    const a = await f.phone();
    const b = await f.phone();
    await t.post('/api/device/lock', { customer_id: b.customer.id }, { token: ravi });
    const bLock = await b.phone.next();
    // A reports done for B's command on its own topic: the command id does not belong to A.
    await a.phone.send({ kind: 'ack', id: bLock.id, state: 'done' } as never);
    await new Promise((r) => setTimeout(r, 200));
    expect((await f.commands(b.customer.id))[0]!.state).toBe('sent');
    await a.phone.close();
    await b.phone.close();
  });
});

/** Writes a lock the way the service does and stops there, as a server dying between commit and publish would. */
async function writeWithoutPublishing(deviceId: string) {
  const device = (await t.db.query('SELECT * FROM devices WHERE id = $1', [deviceId])).rows[0] as never;
  return (await t.db.transaction((tx) => t.services.devices.channel.write({ device, type: 'lock', payload: {}, createdBy: 1, origin: 'retailer' }, tx))).row;
}

describe('a crash between commit and publish', () => {
  it('still delivers the command, once', async () => {
    const { customer: c, device, phone } = await f.phone();
    const before = phone.received.length;
    // Write the command the way the service does, then "die" before publishing.
    const row = await writeWithoutPublishing(device.device_id);
    await t.db.query(`UPDATE device_commands SET created_at = now() - interval '1 minute' WHERE id = $1`, [row.id]);
    expect((await f.commands(c.id))[0]).toMatchObject({ id: row.id, state: 'queued' });
    // The sweeper finds it and publishes it; a second sweep does not publish it again.
    expect(await t.services.devices.channel.sweep()).toMatchObject({ republished: 1 });
    expect(await t.services.devices.channel.sweep()).toMatchObject({ republished: 0 });
    const arrived = await phone.next();
    expect(arrived.id).toBe(row.id);
    await new Promise((r) => setTimeout(r, 200));
    expect(phone.received.slice(before).filter((m) => m.id === row.id)).toHaveLength(1);
    await phone.close();
  });

  it('a server started again on the same database sends what the first left queued', async () => {
    const { customer: c, device, phone } = await f.phone();
    await phone.close();
    await writeWithoutPublishing(device.device_id);
    await t.db.query(`UPDATE device_commands SET created_at = now() - interval '1 minute' WHERE customer_id = $1`, [c.id]);
    // A second server (its own embedded broker) on the same database, as after a restart.
    const second = await buildApp(t.config, { db: t.db, secret: t.secret });
    try {
      const again = await connectPhone(second.broker.status().url, device);
      await second.services.deviceWork();
      const command = await again.next(10_000);
      expect(command).toMatchObject({ type: 'lock' });
      await again.close();
    } finally {
      await second.app.close();
      await second.broker.close();
    }
  });
});

describe('a phone enrolled again', () => {
  it("replaces the earlier one: its credentials stop working and its open commands end", async () => {
    const { customer: c, device, phone } = await f.phone();
    await phone.close();
    await t.post('/api/device/camera_lock', { customer_id: c.id, on: true }, { token: ravi });
    const again = await f.enrolDevice({ token: await f.qrToken(c.id), imei1: c.imei1 });
    expect(again.statusCode, again.body).toBe(200);
    expect((await f.commands(c.id))[0]).toMatchObject({ type: 'camera_lock', state: 'expired' });
    expect((await f.checkIn(device, {})).statusCode).toBe(401);
    expect((await f.checkIn(again.json().data, {})).statusCode).toBe(200);
  });
});

describe('expiry', () => {
  it('marks old commands expired and stops offering them at check-in', async () => {
    const { customer: c, device, phone } = await f.phone();
    await phone.close();
    await t.post('/api/device/reboot', { customer_id: c.id }, { token: ravi });
    await t.db.query(`UPDATE device_commands SET expires_at = now() - interval '1 second' WHERE customer_id = $1`, [c.id]);
    expect((await t.services.devices.channel.sweep()).expired).toBeGreaterThanOrEqual(1);
    expect((await f.commands(c.id))[0]).toMatchObject({ state: 'expired' });
    expect((await f.checkIn(device, {})).json().data.commands).toEqual([]);
  });
});

describe('SIM changes', () => {
  it('are recorded for the SIM changes screen and, when the organisation wants, lock the phone', async () => {
    const { customer: c, phone } = await f.phone();
    const location = { latitude: 28.61, longitude: 77.2, accuracy: 30, at: new Date().toISOString() };
    await phone.send({ kind: 'sim_change', old: [{ slot: 0, operator: 'Jio', iccid: '8991000000000000001' }], new: [{ slot: 0, operator: 'Vi', iccid: '8991000000000000777' }], location } as never);
    await expect.poll(async () => (await t.get(`/api/customer/customer_sim_change_details?customer_id=${c.id}`, { token: ravi })).json().data.total).toBe(1);
    const list = (await t.get('/api/customer/customer_sim_change_details', { token: ravi })).json().data;
    expect(list.items.find((i: { customer_id: number }) => i.customer_id === c.id)).toMatchObject({ new_sims: [{ operator: 'Vi' }], old_sims: [{ operator: 'Jio' }], location });
    const meena = (await t.signIn(MEENA)).token;
    expect((await t.get('/api/customer/customer_sim_change_details', { token: meena })).json().data.items.some((i: { customer_id: number }) => i.customer_id === c.id)).toBe(false);
    expect((await f.commands(c.id))).toHaveLength(0);

    const org = (await t.db.query<{ org_id: number }>('SELECT org_id FROM customers WHERE id = $1', [c.id])).rows[0]!.org_id;
    await t.db.query('UPDATE organizations SET lock_on_sim_change = true WHERE id = $1', [org]);
    await phone.send({ kind: 'sim_change', old: [{ slot: 0, operator: 'Vi' }], new: [{ slot: 0, operator: 'Airtel' }] } as never);
    const lock = await phone.next();
    expect(lock).toMatchObject({ type: 'lock' });
    expect((await f.commands(c.id))[0]).toMatchObject({ origin: 'sim_change' });
    await t.db.query('UPDATE organizations SET lock_on_sim_change = false WHERE id = $1', [org]);
    await phone.close();
  });
});
