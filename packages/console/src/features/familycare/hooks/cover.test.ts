import { describe, expect, it } from 'vitest';
import { renewedUntil } from './cover.ts';

describe('family-care cover', () => {
  it('adds a term from the last day in force, or from today once ended', () => {
    expect(renewedUntil({ covered_until: '2027-11-25', renewal_days: 365 }, '2026-11-26')).toBe('2028-11-24');
    expect(renewedUntil({ covered_until: '2026-11-26', renewal_days: 365 }, '2026-11-26')).toBe('2027-11-26');
    expect(renewedUntil({ covered_until: '2026-10-01', renewal_days: 365 }, '2026-11-26')).toBe('2027-11-25');
  });
});
