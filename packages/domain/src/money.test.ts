import { describe, expect, it } from 'vitest';
import { formatRupees } from './money.ts';

describe('formatRupees', () => {
  it('shows rupees from paise with Indian grouping and paise only when there are some', () => {
    expect(formatRupees(0)).toBe('₹0');
    expect(formatRupees(49_900)).toBe('₹499');
    expect(formatRupees(149_950)).toBe('₹1,499.50');
    expect(formatRupees(1_000_000_05)).toBe('₹10,00,000.05');
    expect(formatRupees(-250)).toBe('-₹2.50');
  });
});
