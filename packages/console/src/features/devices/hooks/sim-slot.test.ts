import { describe, expect, it } from 'vitest';
import { simNumber } from './sim-slot.ts';

describe('simNumber', () => {
  it('shows slot 0 as SIM 1 and slot 1 as SIM 2', () => {
    expect(simNumber(0)).toBe(1);
    expect(simNumber(1)).toBe(2);
  });

  it('treats a slot that is not a count from 0 as the first SIM', () => {
    expect(simNumber(-1)).toBe(1);
    expect(simNumber(0.5)).toBe(1);
    expect(simNumber(Number.NaN)).toBe(1);
  });
});
