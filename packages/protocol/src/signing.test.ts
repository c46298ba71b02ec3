import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
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
});
