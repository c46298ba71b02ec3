/**
 * Exact arithmetic for money rules: non-negative fractions of BigInts, decimal strings read without a float,
 * and division rounded by a named rule. No float decides a paisa anywhere these are used.
 */

export type RoundingMode = 'half_up' | 'half_even' | 'down' | 'up';
export const ROUNDING_MODES: readonly RoundingMode[] = ['half_up', 'half_even', 'down', 'up'];

/** n / d with d > 0. */
export interface Fraction {
  readonly n: bigint;
  readonly d: bigint;
}

const gcd = (a: bigint, b: bigint): bigint => {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

export function fraction(n: bigint, d: bigint = 1n): Fraction {
  if (d <= 0n) throw new RangeError('a fraction needs a positive denominator');
  const g = gcd(n, d);
  return g > 1n ? { n: n / g, d: d / g } : { n, d };
}

export const ZERO: Fraction = { n: 0n, d: 1n };
export const ONE: Fraction = { n: 1n, d: 1n };

export const add = (a: Fraction, b: Fraction): Fraction => fraction(a.n * b.d + b.n * a.d, a.d * b.d);
export const sub = (a: Fraction, b: Fraction): Fraction => fraction(a.n * b.d - b.n * a.d, a.d * b.d);
export const mul = (a: Fraction, b: Fraction): Fraction => fraction(a.n * b.n, a.d * b.d);
export function div(a: Fraction, b: Fraction): Fraction {
  if (b.n === 0n) throw new RangeError('division by zero');
  return b.n < 0n ? fraction(-a.n * b.d, a.d * -b.n) : fraction(a.n * b.d, a.d * b.n);
}
export const compare = (a: Fraction, b: Fraction): number => {
  const left = a.n * b.d;
  const right = b.n * a.d;
  return left < right ? -1 : left > right ? 1 : 0;
};

/**
 * A decimal written as text ("13.99", "10.125", "0") as an exact fraction; null when it is not a plain
 * non-negative decimal with at most `maxDecimals` digits after the point.
 */
export function parseDecimal(text: string, maxDecimals = 6): Fraction | null {
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return null;
  const decimals = match[2] ?? '';
  if (decimals.length > maxDecimals) return null;
  return fraction(BigInt(match[1]! + decimals), 10n ** BigInt(decimals.length));
}

/**
 * The non-negative value `n / d` rounded to a whole multiple of `step` by `mode`: half_up (halves away from
 * zero), half_even (halves to the even multiple, the banker's rule), down (towards zero) or up.
 */
export function roundFraction(value: Fraction, mode: RoundingMode, step = 1n): bigint {
  if (value.n < 0n) throw new RangeError('only non-negative values are rounded here');
  if (step <= 0n) throw new RangeError('the rounding step must be positive');
  const d = value.d * step;
  const q = value.n / d;
  const r = value.n - q * d;
  if (r === 0n) return q * step;
  switch (mode) {
    case 'down':
      return q * step;
    case 'up':
      return (q + 1n) * step;
    case 'half_up':
      return (2n * r >= d ? q + 1n : q) * step;
    case 'half_even': {
      const twice = 2n * r;
      if (twice > d) return (q + 1n) * step;
      if (twice < d) return q * step;
      return (q % 2n === 0n ? q : q + 1n) * step;
    }
  }
}

/** A whole number of paise from an exact BigInt that is known to be within the safe range. */
export function toSafeNumber(value: bigint): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new RangeError(`${value} is outside the safe integer range`);
  return number;
}
