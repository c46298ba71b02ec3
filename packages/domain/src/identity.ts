/** Identity document numbers are shown masked everywhere: only the last four characters stay readable. */

export const ID_TYPES = ['AADHAAR', 'PAN', 'VOTER_ID', 'DRIVING_LICENCE', 'PASSPORT'] as const;
export type IdType = (typeof ID_TYPES)[number];

const ID_PATTERNS: Record<IdType, RegExp> = {
  AADHAAR: /^[2-9]\d{11}$/,
  PAN: /^[A-Z]{5}\d{4}[A-Z]$/,
  VOTER_ID: /^[A-Z]{3}\d{7}$/,
  DRIVING_LICENCE: /^[A-Z]{2}\d{2}[ -]?\d{4}\d{7}$/,
  PASSPORT: /^[A-PR-WY][1-9]\d\s?\d{4}[1-9]$/,
};

export function normaliseIdNumber(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

export function isValidIdNumber(type: IdType, value: string): boolean {
  return ID_PATTERNS[type].test(normaliseIdNumber(value));
}

export function maskIdNumber(value: string | null | undefined): string | null {
  if (!value) return null;
  const clean = normaliseIdNumber(value);
  return clean.length <= 4 ? '*'.repeat(clean.length) : `${'X'.repeat(clean.length - 4)}${clean.slice(-4)}`;
}
