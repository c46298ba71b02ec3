import { describe, expect, it } from 'vitest';
import { istInputToIso, isoToIstInput } from './ist-datetime.ts';

describe('IST datetime field', () => {
  it('reads the field as India time', () => {
    expect(istInputToIso('2026-07-01T09:30')).toBe('2026-07-01T04:00:00.000Z');
    expect(istInputToIso('2026-01-01T02:00')).toBe('2025-12-31T20:30:00.000Z');
  });

  it('refuses what is not a real time', () => {
    expect(istInputToIso('')).toBeNull();
    expect(istInputToIso('2026-02-30T10:00')).toBeNull();
    expect(istInputToIso('2026-07-01T24:10')).toBeNull();
    expect(istInputToIso('tomorrow')).toBeNull();
  });

  it('writes an instant back as the field value', () => {
    expect(isoToIstInput(new Date('2026-07-01T04:00:00.000Z'))).toBe('2026-07-01T09:30');
    expect(istInputToIso(isoToIstInput(new Date('2026-03-15T18:45:00Z')))).toBe('2026-03-15T18:45:00.000Z');
  });
});
