/** The agent against the real server: enrolment from the QR, commands over MQTT, replays and forgeries. */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seal } from '@kisht/protocol/signing';
import { formatRupees } from '@kisht/domain/money';
import { DeviceAgent, type CommandReport } from '../src/agent.ts';
import { JsonFileStore, MemoryStore } from '../src/store.ts';
import { action, addCustomer, commandsOf, enrolledPhone, lockStatus, qrPayload, startLiveServer, type LiveServer } from './support.ts';

let live: LiveServer;
const agents: DeviceAgent[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  live = await startLiveServer();
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await live.stop();
});

async function phone() {
  const p = await enrolledPhone(live);
  agents.push(p.agent);
  return p;
}

/** Collects the agent's command reports. */
function reports(agent: DeviceAgent): CommandReport[] {
  const list: CommandReport[] = [];
  agent.on('command', (r) => list.push(r));
  return list;
}

describe('enrolment and lock', () => {
  it('enrols from the QR the server gives, then locks and unlocks; the server shows Locked only after the ack', async () => {
    const { customer, agent } = await phone();
    const state = agent.snapshot();
    expect(state.status).toBe('enrolled');
    expect(state.credentials!.commandTopic).toBe(`kisht/v1/d/${state.credentials!.deviceId}/cmd`);
    expect(state.lastCheckIn).not.toBeNull();
    const panel = (await live.t.get(`/api/country/getCustomerProfile?customer_id=${customer.id}`, { token: live.ravi })).json().data;
    expect(panel.install_status).toBe(1);

    const lock = await action(live, '/api/device/lock', { customer_id: customer.id });
    await expect.poll(() => agent.snapshot().screen.locked).toBe(true);
    const screen = agent.snapshot().screen;
    expect(screen.lockScreen).toMatchObject({ retailer_name: expect.any(String), retailer_mobile: expect.any(String) });
    expect(formatRupees(screen.lockScreen!.amount_due)).toMatch(/^₹/);
    await expect.poll(() => lockStatus(live, customer.id)).toBe(1);
    const history = await commandsOf(live, customer.id);
    expect(history.find((c) => c.id === lock.id)).toMatchObject({ state: 'done' });

    await action(live, '/api/device/unlock', { customer_id: customer.id });
    await expect.poll(() => agent.snapshot().screen.locked).toBe(false);
    await expect.poll(() => lockStatus(live, customer.id)).toBe(0);
  });

  it('carries out toggles, wallpaper, EMI alert and reports location and SIMs with done', async () => {
    const { customer, agent } = await phone();
    agent.setLocation(26.9124, 75.7873);
    await action(live, '/api/device/camera_lock', { customer_id: customer.id, on: true });
    await expect.poll(() => agent.snapshot().screen.toggles.camera_lock).toBe(true);
    await action(live, '/api/device/wallpaper', { customer_id: customer.id, text: 'Pay by the 5th', policy: 'wallpaper' });
    await expect.poll(() => agent.snapshot().screen.wallpaper).toEqual({ text: 'Pay by the 5th', policy: 'wallpaper' });
    await action(live, '/api/device/emi_alert', { customer_id: customer.id, message: 'Your EMI is due' });
    await expect.poll(() => agent.snapshot().screen.emiAlert?.message).toBe('Your EMI is due');
    agent.dismissAlert();
    expect(agent.snapshot().screen.emiAlert).toBeNull();

    const located = await action(live, '/api/device/fetch_location', { customer_id: customer.id });
    await expect.poll(async () => (await commandsOf(live, customer.id)).find((c) => c.id === located.id)?.state).toBe('done');
    const result = (await commandsOf(live, customer.id)).find((c) => c.id === located.id)!.result as { location: { latitude: number; longitude: number } };
    expect(result.location).toMatchObject({ latitude: 26.9124, longitude: 75.7873 });

    const simInfo = await action(live, '/api/device/sim_info', { customer_id: customer.id });
    await expect.poll(async () => (await commandsOf(live, customer.id)).find((c) => c.id === simInfo.id)?.result).toMatchObject({ sims: [{ slot: 1, operator: 'Jio', iccid: '8991000000000000011' }] });
  });
});

