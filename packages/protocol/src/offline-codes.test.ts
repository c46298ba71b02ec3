import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { acceptOfflineCode, hotp, HOTP_LOOK_AHEAD, initialCodeState, offlineCode, oucCode, OUC_STEP_SECONDS, totp } from './offline-codes.ts';

const secret = () => randomBytes(32).toString('base64url');

describe('HOTP and TOTP', () => {
  it('matches the RFC 4226 appendix D values', () => {
    const key = Buffer.from('12345678901234567890');
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, i) => hotp(key, i, 6))).toEqual(expected);
  });

  it('matches the RFC 6238 appendix B values (SHA-1 and SHA-256, 8 digits)', () => {
    const sha1 = Buffer.from('12345678901234567890');
    const sha256 = Buffer.from('12345678901234567890123456789012');
    expect(totp(sha1, 59_000, 30)).toBe('94287082');
    expect(totp(sha1, 1_111_111_109_000, 30)).toBe('07081804');
    expect(totp(sha1, 20_000_000_000_000, 30)).toBe('65353130');
    expect(totp(sha256, 59_000, 30, 8, 'sha256')).toBe('46119246');
    expect(totp(sha256, 1_234_567_890_000, 30, 8, 'sha256')).toBe('91819424');
  });
});

describe('offline codes', () => {
  it('accepts an issued code once, for its own purpose only', () => {
    const s = secret();
    const code = offlineCode(s, 'unlock', 1);
    const first = acceptOfflineCode(s, code, initialCodeState(), Date.now());
    expect(first).toMatchObject({ purpose: 'unlock', counter: 1 });
    expect(acceptOfflineCode(s, code, first!.state, Date.now())).toBeNull();
    expect(acceptOfflineCode(s, offlineCode(s, 'lock', 1), first!.state, Date.now())).toMatchObject({ purpose: 'lock', counter: 1 });
  });

  it('skips codes issued but never typed, within the look-ahead, and retires the ones before', () => {
    const s = secret();
    const later = acceptOfflineCode(s, offlineCode(s, 'unlock', 5), initialCodeState(), 0)!;
    expect(later.counter).toBe(5);
    expect(acceptOfflineCode(s, offlineCode(s, 'unlock', 3), later.state, 0)).toBeNull();
    expect(acceptOfflineCode(s, offlineCode(s, 'unlock', 5 + HOTP_LOOK_AHEAD + 1), later.state, 0)).toBeNull();
  });

  it('refuses another device\'s codes and malformed input', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 20 }), (counter) => {
      const a = secret();
      const b = secret();
      expect(acceptOfflineCode(b, offlineCode(a, 'unlock', counter), initialCodeState(), 0)).toBeNull();
    }), { numRuns: 30 });
    expect(acceptOfflineCode(secret(), '1234', initialCodeState(), 0)).toBeNull();
    expect(acceptOfflineCode(secret(), 'abcdefgh', initialCodeState(), 0)).toBeNull();
  });

  it('takes an ouc code in its step and the one before, once', () => {
    const s = secret();
    const now = 1_800_000_000_000;
    const code = oucCode(s, now);
    const taken = acceptOfflineCode(s, code, initialCodeState(), now + OUC_STEP_SECONDS * 1000)!;
    expect(taken.purpose).toBe('ouc');
    expect(acceptOfflineCode(s, code, taken.state, now + OUC_STEP_SECONDS * 1000)).toBeNull();
    expect(acceptOfflineCode(s, code, initialCodeState(), now + 2 * OUC_STEP_SECONDS * 1000)).toBeNull();
  });
});
