/** Offline codes on a phone with no network at all: acceptance, lockout and its doubling, the log. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CODE_ATTEMPTS, lockoutSeconds, offlineCode } from '@kisht/protocol/offline-codes';
import { DeviceAgent } from './agent.ts';
import { MemoryStore } from './store.ts';
import { initialState } from './state.ts';

function offlinePhone(now: () => number) {
  const secret = randomBytes(32).toString('base64url');
  const state = initialState({ imei1: '356666666666661' });
  state.status = 'enrolled';
  state.server = 'http://127.0.0.1:9';
  state.credentials = { deviceId: 'd', username: 'd', password: 'p', mqttUrl: 'mqtt://127.0.0.1:9', commandTopic: 'c', eventTopic: 'e', offlineSecret: secret };
  const store = new MemoryStore();
  store.save(state);
  return { agent: new DeviceAgent({ store, now, timer: false }), secret, store };
}

describe('offline codes on the phone', () => {
  it('double the lockout each time and keep the count through a reboot', () => {
    let now = 1_800_000_000_000;
    const { agent, secret, store } = offlinePhone(() => now);
    for (let i = 0; i < CODE_ATTEMPTS; i++) agent.enterCode('99999999');
    const first = agent.snapshot().codeLockedUntil!;
    expect(first - now).toBe(lockoutSeconds(0) * 1000);
    now = first;
    const rebooted = new DeviceAgent({ store, now: () => now, timer: false });
    for (let i = 0; i < CODE_ATTEMPTS; i++) rebooted.enterCode('99999999');
    expect(rebooted.snapshot().codeLockedUntil! - now).toBe(lockoutSeconds(1) * 1000);
    now = rebooted.snapshot().codeLockedUntil!;
    expect(rebooted.enterCode(offlineCode(secret, 'unlock', 3))).toMatchObject({ ok: true, counter: 3 });
    expect(rebooted.snapshot()).toMatchObject({ codeLockouts: 0, codeFailures: 0, codeLockedUntil: null });
    // Every try is in the log, numbered in order.
    const log = rebooted.snapshot().log;
    expect(log.map((e) => e.n)).toEqual(Array.from({ length: 2 * CODE_ATTEMPTS + 1 }, (_, i) => i + 1));
    expect(log.at(-1)).toMatchObject({ kind: 'code_unlock', ref: 3 });
  });

  it("refuse another phone's code", () => {
    const { agent } = offlinePhone(() => Date.now());
    expect(agent.enterCode(offlineCode(randomBytes(32).toString('base64url'), 'unlock', 1))).toMatchObject({ ok: false, reason: 'wrong' });
  });
});
