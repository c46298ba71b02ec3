/** Indian mobile numbers: the console sends +91 followed by the ten digits the retailer typed. */
import { COUNTRY_PREFIX } from './constants.ts';

const TEN_DIGITS = /^[6-9]\d{9}$/;
const E164_INDIA = /^\+91[6-9]\d{9}$/;

export function withCountryPrefix(entered: string): string {
  return `${COUNTRY_PREFIX}${entered.replace(/\D/g, '').slice(-10)}`;
}

export function isValidLocalMobile(entered: string): boolean {
  return TEN_DIGITS.test(entered);
}

export function isValidMobile(e164: string): boolean {
  return E164_INDIA.test(e164);
}

/** Shows only the last four digits, for logs and lists of other people's numbers. */
export function maskMobile(e164: string): string {
  return e164.length > 4 ? `${'*'.repeat(e164.length - 4)}${e164.slice(-4)}` : e164;
}
