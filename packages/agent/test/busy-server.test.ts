/**
 * A busy server sheds check-ins instead of queueing them: past its limit of check-ins at once it answers 503 at
 * once with a Retry-After, and the phone comes back then (not after its usual retry wait, and not after its
 * request timed out). The server's slot is held by a check-in stuck behind a table lock, as under a heavy load.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolledPhone, startLiveServer, type LiveServer } from './support.ts';

let live: LiveServer;
beforeAll(async () => {
  live = await startLiveServer({ DEVICE_CHECK_INS_AT_ONCE: '1' });
}, 60_000);
afterAll(() => live.stop());

describe('a check-in past the server\'s limit', () => {
  it('is answered 503 at once with when to come back, and the phone comes back then', async () => {
    const a = await enrolledPhone(live);
    const b = await enrolledPhone(live);
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const locked = new Promise<void>((resolve) => {
        void live.t.db.transaction(async (tx) => {
          await tx.query('LOCK TABLE devices IN ACCESS EXCLUSIVE MODE');
          resolve();
          await held;
        });
      });
      await locked;
      // A's check-in takes the one slot and waits behind the lock.
      const first = a.agent.checkIn();
      await new Promise((resolve) => setTimeout(resolve, 300));

      const outcome = new Promise<{ ok: boolean; deferred?: boolean; error?: string }>((resolve) => b.agent.once('check-in', resolve));
      const asked = Date.now();
      expect(await b.agent.checkIn()).toBe(false);
      const answer = await outcome;
      expect(answer).toMatchObject({ ok: false, deferred: true });
      expect(answer.error).toMatch(/^HTTP 503 SERVICE_UNAVAILABLE/);
      // Answered at once, not after the lock was released; the next try is within the 5-30 s the server said.
      expect(Date.now() - asked).toBeLessThan(5000);
      const next = (b.agent as unknown as { nextCheckInAt: number }).nextCheckInAt - asked;
      expect(next).toBeGreaterThanOrEqual(5000);
      expect(next).toBeLessThanOrEqual(31_000);

      release();
      expect(await first).toBe(true);
      // With the slot free again, B checks in as usual.
      expect(await b.agent.checkIn()).toBe(true);
    } finally {
      await a.agent.stop();
      await b.agent.stop();
    }
  }, 60_000);
});
