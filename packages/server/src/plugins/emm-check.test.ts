import { describe, expect, it } from 'vitest';
import { createEmmAuthSession, verifyEmmAuthSession } from '@kisht/domain/emm-auth';
import { checkEmmHeader } from './emm-check.ts';

describe('checkEmmHeader (node:crypto)', () => {
  it('accepts exactly what the Web Crypto builder produces, like the domain verifier', async () => {
    const now = Date.now();
    for (const path of ['/api/auth/loginWithOtp', '/api/sessions/my-sessions', '/a', '/api/config/get_app_configs']) {
      for (const org of [23, 46, 1]) {
        const value = await createEmmAuthSession(path, org, now);
        expect(checkEmmHeader(value, path, org, now, 60_000)).toEqual(await verifyEmmAuthSession(value, path, org, now));
        expect(checkEmmHeader(value, path, org, now, 60_000)).toEqual({ ok: true, timestamp: now });
      }
    }
  });

  it('refuses the same things the domain verifier refuses', async () => {
    const now = Date.now();
    const value = await createEmmAuthSession('/api/x', 23, now);
    const cases: Array<[string, string, number, number]> = [
      [value, '/api/y', 23, now],
      [value, '/api/x', 46, now],
      [value, '/api/x', 23, now + 120_000],
      ['zz:zz', '/api/x', 23, now],
      [`${value}:extra`, '/api/x', 23, now],
      [value.split(':')[0] + ':' + 'ab'.repeat(16), '/api/x', 23, now],
    ];
    for (const [v, p, o, n] of cases) {
      expect(checkEmmHeader(v, p, o, n, 60_000).ok).toBe(false);
      expect((await verifyEmmAuthSession(v, p, o, n)).ok).toBe(false);
    }
  });
});
