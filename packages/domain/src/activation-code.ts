/**
 * Anti-hacking activation codes: 16 digits, read aloud over the shop counter and typed on the customer's phone.
 * 15 random digits and a Verhoeff check digit (the scheme Aadhaar numbers use): it catches every single wrong
 * digit and every swap of two neighbouring digits, so a typo is refused on the phone and by the server before
 * any lookup. Shown in four groups of four. Digits only: they read the same in every language of the console.
 */

// Verhoeff's tables: the dihedral group D5's multiplication, the position permutation, and the inverse.
const D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];
const INVERSE = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9];

export const ACTIVATION_CODE_DIGITS = 16;

/** The Verhoeff check digit of a string of digits. */
export function verhoeffCheckDigit(digits: string): number {
  let c = 0;
  // Position 0 is the check digit's place, so the payload's rightmost digit is position 1.
  for (let i = 0; i < digits.length; i++) c = D[c]![P[(i + 1) % 8]![digits.charCodeAt(digits.length - 1 - i) - 48]!]!;
  return INVERSE[c]!;
}

/** Whether a string of digits (check digit last) passes Verhoeff's check. */
export function passesVerhoeff(digits: string): boolean {
  return /^\d{2,}$/.test(digits) && verhoeffCheckDigit(digits.slice(0, -1)) === digits.charCodeAt(digits.length - 1) - 48;
}

/**
 * A new code from 15 random digits (`randomDigit` is the caller's source of randomness: crypto on the server).
 * The first digit is never 0, so a code never loses a digit in a spreadsheet.
 */
export function newActivationCode(randomDigit: () => number): string {
  let body = String(1 + (randomDigit() % 9));
  while (body.length < ACTIVATION_CODE_DIGITS - 1) body += String(randomDigit() % 10);
  return `${body}${verhoeffCheckDigit(body)}`;
}

/** The code as typed or pasted (spaces, dashes) reduced to its digits; null when it is not a well-formed code. */
export function parseActivationCode(input: string): string | null {
  if (input.length > 40) return null;
  const digits = input.replace(/[\s-]/g, '');
  if (digits.length !== ACTIVATION_CODE_DIGITS || !passesVerhoeff(digits)) return null;
  return digits;
}

/** "4821 0937 5562 1180": four groups of four, for reading aloud. */
export function formatActivationCode(code: string): string {
  return code.replace(/(\d{4})(?=\d)/g, '$1 ');
}
