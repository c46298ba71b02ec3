import { describe, expect, it } from 'vitest';
import { createEmmAuthSession, deriveEmmKeyText, emmPathOf, verifyEmmAuthSession } from './emm-auth.ts';

describe('X-EMM-Auth-Session', () => {
  it('derives a 32-character key from organisation id x 3 and the path', () => {
    const key = deriveEmmKeyText('/api/auth/loginWithOtp', 23);
    expect(key).toHaveLength(32);
    expect(key.startsWith('69Otp/api/auth/')).toBe(true);
    expect(deriveEmmKeyText('/a', 1)).toBe('3/a/a'.padEnd(32, '#'));
  });

  it('keeps only the path of a URL', () => {
    expect(emmPathOf('http://localhost:8080/api/x?y=1')).toBe('/api/x');
    expect(emmPathOf('api/organizations/get_org_app_config')).toBe('/api/organizations/get_org_app_config');
  });

  it('round-trips as iv:ciphertext hex with a 16-byte IV', async () => {
    const now = 1_780_000_000_000;
    const value = await createEmmAuthSession('https://h/api/sessions/my-sessions?x=1', 23, now);
    expect(value).toMatch(/^[0-9a-f]{32}:[0-9a-f]{32}$/);
    await expect(verifyEmmAuthSession(value, '/api/sessions/my-sessions', 23, now + 5000)).resolves.toEqual({ ok: true, timestamp: now });
  });

  it('uses a fresh IV every time', async () => {
    const a = await createEmmAuthSession('/api/x', 23, 1);
    const b = await createEmmAuthSession('/api/x', 23, 1);
    expect(a).not.toBe(b);
  });

  it('refuses another path, another organisation, stale times and garbage', async () => {
    const now = 1_780_000_000_000;
    const value = await createEmmAuthSession('/api/auth/logout', 23, now);
    const otherPath = await verifyEmmAuthSession(value, '/api/sessions/my-sessions', 23, now);
    expect(otherPath.ok).toBe(false);
    expect((await verifyEmmAuthSession(value, '/api/auth/logout', 46, now)).ok).toBe(false);
    expect(await verifyEmmAuthSession(value, '/api/auth/logout', 23, now + 61_000)).toEqual({ ok: false, reason: 'stale' });
    expect(await verifyEmmAuthSession('zz:yy', '/api/auth/logout', 23, now)).toEqual({ ok: false, reason: 'malformed' });
    expect(await verifyEmmAuthSession('abc', '/api/auth/logout', 23, now)).toEqual({ ok: false, reason: 'malformed' });
    const [iv] = value.split(':');
    expect((await verifyEmmAuthSession(`${iv}:${'00'.repeat(16)}`, '/api/auth/logout', 23, now)).ok).toBe(false);
  });
});
