/** Offline codes, the offline log and the self-lock, against the real server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_ATTEMPTS } from '@kisht/protocol/offline-codes';
import type { DeviceAgent } from '../src/agent.ts';
import { action, enrolledPhone, lockStatus, startLiveServer, type LiveServer } from './support.ts';

let live: LiveServer;
const agents: DeviceAgent[] = [];

beforeAll(async () => {
  live = await startLiveServer();
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  await live.stop();
});

async function phone(now?: () => number) {
  const p = await enrolledPhone(live, now ? { now } : {});
  agents.push(p.agent);
  return p;
}

async function offlineCode(customerId: number, purpose: 'lock' | 'unlock'): Promise<string> {
  const res = await live.t.post('/api/auth/offline_lock_unlock', { customer_id: customerId, action: purpose }, { token: live.ravi });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.code as string;
}

async function serverLog(customerId: number) {
  const res = await live.t.get(`/api/device/offline_command_log?customer_id=${customerId}`, { token: live.ravi });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Array<{ n: number; kind: string; ref: string | null }>;
}

describe('offline codes', () => {
  it('unlock a locked phone with no network; the log reaches the server on the next check-in', async () => {
    const { customer, agent } = await phone();
    await action(live, '/api/device/lock', { customer_id: customer.id });
    await expect.poll(() => lockStatus(live, customer.id)).toBe(1);
    await agent.goOffline();

    const wrong = agent.enterCode('00000000');
    expect(wrong).toEqual({ ok: false, reason: 'wrong', attemptsLeft: CODE_ATTEMPTS - 1 });
    const code = await offlineCode(customer.id, 'unlock');
    expect(agent.enterCode(code)).toMatchObject({ ok: true, purpose: 'unlock', counter: 1 });
    expect(agent.snapshot().screen.locked).toBe(false);
    // The same code does not work twice.
    expect(agent.enterCode(code)).toMatchObject({ ok: false, reason: 'wrong' });
    expect(agent.snapshot().log.map((e) => e.kind)).toEqual(['code_rejected', 'code_unlock', 'code_rejected']);
    expect(await serverLog(customer.id)).toEqual([]);

    agent.goOnline();
    await expect.poll(() => agent.snapshot().log.length).toBe(0);
    const log = await serverLog(customer.id);
    expect(log.map((e) => e.kind).sort()).toEqual(['code_rejected', 'code_rejected', 'code_unlock']);
    await expect.poll(() => lockStatus(live, customer.id)).toBe(0);
    expect(agent.snapshot().screen.locked).toBe(false);
  });

  it('lock with a lock code, and unlock with the time-based code', async () => {
    const { customer, agent } = await phone();
    await agent.goOffline();
    expect(agent.enterCode(await offlineCode(customer.id, 'lock'))).toMatchObject({ ok: true, purpose: 'lock' });
    expect(agent.snapshot().screen.locked).toBe(true);
    const ouc = (await live.t.get(`/api/customer/ouc-code?customer_id=${customer.id}`, { token: live.ravi })).json().data.code as string;
    expect(agent.enterCode(ouc)).toMatchObject({ ok: true, purpose: 'ouc' });
    expect(agent.snapshot().screen.locked).toBe(false);
    agent.goOnline();
    await expect.poll(async () => (await serverLog(customer.id)).map((e) => e.kind).sort()).toEqual(['code_lock', 'code_ouc']);
    expect(await lockStatus(live, customer.id)).toBe(0);
  });

  it('stop taking codes after five wrong ones, for the lockout time', async () => {
    let now = Date.now();
    const { customer, agent } = await phone(() => now);
    await agent.goOffline();
    for (let i = 1; i < CODE_ATTEMPTS; i++) expect(agent.enterCode('12345678')).toMatchObject({ ok: false, reason: 'wrong', attemptsLeft: CODE_ATTEMPTS - i });
    const fifth = agent.enterCode('12345678');
    expect(fifth).toEqual({ ok: false, reason: 'locked_out', until: now + 15 * 60_000 });
    // Even a good code waits for the lockout to end.
    const good = await offlineCode(customer.id, 'unlock');
    expect(agent.enterCode(good)).toMatchObject({ ok: false, reason: 'locked_out' });
    now += 15 * 60_000;
    expect(agent.enterCode(good)).toMatchObject({ ok: true, purpose: 'unlock' });
    expect(agent.snapshot().log.filter((e) => e.kind === 'code_rejected')).toHaveLength(CODE_ATTEMPTS);
    agent.goOnline();
    await expect.poll(async () => (await serverLog(customer.id)).length).toBe(CODE_ATTEMPTS + 1);
  });
});

describe('self-lock', () => {
  it('warns a day before and locks itself after offline_lock_days without a check-in', async () => {
    await live.t.db.query('UPDATE organizations SET offline_lock_days = 3');
    let now = Date.now();
    const { customer, agent } = await phone(() => now);
    expect(agent.snapshot().offlineLockDays).toBe(3);
    await agent.goOffline();

    now += 2 * 86_400_000 - 60_000;
    agent.tick();
    expect(agent.snapshot()).toMatchObject({ offlineWarning: false, selfLocked: false });
    now += 60_000;
    agent.tick();
    expect(agent.snapshot()).toMatchObject({ offlineWarning: true, selfLocked: false, screen: { locked: false } });
    now += 86_400_000;
    agent.tick();
    expect(agent.snapshot()).toMatchObject({ selfLocked: true, screen: { locked: true } });
    expect(agent.snapshot().log.map((e) => e.kind)).toEqual(['offline_warning', 'self_lock']);

    agent.goOnline();
    await expect.poll(async () => (await serverLog(customer.id)).sort((a, b) => a.n - b.n).map((e) => e.kind)).toEqual(['offline_warning', 'self_lock']);
    // The server stores the entries before its answer reaches the phone, which then clears its copy.
    await expect.poll(() => agent.snapshot().log).toEqual([]);
    await expect.poll(() => agent.snapshot()).toMatchObject({ selfLocked: false, offlineWarning: false });
  });

  // Known server gap: the uploaded self_lock entry makes the customer Locked, so the check-in answers
  // desired.locked = true and the self-lock never lifts, against "Reaching the server again lifts a self-lock
  // unless the server wants the phone locked". Drop `.fails` once the server tells the two apart.
  it('lifts the self-lock when the phone reaches the server again', async () => {
    await live.t.db.query('UPDATE organizations SET offline_lock_days = 3');
    let now = Date.now();
    const { customer, agent } = await phone(() => now);
    await agent.goOffline();
    now += 3 * 86_400_000;
    agent.tick();
    expect(agent.snapshot().screen.locked).toBe(true);
    agent.goOnline();
    await expect.poll(() => agent.snapshot().log.length).toBe(0);
    await expect.poll(() => agent.snapshot().screen.locked, { timeout: 3000 }).toBe(false);
    expect(await lockStatus(live, customer.id)).toBe(0);
  });

  it('a bypass code unlocks and pauses the self-lock until the phone reaches the server', async () => {
    let now = Date.now();
    const { agent } = await phone(() => now);
    await agent.goOffline();
    now += 3 * 86_400_000;
    agent.tick();
    expect(agent.snapshot().selfLocked).toBe(true);
    // The bypass code the server would issue after the customer's OTP (the next bypass counter).
    const { offlineCode: codeFor } = await import('@kisht/protocol/offline-codes');
    const bypass = codeFor(agent.snapshot().credentials!.offlineSecret, 'bypass', 1);
    expect(agent.enterCode(bypass)).toMatchObject({ ok: true, purpose: 'bypass' });
    now += 10 * 86_400_000;
    agent.tick();
    expect(agent.snapshot()).toMatchObject({ bypass: true, selfLocked: false, screen: { locked: false } });
    agent.goOnline();
    await expect.poll(() => agent.snapshot().bypass).toBe(false);
  });
});
