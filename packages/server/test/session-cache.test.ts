/**
 * The per-node session cache (limits.sessionCacheMs) on one node: a session read once is trusted without the
 * database, yet a switch turned off, a block, a logout and an operator command take effect on the next request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, RAVI, SUNITA, type TestApp } from './harness.ts';

let t: TestApp;
// A minute: anything seen below comes from the cache being cleared, not from entries growing old.
beforeAll(async () => {
  t = await startTestApp({ limits: { sessionCacheMs: 60_000, otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 } });
});
afterAll(() => t.stop());

const sunitaId = async () => (await t.db.query<{ id: number }>('SELECT id FROM users WHERE mobile = $1', [SUNITA])).rows[0]!.id;

describe('the session cache', () => {
  it('answers from the cache: a session ended behind the server\'s back still passes until something clears it', async () => {
    const s = await t.signIn(RAVI);
    expect((await t.get('/api/user/get-details', { token: s.token })).statusCode).toBe(200);
    await t.db.query('UPDATE sessions SET ended_at = now() WHERE id = $1', [s.sessionId]);
    expect((await t.get('/api/user/get-details', { token: s.token })).statusCode).toBe(200);
    // What the bus does on a network change or an operator command: every cached session is read again.
    t.services.sessions.forgetAll();
    expect((await t.get('/api/user/get-details', { token: s.token })).statusCode).toBe(511);
  });

  it("a switch turned off by the parent is refused on the member's next request, and a block ends its session at once", async () => {
    const ravi = await t.signIn(RAVI);
    const sunita = await t.signIn(SUNITA);
    // With lock_unlock on, Sunita's lock reaches the customer lookup (no such customer: 404).
    expect((await t.post('/api/device/lock', { customer_id: 999_999 }, { token: sunita.token })).statusCode).toBe(404);
    const off = await t.post('/api/country/updateUsers', { user_id: await sunitaId(), user_access: { lock_unlock: '0' } }, { token: ravi.token });
    expect(off.statusCode, off.body).toBe(200);
    const refused = await t.post('/api/device/lock', { customer_id: 999_999 }, { token: sunita.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('ACCESS_DENIED');

    expect((await t.post('/api/country/updateUsers', { user_id: await sunitaId(), active: false }, { token: ravi.token })).statusCode).toBe(200);
    expect((await t.get('/api/user/get-details', { token: sunita.token })).statusCode).toBe(511);
    await t.post('/api/country/updateUsers', { user_id: await sunitaId(), active: true, user_access: { lock_unlock: '1' } }, { token: ravi.token });
  });

  it('a logout ends the session on the next request', async () => {
    const s = await t.signIn(RAVI);
    expect((await t.get('/api/user/get-details', { token: s.token })).statusCode).toBe(200);
    expect((await t.post('/api/auth/logout', {}, { token: s.token })).statusCode).toBe(200);
    expect((await t.get('/api/user/get-details', { token: s.token })).statusCode).toBe(511);
  });
});
