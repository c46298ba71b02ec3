import { describe, expect, it } from 'vitest';
import { abbreviateNumber, formatDate, formatDateTime, isBirthdayToday, NOT_AVAILABLE, todayInIndia, truncateText, yearsLeft } from './format.ts';

describe('formatDateTime', () => {
  it('shows UTC instants in India time as DD-MM-YYYY hh:mm A', () => {
    expect(formatDateTime('2026-01-05T00:00:00Z')).toBe('05-01-2026 05:30 AM');
    expect(formatDateTime('2026-01-05T18:29:00Z')).toBe('05-01-2026 11:59 PM');
    expect(formatDateTime('2026-01-05T18:30:00Z')).toBe('06-01-2026 12:00 AM');
    expect(formatDateTime('2026-12-31T06:45:00Z')).toBe('31-12-2026 12:15 PM');
  });
  it('accepts dates and epoch milliseconds', () => {
    const instant = Date.UTC(2024, 1, 29, 12, 0);
    expect(formatDateTime(instant)).toBe('29-02-2024 05:30 PM');
    expect(formatDateTime(new Date(instant))).toBe('29-02-2024 05:30 PM');
  });
  it('shows N/A for empty or invalid input', () => {
    for (const v of [null, undefined, '', 'not a date']) expect(formatDateTime(v)).toBe(NOT_AVAILABLE);
  });
  it('formatDate keeps only the day', () => {
    expect(formatDate('2026-03-31T20:00:00Z')).toBe('01-04-2026');
  });
});

describe('abbreviateNumber', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [12.5, '12.50'],
    [1000, '1.00K'],
    [1234, '1.23K'],
    [99_999, '1.00L'],
    [99_994, '99.99K'],
    [9_999_999, '1.00Cr'],
    [999.999, '1.00K'],
    [999.99, '999.99'],
    [0.5, '0.50'],
    [100_000, '1.00L'],
    [2_550_000, '25.50L'],
    [10_000_000, '1.00Cr'],
    [123_456_789, '12.35Cr'],
    [-150_000, '-1.50L'],
    ['45000', '45.00K'],
  ])('%s -> %s', (input, expected) => {
    expect(abbreviateNumber(input)).toBe(expected);
  });
  it('shows N/A when empty', () => {
    for (const v of [null, undefined, '', 'abc']) expect(abbreviateNumber(v)).toBe(NOT_AVAILABLE);
  });
});

describe('truncateText', () => {
  it('keeps text of ten characters or fewer', () => {
    expect(truncateText('abcdefghij')).toBe('abcdefghij');
  });
  it('cuts after ten characters with an ellipsis', () => {
    expect(truncateText('abcdefghijk')).toBe('abcdefghij...');
  });
  it('counts characters, not code units', () => {
    expect(truncateText('😀😀😀😀😀😀😀😀😀😀😀')).toBe('😀😀😀😀😀😀😀😀😀😀...');
  });
  it('shows N/A when empty', () => {
    expect(truncateText('')).toBe(NOT_AVAILABLE);
    expect(truncateText(null)).toBe(NOT_AVAILABLE);
  });
});

describe('yearsLeft', () => {
  const now = new Date('2026-11-21T10:00:00Z');
  it.each([
    [0, 0],
    [364, 0],
    [365, 1], // 2026-11-21 -> 2027-11-21
    [729, 1],
    [730, 1], // 2028 is a leap year: 730 days end on 20-11-2028
    [731, 2],
    [1096, 3], // crosses 29-02-2028
    [-10, 0],
  ])('%i days -> %i years', (days, years) => {
    expect(yearsLeft(days, now)).toBe(years);
  });
  it('counts a leap day', () => {
    expect(yearsLeft(365, new Date('2028-01-01T00:00:00Z'))).toBe(0);
    expect(yearsLeft(366, new Date('2028-01-01T00:00:00Z'))).toBe(1);
  });
});

describe('isBirthdayToday', () => {
  it('matches month and day in India time', () => {
    expect(isBirthdayToday('1990-11-22', new Date('2026-11-21T19:00:00Z'))).toBe(true);
    expect(isBirthdayToday('1990-11-21', new Date('2026-11-21T19:00:00Z'))).toBe(false);
    expect(isBirthdayToday(null)).toBe(false);
    expect(isBirthdayToday('garbage')).toBe(false);
  });
});

describe('todayInIndia', () => {
  it('turns over at midnight India time, not UTC', () => {
    expect(todayInIndia(new Date('2026-11-21T18:29:59Z'))).toBe('2026-11-21');
    expect(todayInIndia(new Date('2026-11-21T18:30:00Z'))).toBe('2026-11-22');
  });
});
