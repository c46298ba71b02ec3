/** IMEI numbers: 15 digits whose last digit is the Luhn check digit of the first 14. */

export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  // Walking from the right, every second digit (starting with the rightmost of the payload) is doubled.
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidImei(value: string): boolean {
  return /^\d{15}$/.test(value) && luhnCheckDigit(value.slice(0, 14)) === Number(value[14]);
}

/** Completes a 14-digit body with its check digit (tests and the device simulator make IMEIs with it). */
export function withImeiCheckDigit(body14: string): string {
  if (!/^\d{14}$/.test(body14)) throw new RangeError('an IMEI body has 14 digits');
  return `${body14}${luhnCheckDigit(body14)}`;
}
