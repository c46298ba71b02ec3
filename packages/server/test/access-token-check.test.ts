/**
 * The security plugin keeps the access tokens it has checked: a token it accepted before is still refused once
 * it expires, and any other text (a changed signature) is checked in full.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, RAVI, type TestApp } from './harness.ts';
import { signAccessToken } from '../src/modules/auth/secrets.ts';
import { deriveKey } from '../src/secret.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 } });
});
afterAll(() => t.stop());

describe('checked access tokens', () => {
  it('refuses a token after its expiry even though it passed before', async () => {
    const s = await t.signIn(RAVI);
    // The same session, in a token that runs out in about two seconds (expiry is in whole seconds).
    const expiresAt = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000);
    const short = await signAccessToken(deriveKey(t.secret, 'access-token'), { sub: String(s.userId), sid: s.sessionId, org: 23, acc: s.userId }, expiresAt);
    expect((await t.get('/api/user/user_access', { token: short })).statusCode).toBe(200);
    expect((await t.get('/api/user/user_access', { token: short })).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 50));
    expect((await t.get('/api/user/user_access', { token: short })).statusCode).toBe(511);
    // The long-lived token of the same session still passes.
    expect((await t.get('/api/user/user_access', { token: s.token })).statusCode).toBe(200);
  });

  it('checks a changed token in full after its original was accepted', async () => {
    const s = await t.signIn(RAVI);
    expect((await t.get('/api/user/user_access', { token: s.token })).statusCode).toBe(200);
    const [header, payload, signature] = s.token.split('.');
    // A signature's first character carries six whole bits; its last carries a few plus padding bits that a
    // decoder may ignore, so changing that one can leave the same signature.
    const changed = `${signature![0] === 'A' ? 'B' : 'A'}${signature!.slice(1)}`;
    expect((await t.get('/api/user/user_access', { token: `${header}.${payload}.${changed}` })).statusCode).toBe(511);
    const otherPayload = Buffer.from(JSON.stringify({ sid: s.sessionId, org: 23, acc: s.userId, sub: String(s.userId), iss: 'kisht', exp: 4_102_444_800 })).toString('base64url');
    expect((await t.get('/api/user/user_access', { token: `${header}.${otherPayload}.${signature}` })).statusCode).toBe(511);
  });
});
