import { describe, expect, it } from 'vitest';
import { formatRupees } from '@kisht/domain/money';
import { amountDueText } from './view.ts';

describe('the lock screen amount line', () => {
  it('shows what is due, and nothing (not "Rs 0") when nothing is due', () => {
    expect(amountDueText(150_000)).toBe(formatRupees(150_000));
    expect(amountDueText(1)).toBe(formatRupees(1));
    expect(amountDueText(0)).toBeNull();
    expect(amountDueText(-500)).toBeNull();
  });
});
