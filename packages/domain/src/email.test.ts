import { describe, expect, it } from 'vitest';
import { isValidEmail } from './email.ts';

describe('isValidEmail', () => {
  it('takes name@domain.tld, around spaces too, and refuses the rest', () => {
    for (const good of ['ravi@example.in', ' sunita.telecom@mail.co.in ']) expect(isValidEmail(good), good).toBe(true);
    for (const bad of ['', 'ravi', 'ravi@example', 'ra vi@example.in', '@example.in', 'ravi@@example.in']) expect(isValidEmail(bad), bad).toBe(false);
  });
});