describe('commands the phone must not take', () => {
  it('takes a replayed command once, and ignores a forged one and an older seq', async () => {
    const { customer, agent } = await phone();
    const secret = agent.snapshot().credentials!.offlineSecret;
    const topic = agent.snapshot().credentials!.commandTopic;
    const seen = reports(agent);
    const captured: string[] = [];
    await live.t.broker.client.subscribeAsync(topic, { qos: 1 });
    live.t.broker.client.on('message', (t, payload) => {
      if (t === topic) captured.push(payload.toString());
    });

    const lock = await action(live, '/api/device/lock', { customer_id: customer.id });
    await expect.poll(() => seen.filter((r) => r.outcome === 'done').length).toBe(1);
    await expect.poll(() => captured.length).toBeGreaterThan(0);
    await live.t.broker.client.unsubscribeAsync(topic);

    // The same sealed text again, from the server's own broker client: not carried out again, its outcome reported again.
    const eventsBefore = agent.snapshot().lastEventN;
    await live.t.broker.client.publishAsync(topic, captured[0]!, { qos: 1 });
    await expect.poll(() => seen.filter((r) => r.outcome === 'repeated' && r.id === lock.id).length).toBe(1);
    expect(agent.snapshot().lastEventN).toBe(eventsBefore + 1);
    expect(seen.filter((r) => r.outcome === 'done').length).toBe(1);
    expect(agent.stats.commandsDone).toBe(1);

    const lastSeq = agent.snapshot().lastSeq;
    const unlock = (seq: number) => ({ v: 1, id: randomUUID(), seq, type: 'unlock', payload: {}, issued_at: new Date().toISOString(), expires_at: new Date(Date.now() + 60_000).toISOString() });
    // Signed with another secret: a forgery, even with a fresh seq.
    await live.t.broker.client.publishAsync(topic, seal(randomBytes(32).toString('base64url'), unlock(lastSeq + 1)), { qos: 1 });
    await expect.poll(() => seen.filter((r) => r.outcome === 'forged').length).toBe(1);
    // Properly signed but not above the last seq taken.
    const older = unlock(lastSeq);
    await live.t.broker.client.publishAsync(topic, seal(secret, older), { qos: 1 });
    await expect.poll(() => seen.some((r) => r.outcome === 'old' && r.id === older.id)).toBe(true);
    // Properly signed, fresh seq, but expired.
    const expired = { ...unlock(lastSeq + 1), expires_at: new Date(Date.now() - 1000).toISOString() };
    await live.t.broker.client.publishAsync(topic, seal(secret, expired), { qos: 1 });
    await expect.poll(() => seen.some((r) => r.outcome === 'expired' && r.id === expired.id)).toBe(true);

    expect(agent.snapshot().screen.locked).toBe(true);
    expect(agent.snapshot().lastSeq).toBe(lastSeq);
    expect(await lockStatus(live, customer.id)).toBe(1);
  });
});

