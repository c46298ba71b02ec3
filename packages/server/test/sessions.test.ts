import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { startTestApp, RAVI, SUNITA, CONSOLE_HEADERS, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000, sessionTouchSeconds: 0 } });
});
afterAll(() => t.stop());

describe('my sessions', () => {
  it('lists live sessions with device and browser details, the current one marked', async () => {
    const phone = await t.signIn(RAVI, { 'x-device-platform': 'Android', 'x-browser-name': 'Chrome WebView' });
    const desk = await t.signIn(RAVI, { 'x-device-platform': 'Windows', 'x-browser-name': 'Edge', 'x-device-type': 'desktop' });
    const res = await t.get('/api/sessions/my-sessions', { token: phone.token });
    expect(res.statusCode).toBe(200);
    const list = res.json().data as Array<Record<string, unknown>>;
    const mine = list.find((s) => s.id === phone.sessionId)!;
    const other = list.find((s) => s.id === desk.sessionId)!;
    expect(mine).toMatchObject({ current: true, device_platform: 'Android', browser_name: 'Chrome WebView', auth_platform: 'mobile', device_details: CONSOLE_HEADERS['x-device-details'] });
    expect(other).toMatchObject({ current: false, device_platform: 'Windows', browser_name: 'Edge', device_type: 'desktop' });
    expect(typeof mine.ip).toBe('string');
    expect(Date.parse(String(mine.created_at))).not.toBeNaN();
    expect(Date.parse(String(mine.last_seen_at))).toBeGreaterThanOrEqual(Date.parse(String(mine.created_at)));
  });

  it('never shows another retailer its sessions, nor lets it end them', async () => {
    const ravi = await t.signIn(RAVI);
    const sunita = await t.signIn(SUNITA);
    const list = (await t.get('/api/sessions/my-sessions', { token: sunita.token })).json().data as Array<{ id: string }>;
    expect(list.map((s) => s.id)).not.toContain(ravi.sessionId);
    const end = await t.post('/api/sessions/logout-my-session', { session_id: ravi.sessionId }, { token: sunita.token });
    expect(end.statusCode).toBe(404);
    expect((await t.get('/api/user/get-details', { token: ravi.token })).statusCode).toBe(200);
  });

  it('ends one session: that token answers 511 from then on', async () => {
    const a = await t.signIn(RAVI);
    const b = await t.signIn(RAVI);
    const res = await t.post('/api/sessions/logout-my-session', { session_id: b.sessionId }, { token: a.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: 'Session ended.', data: { ended: 1 } });
    const after = await t.get('/api/user/get-details', { token: b.token });
    expect(after.statusCode).toBe(511);
    expect(after.json().code).toBe('SESSION_INVALID');
    expect((await t.get('/api/user/get-details', { token: a.token })).statusCode).toBe(200);
  });

  it('ends all other sessions and keeps the current one', async () => {
    const keep = await t.signIn(RAVI);
    const others = [await t.signIn(RAVI), await t.signIn(RAVI)];
    const res = await t.post('/api/sessions/logout-my-session', { all_others: true }, { token: keep.token });
    expect(res.json().data.ended).toBeGreaterThanOrEqual(2);
    for (const o of others) expect((await t.get('/api/user/get-details', { token: o.token })).statusCode).toBe(511);
    const list = (await t.get('/api/sessions/my-sessions', { token: keep.token })).json().data as unknown[];
    expect(list).toHaveLength(1);
  });

  it('logout ends the current session', async () => {
    const s = await t.signIn(RAVI);
    expect((await t.post('/api/auth/logout', undefined, { token: s.token })).statusCode).toBe(200);
    expect((await t.get('/api/sessions/my-sessions', { token: s.token })).statusCode).toBe(511);
  });

  it('answers 511 for an expired session', async () => {
    const s = await t.signIn(RAVI);
    await t.db.query(`UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE id = $1`, [s.sessionId]);
    expect((await t.get('/api/user/get-details', { token: s.token })).statusCode).toBe(511);
  });

  it('records when a session was last seen', async () => {
    const s = await t.signIn(RAVI);
    await t.db.query(`UPDATE sessions SET last_seen_at = now() - interval '1 hour' WHERE id = $1`, [s.sessionId]);
    await t.get('/api/user/get-details', { token: s.token });
    const row = await t.db.query<{ fresh: boolean }>(`SELECT last_seen_at > now() - interval '1 minute' AS fresh FROM sessions WHERE id = $1`, [s.sessionId]);
    expect(row.rows[0]!.fresh).toBe(true);
  });
});

