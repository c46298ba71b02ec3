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

/**
 * A number as logs, audit rows and other people's screens may show it: the country code and the last four
 * digits (+91******3210). Anything that is not a digit is dropped; four digits or fewer show nothing.
 */
export function maskMobile(mobile: string): string {
  const digits = mobile.replace(/\D/g, '');
  if (digits.length <= 4) return '****';
  const country = mobile.startsWith('+') && digits.length > 10 ? digits.slice(0, -10) : '';
  return `${country ? `+${country}` : ''}${'*'.repeat(digits.length - country.length - 4)}${digits.slice(-4)}`;
}