describe('away from the network', () => {
  it('gets a lock sent while it was offline as soon as it is back', async () => {
    const { customer, agent } = await phone();
    await agent.goOffline();
    expect(agent.isConnected).toBe(false);
    const lock = await action(live, '/api/device/lock', { customer_id: customer.id });
    expect(['queued', 'sent']).toContain(lock.state);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(agent.snapshot().screen.locked).toBe(false);
    expect(await lockStatus(live, customer.id)).toBe(0);

    agent.goOnline();
    await expect.poll(() => agent.snapshot().screen.locked).toBe(true);
    await expect.poll(() => lockStatus(live, customer.id)).toBe(1);
    // Whether it came through the broker's session or the check-in, it was carried out once.
    await agent.idle();
    expect(agent.stats.commandsDone).toBe(1);
  });

  it('keeps its state and event numbers through a reboot command and a new process', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kisht-agent-'));
    dirs.push(dir);
    const file = path.join(dir, 'phone.json');
    const customer = await addCustomer(live);
    const first = new DeviceAgent({ store: new JsonFileStore(file), tickMs: 200 });
    await first.enrolFromQr(await qrPayload(live, customer.id), { imei1: customer.imei1 }, [{ slot: 1, operator: 'Jio', iccid: '8991000000000000021' }]);
    first.start();
    await expect.poll(() => first.isConnected).toBe(true);

    const connects = first.stats.connects;
    await action(live, '/api/device/reboot', { customer_id: customer.id });
    await expect.poll(() => first.stats.connects).toBeGreaterThan(connects);
    expect(first.snapshot().lastSeq).toBe(1);
    await action(live, '/api/device/lock', { customer_id: customer.id });
    await expect.poll(() => lockStatus(live, customer.id)).toBe(1);
    const before = first.snapshot();
    expect(before.lastSeq).toBe(2);
    await first.stop();

    // A new agent on the same file: same phone, same numbers; its next event is taken by the server.
    const second = new DeviceAgent({ store: new JsonFileStore(file), tickMs: 200 });
    agents.push(second);
    expect(second.snapshot()).toMatchObject({ lastSeq: 2, lastEventN: before.lastEventN, screen: { locked: true } });
    second.start();
    await expect.poll(() => second.isConnected).toBe(true);
    second.swapSim(1, 'Airtel', '8991000000000000022');
    await expect.poll(async () => (await live.t.get(`/api/customer/customer_sim_change_details?customer_id=${customer.id}`, { token: live.ravi })).json().data.total).toBe(1);
    expect(second.snapshot().lastEventN).toBe(before.lastEventN + 1);
  });
});

describe('what the phone stores', () => {
  it('writes a command\'s changes once, and every event before it leaves, so a power cut never reuses an event number', async () => {
    const customer = await addCustomer(live);
    // The store as a phone's flash: what was written is all that survives the power going.
    const flash = new MemoryStore();
    let writes = 0;
    const store = { load: () => flash.load(), save: (state: Parameters<MemoryStore['save']>[0]) => { writes += 1; flash.save(state); } };
    const first = new DeviceAgent({ store, tickMs: 200 });
    await first.enrolFromQr(await qrPayload(live, customer.id), { imei1: customer.imei1 }, [{ slot: 1, operator: 'Jio', iccid: '8991000000000000031' }]);
    first.start();
    await expect.poll(() => first.isConnected).toBe(true);
    await first.idle();
    await expect.poll(() => first.snapshot().outbox.length).toBe(0);

    const before = writes;
    await action(live, '/api/device/lock', { customer_id: customer.id });
    await expect.poll(() => lockStatus(live, customer.id)).toBe(1);
    await expect.poll(() => first.snapshot().outbox.length).toBe(0);
    // Delivered, locked, done and two events sent: one write, before the first event left. (Each change was a write of
    // its own once: five; then one before the first event left and one for the rest: two.)
    expect(writes - before).toBe(1);
    expect(flash.load()).toMatchObject({ lastSeq: 1, screen: { locked: true } });

    // The power goes: no stop, no last write. The phone starts again from its flash.
    await first.goOffline();
    agents.push(first);
    const stored = flash.load()!;
    expect(stored.lastEventN).toBe(first.snapshot().lastEventN);
    // Events the broker took and the flash still lists are sent again, and the server drops them; the next one counts.
    const again = new DeviceAgent({ store: { load: () => stored, save: (state) => flash.save(state) }, tickMs: 200 });
    agents.push(again);
    again.start();
    await expect.poll(() => again.isConnected).toBe(true);
    again.swapSim(1, 'Airtel', '8991000000000000033');
    await expect.poll(async () => (await live.t.get(`/api/customer/customer_sim_change_details?customer_id=${customer.id}`, { token: live.ravi })).json().data.total).toBe(1);
  });
});