describe('access tokens', () => {
  it('refuses no token, garbage, a tampered payload, a foreign signature and alg none with 511', async () => {
    const good = await t.signIn(RAVI);
    const [header, payload, signature] = good.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: String(claims.sub === '1' ? 2 : 1) })).toString('base64url')}.${signature}`;
    const foreign = await new SignJWT({ sid: claims.sid, org: claims.org, acc: claims.acc })
      .setProtectedHeader({ alg: 'HS256' }).setSubject(claims.sub).setIssuer('kisht').setExpirationTime('1h')
      .sign(new TextEncoder().encode('someone-elses-secret-that-is-long-enough'));
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    for (const token of [null, 'garbage', tampered, foreign, none]) {
      const res = await t.get('/api/sessions/my-sessions', { token });
      expect(res.statusCode, String(token)).toBe(511);
      expect(res.json().code).toBe('SESSION_INVALID');
    }
  });

  it('refuses a valid token whose session belongs to another user', async () => {
    const ravi = await t.signIn(RAVI);
    const sunita = await t.signIn(SUNITA);
    // Forge nothing: simply check that the session id and the subject must match in the database.
    const row = await t.db.query<{ user_id: number }>('SELECT user_id FROM sessions WHERE id = $1', [sunita.sessionId]);
    expect(row.rows[0]!.user_id).toBe(sunita.userId);
    expect(sunita.userId).not.toBe(ravi.userId);
    const found = await t.services.sessions.findActive(sunita.sessionId, ravi.userId);
    expect(found).toBeUndefined();
  });
});

describe('X-EMM-Auth-Session', () => {
  it('is required on API calls', async () => {
    const res = await t.post('/api/auth/loginWithOtp', { mobile: RAVI }, { emm: false });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('EMM_AUTH_MISSING');
  });

  it('is refused when replayed', async () => {
    const { createEmmAuthSession } = await import('@kisht/domain/emm-auth');
    const value = await createEmmAuthSession('/api/organizations/get_org_app_config', 23);
    expect((await t.get('/api/organizations/get_org_app_config', { emm: value })).statusCode).toBe(200);
    const replay = await t.get('/api/organizations/get_org_app_config', { emm: value });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('EMM_AUTH_REPLAYED');
    // Upper-case hex is the same value.
    expect((await t.get('/api/organizations/get_org_app_config', { emm: value.toUpperCase() })).json().code).toBe('EMM_AUTH_REPLAYED');
  });

  it('is refused when stale, made for another path or another organisation, or malformed', async () => {
    const { createEmmAuthSession } = await import('@kisht/domain/emm-auth');
    const path = '/api/organizations/get_org_app_config';
    const cases = [
      await createEmmAuthSession(path, 23, Date.now() - 5 * 60_000),
      await createEmmAuthSession('/api/pricing', 23),
      await createEmmAuthSession(path, 46),
      'not-hex:at-all',
    ];
    for (const emm of cases) {
      const res = await t.get(path, { emm });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('EMM_AUTH_INVALID');
    }
  });

  it('uses the organisation in the token once signed in', async () => {
    const { createEmmAuthSession } = await import('@kisht/domain/emm-auth');
    const meena = await t.signIn('+919812345678');
    const ok46 = await t.get('/api/config/get_app_configs', { token: meena.token, emm: await createEmmAuthSession('/api/config/get_app_configs', 46) });
    expect(ok46.statusCode).toBe(200);
    const as23 = await t.get('/api/config/get_app_configs', { token: meena.token, emm: await createEmmAuthSession('/api/config/get_app_configs', 23) });
    expect(as23.statusCode).toBe(401);
  });
});
