import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, addMonths, daysBetween, isIsoDate } from './calendar.ts';

// ECMAScript's own UTC calendar as an independent oracle (UTC has no daylight saving).
const DAY_MS = 86_400_000;
const toIso = (date: Date) => date.toISOString().slice(0, 10);
const utcDays = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const isoDates = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true })
  .map(toIso);

describe('isIsoDate', () => {
  it('accepts real dates written YYYY-MM-DD', () => {
    expect(isIsoDate('2026-01-31')).toBe(true);
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2000-02-29')).toBe(true);
  });

  it('rejects impossible days, unpadded fields and other shapes', () => {
    expect(isIsoDate('2026-02-30')).toBe(false);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('1900-02-29')).toBe(false);
    expect(isIsoDate('2026-04-31')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('2026-00-10')).toBe(false);
    expect(isIsoDate('2026-01-00')).toBe(false);
    expect(isIsoDate('2026-2-3')).toBe(false);
    expect(isIsoDate('2026-01-31T00:00:00Z')).toBe(false);
    expect(isIsoDate(' 2026-01-31')).toBe(false);
    expect(isIsoDate('')).toBe(false);
  });
});

describe('addMonths', () => {
  it('clamps to the end of short months and keeps the anchor day afterwards', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-01-31', 2)).toBe('2026-03-31');
    expect(addMonths('2026-01-31', 3)).toBe('2026-04-30');
    expect(addMonths('2026-02-28', 1, 31)).toBe('2026-03-31');
    expect(addMonths('2026-01-30', 1)).toBe('2026-02-28');
  });

  it('rolls over the year in both directions', () => {
    expect(addMonths('2026-11-15', 2)).toBe('2027-01-15');
    expect(addMonths('2026-12-31', 1)).toBe('2027-01-31');
    expect(addMonths('2026-01-15', 24)).toBe('2028-01-15');
    expect(addMonths('2026-01-15', 0)).toBe('2026-01-15');
  });

  it('goes back with negative months', () => {
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2026-01-15', -1)).toBe('2025-12-15');
    expect(addMonths('2028-03-31', -1)).toBe('2028-02-29');
    expect(addMonths('2026-03-31', -13)).toBe('2025-02-28');
  });

  it('rejects bad input', () => {
    expect(() => addMonths('2026-02-30', 1)).toThrow(RangeError);
    expect(() => addMonths('2026-01-31', 1.5)).toThrow(RangeError);
    expect(() => addMonths('2026-01-31', 1, 32)).toThrow(RangeError);
    expect(() => addMonths('9999-12-01', 1)).toThrow(RangeError);
  });

  it('composes when the anchor is kept: addMonths(d, a + b) = addMonths(addMonths(d, a, anchor), b, anchor)', () => {
    fc.assert(
      fc.property(isoDates, fc.integer({ min: -120, max: 120 }), fc.integer({ min: -120, max: 120 }), (date, a, b) => {
        const anchor = Number(date.slice(8));
        expect(addMonths(date, a + b)).toBe(addMonths(addMonths(date, a, anchor), b, anchor));
      }),
    );
  });

  it('lands on the anchor day or the last day of a shorter month', () => {
    fc.assert(
      fc.property(isoDates, fc.integer({ min: -120, max: 120 }), fc.integer({ min: 1, max: 31 }), (date, months, anchor) => {
        const result = addMonths(date, months, anchor);
        expect(isIsoDate(result)).toBe(true);
        const day = Number(result.slice(8));
        const nextDay = addDays(result, 1);
        // Either the anchor itself, or the month ran out before reaching it.
        expect(day === anchor || (day < anchor && nextDay.slice(8) === '01')).toBe(true);
        const [y, m] = date.split('-').map(Number) as [number, number];
        const [ry, rm] = result.split('-').map(Number) as [number, number];
        expect(ry * 12 + rm - (y * 12 + m)).toBe(months);
      }),
    );
  });
});

describe('daysBetween and addDays', () => {
  it('counts whole days, across a leap year and backwards', () => {
    expect(daysBetween('2026-01-01', '2026-01-31')).toBe(30);
    expect(daysBetween('2028-01-01', '2029-01-01')).toBe(366);
    expect(daysBetween('2027-01-01', '2028-01-01')).toBe(365);
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysBetween('2026-02-28', '2026-03-01')).toBe(1);
    expect(daysBetween('2026-03-01', '2026-02-28')).toBe(-1);
    expect(daysBetween('2000-02-28', '2000-03-01')).toBe(2);
    expect(daysBetween('2100-02-28', '2100-03-01')).toBe(1);
  });

  it('adds days across month, leap day and year ends', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(addDays('1970-01-01', 0)).toBe('1970-01-01');
    expect(() => addDays('2026-01-01', 0.5)).toThrow(RangeError);
    expect(() => daysBetween('2026-02-30', '2026-03-01')).toThrow(RangeError);
  });

  it('agrees with the UTC calendar of Date', () => {
    fc.assert(
      fc.property(isoDates, isoDates, fc.integer({ min: -40_000, max: 40_000 }), (from, to, days) => {
        expect(daysBetween(from, to)).toBe(utcDays(to) - utcDays(from));
        expect(addDays(from, days)).toBe(toIso(new Date(Date.parse(`${from}T00:00:00Z`) + days * DAY_MS)));
        expect(daysBetween(from, addDays(from, days))).toBe(days);
      }),
    );
  });
});
