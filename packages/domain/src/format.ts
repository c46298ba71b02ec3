/** Display formatting rules of the console: India time, abbreviated amounts, truncation, years left. */
import { TRUNCATE_AFTER } from './constants.ts';

export const NOT_AVAILABLE = 'N/A';
const IST_OFFSET_MINUTES = 5 * 60 + 30;

type DateInput = Date | string | number | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Formats an instant as DD-MM-YYYY hh:mm A in UTC+05:30, whatever the viewer's time zone. */
export function formatDateTime(value: DateInput): string {
  const date = toDate(value);
  if (!date) return NOT_AVAILABLE;
  // Shift the instant by the fixed offset and read the UTC fields: India has no daylight saving.
  const ist = new Date(date.getTime() + IST_OFFSET_MINUTES * 60_000);
  const hours24 = ist.getUTCHours();
  const hours12 = hours24 % 12 === 0 ? 12 : hours24 % 12;
  const meridiem = hours24 < 12 ? 'AM' : 'PM';
  return `${pad(ist.getUTCDate())}-${pad(ist.getUTCMonth() + 1)}-${ist.getUTCFullYear()} ${pad(hours12)}:${pad(ist.getUTCMinutes())} ${meridiem}`;
}

/** Formats a calendar date (the day only) as DD-MM-YYYY in UTC+05:30. */
export function formatDate(value: DateInput): string {
  const full = formatDateTime(value);
  return full === NOT_AVAILABLE ? full : full.slice(0, 10);
}

const UNITS = [
  { size: 1, suffix: '' },
  { size: 1e3, suffix: 'K' },
  { size: 1e5, suffix: 'L' },
  { size: 1e7, suffix: 'Cr' },
] as const;

/**
 * Abbreviates large numbers the Indian way: K (thousand), L (lakh, 1e5), Cr (crore, 1e7), two decimals.
 * When rounding reaches the next unit it moves up, so 99,999 shows 1.00L rather than 100.00K.
 */
export function abbreviateNumber(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return NOT_AVAILABLE;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return NOT_AVAILABLE;
  const sign = n < 0 ? '-' : '';
  const abs = Math.abs(n);
  let i = UNITS.findLastIndex((u) => abs >= u.size);
  if (i < 0) i = 0;
  let hundredths = Math.round((abs / UNITS[i]!.size) * 100);
  const next = UNITS[i + 1];
  if (next && hundredths * UNITS[i]!.size >= next.size * 100) {
    i += 1;
    hundredths = Math.round((abs / next.size) * 100);
  }
  const unit = UNITS[i]!;
  const digits = unit.suffix === '' && hundredths % 100 === 0 ? String(hundredths / 100) : (hundredths / 100).toFixed(2);
  return `${sign}${digits}${unit.suffix}`;
}

/** Cuts text longer than the limit and marks the cut with an ellipsis. */
export function truncateText(text: string | null | undefined, limit: number = TRUNCATE_AFTER): string {
  if (text === null || text === undefined || text === '') return NOT_AVAILABLE;
  const chars = Array.from(text); // count characters, not UTF-16 units, so Indic text is not split mid-character
  return chars.length > limit ? `${chars.slice(0, limit).join('')}...` : text;
}

/** Whole calendar years between `now` and `now` plus `days` days (floor). */
export function yearsLeft(days: number, now: Date = new Date()): number {
  if (!Number.isFinite(days) || days <= 0) return 0;
  const end = new Date(now.getTime() + days * 86_400_000);
  let years = end.getUTCFullYear() - now.getUTCFullYear();
  const endMonthDay = [end.getUTCMonth(), end.getUTCDate(), end.getUTCHours(), end.getUTCMinutes(), end.getUTCSeconds()];
  const startMonthDay = [now.getUTCMonth(), now.getUTCDate(), now.getUTCHours(), now.getUTCMinutes(), now.getUTCSeconds()];
  for (let i = 0; i < endMonthDay.length; i++) {
    const a = endMonthDay[i]!;
    const b = startMonthDay[i]!;
    if (a !== b) {
      if (a < b) years -= 1;
      break;
    }
  }
  return Math.max(0, years);
}

/** Today's month and day in India, used for the retailer's birthday celebration. */
export function isBirthdayToday(birthday: string | null | undefined, now: Date = new Date()): boolean {
  if (!birthday) return false;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(birthday);
  if (!match) return false;
  const ist = new Date(now.getTime() + IST_OFFSET_MINUTES * 60_000);
  return Number(match[2]) === ist.getUTCMonth() + 1 && Number(match[3]) === ist.getUTCDate();
}

/** Today's calendar date in India (YYYY-MM-DD), the date loans and dues are counted in. */
export function todayInIndia(now: Date = new Date()): string {
  return new Date(now.getTime() + IST_OFFSET_MINUTES * 60_000).toISOString().slice(0, 10);
}
