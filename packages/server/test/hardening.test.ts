/** Attacks on the edges: encoded paths, parallel guessing, forged tokens, local-only endpoints. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmmAuthSession } from '@kisht/domain/emm-auth';
import { startTestApp, RAVI, SUNITA, ARJUN, type TestApp } from './harness.ts';
import { signAccessToken } from '../src/modules/auth/secrets.ts';
import { deriveKey } from '../src/secret.ts';
import { runOperatorCommand } from '../src/modules/operator/operator.service.ts';
import { operatorKey } from '../src/secret.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 3, otpSendsPerIpPerHour: 1000, otpResendAfterSeconds: 0 } });
});
afterAll(() => t.stop());
const quiet = () => undefined;

describe('routing tricks', () => {
  it('applies the checks to percent-encoded paths of API routes too', async () => {
    const noEmm = await t.app.inject({ method: 'POST', url: '/%61pi/auth/loginWithOtp', payload: { mobile: RAVI } });
    expect(noEmm.statusCode).toBe(401);
    const path = '/%61pi/sessions/my-sessions';
    const noToken = await t.app.inject({ method: 'GET', url: path, headers: { 'x-emm-auth-session': await createEmmAuthSession(path, 23) } });
    expect(noToken.statusCode).toBe(511);
  });

  it('answers 511 for an ended token even on a public route', async () => {
    const s = await t.signIn(ARJUN);
    await t.post('/api/auth/logout', undefined, { token: s.token });
    expect((await t.get('/api/organizations/get_org_app_config', { token: s.token })).statusCode).toBe(511);
  });

  it('keeps a broken language cookie from breaking the API', async () => {
    const res = await t.get('/api/organizations/get_org_app_config', { headers: { cookie: 'i18next=%E0%A4' } });
    expect(res.statusCode).toBe(200);
  });
});

describe('forged tokens', () => {
  it("refuses a correctly signed token whose session is another user's", async () => {
    const ravi = await t.signIn(RAVI);
    const sunita = await t.signIn(SUNITA);
    const forged = await signAccessToken(deriveKey(t.secret, 'access-token'), { sub: String(ravi.userId), sid: sunita.sessionId, org: 23, acc: ravi.userId }, new Date(Date.now() + 3_600_000));
    const res = await t.get('/api/sessions/my-sessions', { token: forged });
    expect(res.statusCode).toBe(511);
  });
});

describe('parallel guessing', () => {
  it('cannot beat the MPIN limit with many guesses at once', async () => {
    const s = await t.signIn(SUNITA);
    await t.db.query('UPDATE users SET mpin_hash = NULL, mpin_failed = 0 WHERE id = $1', [s.userId]);
    expect((await t.post('/api/auth/set-mpin', { mpin: '5802' }, { token: s.token })).statusCode).toBe(200);
    const guesses = Array.from({ length: 30 }, (_, i) => String(1000 + i * 7).padStart(4, '0')).filter((g) => g !== '5802');
    const answers = await Promise.all(guesses.map((mpin) => t.post('/api/auth/verify-mpin', { mpin }, { token: s.token })));
    const codes = answers.map((r) => r.json().code as string);
    expect(codes.filter((c) => c === 'MPIN_INVALID').length).toBeLessThanOrEqual(4);
    expect(answers.every((r) => r.statusCode !== 200)).toBe(true);
    // The right MPIN no longer helps: every session has ended.
    expect((await t.post('/api/auth/verify-mpin', { mpin: '5802' }, { token: s.token })).statusCode).toBe(511);
  });

  it('cannot beat the per-number OTP limit with many requests at once', async () => {
    const mobile = '+919000000077';
    const answers = await Promise.all(Array.from({ length: 10 }, () => t.post('/api/auth/loginWithOtp', { mobile })));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(3);
    expect(answers.filter((r) => r.json().code === 'RATE_LIMITED')).toHaveLength(7);
  });
});

describe('customer OTPs', () => {
  it('need the uninstall or unlock switches of the retailer', async () => {
    const s = await t.signIn(ARJUN);
    await runOperatorCommand(t.db, ['access', ARJUN, 'unistall=0'], quiet);
    const denied = await t.post('/api/auth/send-otp-to-user', { mobile: '+917000000001', purpose: 'UNINSTALL' }, { token: s.token });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('ACCESS_DENIED');
    expect((await t.post('/api/auth/send-otp-to-user', { mobile: '+917000000001', purpose: 'BYPASS_CODE' }, { token: s.token })).statusCode).toBe(200);
    await runOperatorCommand(t.db, ['access', ARJUN, 'unistall=1'], quiet);
  });

  it('are resent only for the retailer who asked for them', async () => {
    const ravi = await t.signIn(RAVI);
    const arjun = await t.signIn(ARJUN);
    const requestId = (await t.post('/api/auth/send-otp-to-user', { mobile: '+917000000002', purpose: 'UNINSTALL' }, { token: ravi.token })).json().data.request_id;
    expect((await t.post('/api/auth/resend-otp', { request_id: requestId })).json().code).toBe('OTP_EXPIRED');
    expect((await t.post('/api/auth/resend-otp', { request_id: requestId }, { token: arjun.token })).json().code).toBe('OTP_EXPIRED');
    expect((await t.post('/api/auth/resend-otp', { request_id: requestId }, { token: ravi.token })).statusCode).toBe(200);
  });
});

describe('local-only endpoints', () => {
  it('hides the development outbox from other machines', async () => {
    const remote = await t.app.inject({ method: 'GET', url: '/api/dev/outbox', remoteAddress: '192.0.2.10' });
    expect(remote.statusCode).toBe(404);
    const local = await t.app.inject({ method: 'GET', url: '/api/dev/outbox' });
    expect(local.statusCode).toBe(200);
  });

  it('runs operator commands in the server only for the local operator key', async () => {
    const key = operatorKey(t.secret);
    const ok = await t.app.inject({ method: 'POST', url: '/api/operator/run', headers: { 'x-operator-key': key }, payload: { args: ['signups'] } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ code: 0, lines: expect.any(Array) });
    const wrongKey = await t.app.inject({ method: 'POST', url: '/api/operator/run', headers: { 'x-operator-key': 'x'.repeat(64) }, payload: { args: ['signups'] } });
    expect(wrongKey.statusCode).toBe(404);
    const remote = await t.app.inject({ method: 'POST', url: '/api/operator/run', remoteAddress: '192.0.2.10', headers: { 'x-operator-key': key }, payload: { args: ['signups'] } });
    expect(remote.statusCode).toBe(404);
  });
});

describe('signup requests', () => {
  it('are limited per address', async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) {
      answers.push(await t.post('/api/user/signup_request', { first_name: 'A', last_name: 'B', mobile: `+91911111110${i}`, shop_name: 'S', city: 'C' }));
    }
    expect(answers.slice(0, 5).every((r) => r.statusCode === 200)).toBe(true);
    expect(answers[5]!.json().code).toBe('RATE_LIMITED');
  });
});