describe('a store that cannot be written', () => {
  it('holds an event back until it is stored, and stores and sends it once the store takes writes again', async () => {
    const customer = await addCustomer(live);
    const flash = new MemoryStore();
    let full = false;
    const store = { load: () => flash.load(), save: (state: Parameters<MemoryStore['save']>[0]) => { if (full) throw new Error('no space left on device'); flash.save(state); } };
    const agent = new DeviceAgent({ store, tickMs: 200 });
    agents.push(agent);
    await agent.enrolFromQr(await qrPayload(live, customer.id), { imei1: customer.imei1 }, [{ slot: 1, operator: 'Jio', iccid: '8991000000000000041' }]);
    agent.start();
    await expect.poll(() => agent.isConnected).toBe(true);
    await agent.idle();
    const changes = async () => (await live.t.get(`/api/customer/customer_sim_change_details?customer_id=${customer.id}`, { token: live.ravi })).json().data.total as number;

    full = true;
    const held = new Promise<string>((resolve) => agent.on('note', (text) => { if (text.startsWith('event not sent yet')) resolve(text); }));
    agent.swapSim(1, 'Airtel', '8991000000000000042');
    expect(await held).toContain('no space left on device');
    expect(agent.snapshot().outbox).toHaveLength(1);
    expect(await changes()).toBe(0);

    // Space again: the write that failed is made at the next chance (here, switching off), and the event then goes.
    full = false;
    await agent.stop();
    expect(flash.load()!.lastEventN).toBe(agent.snapshot().lastEventN);
    agent.start();
    await expect.poll(changes).toBe(1);
  });
});

describe('SIM changes', () => {
  it('reports a swapped SIM with the old and new cards and the location', async () => {
    const { customer, agent } = await phone();
    agent.setLocation(19.076, 72.8777);
    agent.swapSim(1, 'Airtel', '8991000000000000099');
    const url = `/api/customer/customer_sim_change_details?customer_id=${customer.id}`;
    await expect.poll(async () => (await live.t.get(url, { token: live.ravi })).json().data.total).toBe(1);
    const change = (await live.t.get(url, { token: live.ravi })).json().data.items[0];
    expect(change.old_sims).toEqual([{ slot: 1, operator: 'Jio', iccid: '8991000000000000011' }]);
    expect(change.new_sims).toEqual([{ slot: 1, operator: 'Airtel', iccid: '8991000000000000099' }]);
    expect(change.location).toMatchObject({ latitude: 19.076, longitude: 72.8777 });
  });
});

describe('a check-in spread after connecting', () => {
  it('leaves commands that follow on to MQTT, and checks in at once for one after a gap', async () => {
    const customer = await addCustomer(live);
    const agent = new DeviceAgent({ store: new MemoryStore(), tickMs: 200, connectCheckInSpreadMs: 600_000 });
    agents.push(agent);
    await agent.enrolFromQr(await qrPayload(live, customer.id), { imei1: customer.imei1, serial: 'R58N000002' }, [{ slot: 1, operator: 'Jio', iccid: '8991000000000000012' }]);
    let checkIns = 0;
    agent.on('check-in', () => checkIns++);
    agent.start();
    await expect.poll(() => agent.isConnected).toBe(true);

    // The next command in order is carried out as it comes; the check-in stays ahead (up to ten minutes away).
    await action(live, '/api/device/lock', { customer_id: customer.id });
    await expect.poll(() => agent.snapshot().screen.locked).toBe(true);
    await expect.poll(() => lockStatus(live, customer.id)).toBe(1);
    expect(checkIns).toBe(0);

    // A command past a gap: the check-in goes first, then the command is carried out.
    const { credentials, lastSeq } = agent.snapshot();
    const unlock = { v: 1, id: randomUUID(), seq: lastSeq + 2, type: 'unlock', payload: {}, issued_at: new Date().toISOString(), expires_at: new Date(Date.now() + 60_000).toISOString() };
    await live.t.broker.client.publishAsync(credentials!.commandTopic, seal(credentials!.offlineSecret, unlock), { qos: 1 });
    await expect.poll(() => agent.snapshot().screen.locked).toBe(false);
    expect(checkIns).toBe(1);
  });
});
