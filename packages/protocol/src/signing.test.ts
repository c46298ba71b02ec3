import { describe, expect, it } from 'vitest';
import { createHmac, randomBytes } from 'node:crypto';
import { seal, unseal } from './signing.ts';

const secret = () => randomBytes(32).toString('base64url');

describe('sealed messages', () => {
  it('opens with the same secret and keeps the message', () => {
    const s = secret();
    expect(unseal(s, seal(s, { v: 1, seq: 3, type: 'lock' }))).toEqual({ v: 1, seq: 3, type: 'lock' });
  });

  it('refuses another secret, a changed body, and garbage', () => {
    const s = secret();
    const text = seal(s, { v: 1, seq: 3 });
    expect(unseal(secret(), text)).toBeNull();
    const outer = JSON.parse(text) as { body: string; sig: string };
    expect(unseal(s, JSON.stringify({ ...outer, body: outer.body.replace('3', '4') }))).toBeNull();
    expect(unseal(s, 'not json')).toBeNull();
    expect(unseal(s, JSON.stringify({ body: 1, sig: 2 }))).toBeNull();
  });

  it('signs as the protocol says (HMAC-SHA256 under the key derived from the secret), the first time and every time after', () => {
    const s = secret();
    const key = createHmac('sha256', Buffer.from(s, 'base64url')).update('kisht/sign/v1').digest();
    for (let i = 0; i < 3; i++) {
      const outer = JSON.parse(seal(s, { v: 1, n: i })) as { body: string; sig: string };
      expect(outer.sig).toBe(createHmac('sha256', key).update(outer.body).digest('base64url'));
    }
    // Past the derived keys kept, each secret still signs as before.
    for (let i = 0; i < 50_001; i++) seal(secret(), { v: 1 });
    expect(unseal(s, seal(s, { v: 1, n: 9 }))).toEqual({ v: 1, n: 9 });
    const again = JSON.parse(seal(s, { v: 1 })) as { body: string; sig: string };
    expect(again.sig).toBe(createHmac('sha256', key).update(again.body).digest('base64url'));
  });
});
