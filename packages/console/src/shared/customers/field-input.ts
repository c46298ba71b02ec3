/** Input clean-up shared by the add-customer form and the customer edit dialogs. */

/** An IMEI is fifteen digits, the last a check digit. */
export const IMEI_LENGTH = 15;

/** Keeps the digits of what was typed or pasted, at most `max` of them. */
export function digitsOnly(value: string, max: number): string {
  return value.replace(/\D/g, '').slice(0, max);
}

/** Ten local digits of a mobile number typed or pasted with +91, spaces or dashes. */
export function localMobile(value: string): string {
  const digits = value.replace(/\D/g, '');
  return digits.length > 10 ? digits.slice(-10) : digits;
}
