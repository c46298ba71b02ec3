import { describe, expect, it } from 'vitest';
import { decodeTokenPayload, isTokenExpired, resolveOrgId } from './token.ts';

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
const jwt = (payload: object) => `${base64url('{"alg":"HS256","typ":"JWT"}')}.${base64url(JSON.stringify(payload))}.signature`;

describe('decodeTokenPayload', () => {
  it('reads sub, sid, org, acc and exp from the middle segment', () => {
    const token = jwt({ sub: 42, sid: 'b8f1c5e2-0000-4000-8000-000000000001', org: 23, acc: 7, exp: 1_900_000_000 });
    expect(decodeTokenPayload(token)).toEqual({ sub: '42', sid: 'b8f1c5e2-0000-4000-8000-000000000001', org: 23, acc: 7, exp: 1_900_000_000 });
  });

  it('handles base64url characters and non-ASCII text', () => {
    // "?>?" encodes to "Pz4_" in base64url: '_' and '-' must be translated back.
    const token = jwt({ sub: '?>?', name: 'राम', org: 46 });
    expect(decodeTokenPayload(token)).toMatchObject({ sub: '?>?', org: 46 });
  });

  it('returns null for anything that is not a readable JWT', () => {
    expect(decodeTokenPayload(null)).toBeNull();
    expect(decodeTokenPayload('')).toBeNull();
    expect(decodeTokenPayload('abc')).toBeNull();
    expect(decodeTokenPayload('a.!!!.c')).toBeNull();
    expect(decodeTokenPayload(`a.${base64url('[1,2]')}.c`)).toBeNull();
  });

  it('ignores ill-typed claims', () => {
    expect(decodeTokenPayload(jwt({ org: 'twenty', exp: 'soon' }))).toEqual({});
  });
});

describe('isTokenExpired', () => {
  it('compares exp (seconds) with now (milliseconds)', () => {
    expect(isTokenExpired({ exp: 100 }, 100_000)).toBe(true);
    expect(isTokenExpired({ exp: 101 }, 100_000)).toBe(false);
    expect(isTokenExpired({}, 100_000)).toBe(false);
    expect(isTokenExpired(null)).toBe(false);
  });
});

describe('resolveOrgId', () => {
  it('uses the token organisation, then the configured one, then the app default', () => {
    expect(resolveOrgId(jwt({ org: 46 }), '35', 23)).toBe(46);
    expect(resolveOrgId(null, '35', 23)).toBe(35);
    expect(resolveOrgId(null, 'abc', 23)).toBe(23);
    expect(resolveOrgId(null, undefined, 23)).toBe(23);
    expect(resolveOrgId(jwt({ sub: 1 }), undefined, 23)).toBe(23);
  });
});
