/**
 * Calendar dates as 'YYYY-MM-DD' strings (proleptic Gregorian, years 0000-9999). Pure integer
 * arithmetic on day numbers, so no time zone or daylight-saving shift can move a due date.
 */

interface CalendarDate {
  year: number;
  month: number; // 1..12
  day: number; // 1..31
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MAX_YEAR = 9999;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function parseDate(value: string): CalendarDate | null {
  if (typeof value !== 'string') return null; // callers may pass unchecked JSON at run time
  const match = ISO_DATE.exec(value);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

function parseOrThrow(value: string): CalendarDate {
  const date = parseDate(value);
  if (!date) throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${String(value)}`);
  return date;
}

function requireInteger(value: number, name: string): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} must be an integer, got ${value}`);
}

function formatDate({ year, month, day }: CalendarDate): string {
  if (year < 0 || year > MAX_YEAR) throw new RangeError(`Date outside years 0000-${MAX_YEAR}`);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

// Days since 1970-01-01 and back, after Howard Hinnant's days_from_civil / civil_from_days: eras of
// 400 years starting in March put the leap day last, so the month lengths need no table.
function toDayNumber({ year, month, day }: CalendarDate): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const monthFromMarch = (month + 9) % 12;
  const dayOfYear = Math.floor((153 * monthFromMarch + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function fromDayNumber(dayNumber: number): CalendarDate {
  const z = dayNumber + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return { year, month, day };
}

/** True for a real calendar date written exactly as YYYY-MM-DD (so '2026-02-30' and '2026-2-3' are not). */
export function isIsoDate(value: string): boolean {
  return parseDate(value) !== null;
}

/**
 * Adds whole months (negative allowed) and lands on `anchorDay` (default: the day of `isoDate`),
 * clamped to the last day of a short month. Keeping the anchor separate from the date means a
 * 31st-of-month schedule goes 31 Jan, 28 Feb, 31 Mar instead of drifting to the 28th for good.
 */
export function addMonths(isoDate: string, months: number, anchorDay?: number): string {
  const date = parseOrThrow(isoDate);
  requireInteger(months, 'months');
  const anchor = anchorDay ?? date.day;
  if (!Number.isInteger(anchor) || anchor < 1 || anchor > 31) {
    throw new RangeError(`anchorDay must be an integer 1..31, got ${anchor}`);
  }
  const monthIndex = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12 + 1;
  return formatDate({ year, month, day: Math.min(anchor, daysInMonth(year, month)) });
}

/** Whole days from `fromIso` to `toIso` (negative when `toIso` is earlier). */
export function daysBetween(fromIso: string, toIso: string): number {
  return toDayNumber(parseOrThrow(toIso)) - toDayNumber(parseOrThrow(fromIso));
}

/** The date `days` days after `isoDate` (before it when negative). */
export function addDays(isoDate: string, days: number): string {
  const date = parseOrThrow(isoDate);
  requireInteger(days, 'days');
  return formatDate(fromDayNumber(toDayNumber(date) + days));
}
