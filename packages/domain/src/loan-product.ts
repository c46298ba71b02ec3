/**
 * Loan products: every schedule convention a lender names, applied exactly (decision 027).
 *
 * A product fixes by name how a loan's schedule is built; a loan keeps a copy of its product's settings, so a
 * later change to the product never rewrites an existing schedule. Every amount is an integer number of paise
 * computed from exact fractions (exact.ts); the only float is the APR's root search, a rate shown to two
 * decimals, never an amount.
 *
 * The settings:
 * - amortisation: `equal_instalments` (one amount each period, an annuity on a reducing balance) or
 *   `equal_principal` (the same principal each period, interest on what is left).
 * - interest: `reducing` (on the balance), `flat` (on the whole financed amount for the whole tenure) or `zero`.
 * - periodRate: `nominal` takes one period's rate as the annual rate over the periods in a year (annual / 12
 *   a month, annual / 52 a week, annual / daysInYear a day, times N for every N of them; Fineract's "same as
 *   repayment period"); `actual_days` charges each period
 *   annual x (days since the previous due date) / daysInYear. With daysInYear `actual`, the days of a period
 *   that fall in a leap year count 1/366 each and the rest 1/365 (actual/actual); with 365 a leap year's
 *   366th day simply adds a day's interest (actual/365 fixed). On a reducing balance the equal instalment is
 *   always the annuity at the nominal rate, and the last instalment absorbs what actual days change.
 * - frequency: every N months, weeks or days.
 * - instalmentRounding: the equal amount (or equal principal) is rounded to a multiple of N paise (1 = the
 *   paisa, 100 = the rupee) by half_up, half_even, down or up; interestRounding rounds each period's interest
 *   to the paisa. `absorb` names which instalment takes the difference: the last (always, on a reducing
 *   equal-instalment loan, whose balance decides it) or the first.
 * - principalGrace: the first N regular periods pay interest only, or nothing (their interest is then due
 *   with the first instalment after the grace, never capitalised, never earning interest).
 * - noCost: the lender's interest is given as an upfront discount. The customer pays price / n each period;
 *   the loan is the present value of those payments at the product's rate; GST (gstOnInterestBps, 18%) on
 *   each period's interest is charged to the customer on top, and shown.
 * Advance instalments are collected at disbursement, all principal and interest-free; the down payment is
 * never financed; the processing fee is collected upfront and counts in the APR.
 */
import { addDays, addMonths, daysBetween, isIsoDate } from './calendar.ts';
import type { LoanTerms } from './emi.ts';
import {
  add, compare, div, fraction, mul, ONE, parseDecimal, roundFraction, toSafeNumber, ZERO,
  ROUNDING_MODES, type Fraction, type RoundingMode,
} from './exact.ts';

export type { RoundingMode } from './exact.ts';
export type Amortisation = 'equal_instalments' | 'equal_principal';
export type InterestKind = 'reducing' | 'flat' | 'zero';
export type FrequencyUnit = 'month' | 'week' | 'day';
export type AllocationAcross = 'instalment' | 'component';
export type Component = 'penalty' | 'interest' | 'principal';

export interface LoanProductSettings {
  amortisation: Amortisation;
  interest: InterestKind;
  periodRate: 'nominal' | 'actual_days';
  daysInYear: 360 | 364 | 365 | 'actual';
  frequency: { unit: FrequencyUnit; every: number };
  instalmentRounding: { multipleOfPaise: number; mode: RoundingMode };
  interestRounding: RoundingMode;
  absorb: 'last' | 'first';
  principalGrace: { periods: number; kind: 'interest_only' | 'nothing' };
  noCost: boolean;
  /** GST on the interest of a no-cost loan, in basis points (1800 = 18%); 0 otherwise. */
  gstOnInterestBps: number;
  /**
   * How a payment is split: the order of the parts, and whether an instalment is settled whole before the next
   * (`instalment`: oldest instalment's penalty, interest, principal, then the next) or each part across every
   * due instalment first (`component`: all penalties oldest first, then all interest, then principal).
   */
  allocation: { order: Component[]; across: AllocationAcross };
  /** Charged on the principal outstanding when a loan is closed early, in basis points; 0 = none. */
  foreclosureFeeBps: number;
  /**
   * Reducing equal instalments: the annuity at the nominal rate (`nominal_rate`), or over each period's own rate
   * (`period_rates`, which differ with actual days; Fineract's progressive schedules).
   */
  emiFrom: 'nominal_rate' | 'period_rates';
  /**
   * `closest_last`: the rounded instalment moves a step up or down while that brings the last instalment
   * closer to it (Fineract's progressive schedules); `none` keeps the rounded exact instalment.
   */
  emiAdjustment: 'none' | 'closest_last';
}

/** The product the platform has always used: monthly, reducing, EMI rounded to the rupee half up, the last absorbs. */
export const STANDARD_PRODUCT: LoanProductSettings = {
  amortisation: 'equal_instalments',
  interest: 'reducing',
  periodRate: 'nominal',
  daysInYear: 365,
  frequency: { unit: 'month', every: 1 },
  instalmentRounding: { multipleOfPaise: 100, mode: 'half_up' },
  interestRounding: 'half_up',
  absorb: 'last',
  principalGrace: { periods: 0, kind: 'interest_only' },
  noCost: false,
  gstOnInterestBps: 0,
  allocation: { order: ['penalty', 'interest', 'principal'], across: 'instalment' },
  foreclosureFeeBps: 0,
  emiFrom: 'nominal_rate',
  emiAdjustment: 'none',
};

export interface LoanRequest {
  pricePaise: number;
  downPaymentPaise: number;
  processingFeePaise: number;
  /** Per year, an exact decimal percentage: "14", "13.99", "10.125". */
  annualRate: string;
  /** Number of instalments, advance ones included. */
  periods: number;
  advanceInstalments: number;
  /** YYYY-MM-DD: the loan is paid out (the phone handed over); advance instalments fall due that day. */
  disbursementDate: string;
  /** YYYY-MM-DD: the first regular instalment. */
  firstDueDate: string;
  /**
   * Monthly loans: the day of the month instalments fall on, clamped in short months (31: 31 Jan, 29 Feb,
   * 31 Mar). Default: the first due date's day.
   */
  dueDay?: number;
}

export interface ProductInstalment {
  number: number;
  dueDate: string;
  principalPaise: number;
  interestPaise: number;
  /** GST on the interest (no-cost loans), due with the instalment. */
  taxPaise: number;
  /** principal + interest + tax. */
  amountPaise: number;
  balanceAfterPaise: number;
  advance: boolean;
}

export interface ProductSchedule {
  /** The loan's principal: price - down payment, or its present value on a no-cost loan. */
  financedPaise: number;
  /** No-cost loans: the interest given upfront (price - down payment - financed). */
  discountPaise: number;
  totalInterestPaise: number;
  totalTaxPaise: number;
  /** Sum of the instalments' amounts. */
  totalPayablePaise: number;
  /** The regular amount (equal instalments) or regular principal (equal principal). */
  emiPaise: number;
  /** Down payment + processing fee + advance instalments. */
  upfrontPaise: number;
  instalments: ProductInstalment[];
}

/** Which rule refused the request: a field out of range, a combination no lender uses, or a loan too small to split. */
export type ProductRule = 'loan_terms' | 'product_settings' | 'financed_below_tenure';

export class LoanProductError extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly rule: ProductRule = 'loan_terms',
  ) {
    super(`${field}: ${message}`);
    this.name = 'LoanProductError';
  }
}

/** Rs 1,000 crore: far above any device; every total stays a safe integer. */
const MAX_AMOUNT_PAISE = 1_000_000_000_000;
const MAX_RATE: Fraction = fraction(100n);
/** Twenty years of monthly instalments, ten of weekly or daily ones: past what lenders sell (120 monthly, 260 weekly). */
export const MAX_PERIODS: Record<FrequencyUnit, number> = { month: 240, week: 520, day: 3660 };
const HUNDRED = 100n;

// ---------------------------------------------------------------------------------------------- validation

export function validateProduct(product: LoanProductSettings): void {
  const bad = (field: string, message: string) => new LoanProductError(field, message, 'product_settings');
  // Settings are stored as JSON: one missing a part is refused by name, not read into a TypeError.
  const parts = product as unknown as Record<string, unknown> | null;
  for (const part of ['frequency', 'instalmentRounding', 'principalGrace', 'allocation'] as const) {
    if (typeof parts?.[part] !== 'object' || parts[part] === null) throw bad(part, 'is missing');
  }
  if (!Array.isArray(product.allocation.order)) throw bad('allocation.order', 'is missing');
  if (product.amortisation !== 'equal_instalments' && product.amortisation !== 'equal_principal') throw bad('amortisation', String(product.amortisation));
  if (!['reducing', 'flat', 'zero'].includes(product.interest)) throw bad('interest', String(product.interest));
  if (product.periodRate !== 'nominal' && product.periodRate !== 'actual_days') throw bad('periodRate', String(product.periodRate));
  if (![360, 364, 365, 'actual'].includes(product.daysInYear)) throw bad('daysInYear', String(product.daysInYear));
  const { unit, every } = product.frequency;
  if (!['month', 'week', 'day'].includes(unit)) throw bad('frequency.unit', String(unit));
  if (!Number.isInteger(every) || every < 1 || every > (unit === 'day' ? 365 : unit === 'week' ? 52 : 12)) throw bad('frequency.every', String(every));
  const multiple = product.instalmentRounding.multipleOfPaise;
  if (!Number.isInteger(multiple) || multiple < 1 || multiple > 100_000) throw bad('instalmentRounding.multipleOfPaise', String(multiple));
  if (!ROUNDING_MODES.includes(product.instalmentRounding.mode)) throw bad('instalmentRounding.mode', String(product.instalmentRounding.mode));
  if (!ROUNDING_MODES.includes(product.interestRounding)) throw bad('interestRounding', String(product.interestRounding));
  if (product.absorb !== 'last' && product.absorb !== 'first') throw bad('absorb', String(product.absorb));
  if (product.absorb === 'first' && product.interest === 'reducing' && product.amortisation === 'equal_instalments') {
    throw bad('absorb', 'a reducing-balance annuity settles its rounding in the last instalment, where the balance ends');
  }
  const grace = product.principalGrace;
  if (!Number.isInteger(grace.periods) || grace.periods < 0 || (grace.kind !== 'interest_only' && grace.kind !== 'nothing')) throw bad('principalGrace', JSON.stringify(grace));
  if (product.noCost && (product.interest !== 'reducing' || product.amortisation !== 'equal_instalments' || grace.periods > 0)) {
    throw bad('noCost', 'a no-cost loan is an equal-instalment, reducing-balance loan without grace');
  }
  if (!Number.isInteger(product.gstOnInterestBps) || product.gstOnInterestBps < 0 || product.gstOnInterestBps > 10_000) throw bad('gstOnInterestBps', String(product.gstOnInterestBps));
  if (product.gstOnInterestBps > 0 && !product.noCost) throw bad('gstOnInterestBps', 'GST on interest applies to no-cost loans only');
  const order = product.allocation.order;
  if (order.length !== 3 || new Set(order).size !== 3 || !order.every((c) => c === 'penalty' || c === 'interest' || c === 'principal')) throw bad('allocation.order', order.join(','));
  if (product.allocation.across !== 'instalment' && product.allocation.across !== 'component') throw bad('allocation.across', String(product.allocation.across));
  if (!Number.isInteger(product.foreclosureFeeBps) || product.foreclosureFeeBps < 0 || product.foreclosureFeeBps > 1000) throw bad('foreclosureFeeBps', String(product.foreclosureFeeBps));
  if (product.emiFrom !== 'nominal_rate' && product.emiFrom !== 'period_rates') throw bad('emiFrom', String(product.emiFrom));
  if (product.emiAdjustment !== 'none' && product.emiAdjustment !== 'closest_last') throw bad('emiAdjustment', String(product.emiAdjustment));
}

function requirePaise(request: LoanRequest, field: 'pricePaise' | 'downPaymentPaise' | 'processingFeePaise'): number {
  const value = request[field];
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_AMOUNT_PAISE) throw new LoanProductError(field, `must be 0..${MAX_AMOUNT_PAISE} whole paise, got ${value}`);
  return value;
}

/** The annual rate as a fraction of one (13.99% -> 1399/10000). */
export function annualRateOf(text: string): Fraction {
  const percent = typeof text === 'string' ? parseDecimal(text) : null;
  if (!percent || compare(percent, MAX_RATE) > 0) throw new LoanProductError('annualRate', `must be a decimal percentage 0..100 with at most 6 decimals, got ${String(text)}`);
  return mul(percent, fraction(1n, HUNDRED));
}

/** What enrolment offers with a loan product: a rate up to 60% a year (as without one), up to 520 instalments. */
export const MAX_OFFERED_PERIODS = 520;
const MAX_OFFERED_RATE: Fraction = fraction(60n);

/**
 * A rate typed for a loan product: a decimal percentage of at most 4 places, 0 to 60. Its text as the loan keeps
 * it, and its basis points rounded half up (for the columns that show a rate that way); null when it is not one.
 */
export function offeredRate(text: string): { rate: string; bps: number } | null {
  const rate = text.trim();
  const exact = /^\d{1,2}(\.\d{1,4})?$/.test(rate) ? parseDecimal(rate) : null;
  if (!exact || compare(exact, MAX_OFFERED_RATE) > 0) return null;
  return { rate, bps: Number(roundFraction(mul(exact, fraction(100n)), 'half_up')) };
}

/** The standard loan's terms (emi.ts) as a product's request, at an exact rate. */
export function requestFromTerms(terms: LoanTerms, annualRate: string): LoanRequest {
  return {
    pricePaise: terms.pricePaise, downPaymentPaise: terms.downPaymentPaise, processingFeePaise: terms.processingFeePaise, annualRate,
    periods: terms.tenureMonths, advanceInstalments: terms.advanceEmis, disbursementDate: terms.startDate, firstDueDate: terms.firstDueDate,
  };
}

export function validateRequest(product: LoanProductSettings, request: LoanRequest): void {
  validateProduct(product);
  const price = requirePaise(request, 'pricePaise');
  if (price === 0) throw new LoanProductError('pricePaise', 'must be more than 0');
  const down = requirePaise(request, 'downPaymentPaise');
  if (down >= price) throw new LoanProductError('downPaymentPaise', 'must be less than the price');
  requirePaise(request, 'processingFeePaise');
  const rate = annualRateOf(request.annualRate);
  if (product.interest === 'zero' && rate.n !== 0n) throw new LoanProductError('annualRate', 'a 0% product takes no rate');
  if (product.noCost && rate.n === 0n) throw new LoanProductError('annualRate', 'a no-cost loan needs the lender\'s rate to work out its discount');
  const max = MAX_PERIODS[product.frequency.unit];
  if (!Number.isInteger(request.periods) || request.periods < 1 || request.periods > max) throw new LoanProductError('periods', `must be an integer 1..${max}, got ${request.periods}`);
  const advance = request.advanceInstalments;
  if (!Number.isInteger(advance) || advance < 0 || advance >= request.periods) throw new LoanProductError('advanceInstalments', `must be an integer 0..${request.periods - 1}, got ${advance}`);
  if (product.principalGrace.periods >= request.periods - advance) {
    throw new LoanProductError('principalGrace', `leaves no instalment to repay the principal: ${product.principalGrace.periods} of ${request.periods - advance} regular periods`, 'product_settings');
  }
  if (!isIsoDate(request.disbursementDate)) throw new LoanProductError('disbursementDate', `must be YYYY-MM-DD, got ${request.disbursementDate}`);
  if (!isIsoDate(request.firstDueDate)) throw new LoanProductError('firstDueDate', `must be YYYY-MM-DD, got ${request.firstDueDate}`);
  if (request.firstDueDate <= request.disbursementDate) throw new LoanProductError('firstDueDate', 'must be after the disbursement date');
  const day = request.dueDay;
  if (day !== undefined && (!Number.isInteger(day) || day < 1 || day > 31 || day < Number(request.firstDueDate.slice(8)))) {
    throw new LoanProductError('dueDay', `must be a day 1..31, not before the first due date's, got ${String(day)}`);
  }
  try {
    regularDueDate(product, request.firstDueDate, request.periods - advance - 1, day);
  } catch {
    throw new LoanProductError('firstDueDate', 'the last due date falls after the year 9999');
  }
}

// ---------------------------------------------------------------------------------------------- periods

/** The due date of regular instalment `index` (0 = the first due date). */
function regularDueDate(product: LoanProductSettings, firstDueDate: string, index: number, dueDay?: number): string {
  const { unit, every } = product.frequency;
  if (unit === 'month') return addMonths(firstDueDate, index * every, dueDay);
  return addDays(firstDueDate, index * every * (unit === 'week' ? 7 : 1));
}

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** A year's share of the days from `from` to `to` (exclusive of `from`), by the product's day count. */
function yearFraction(product: LoanProductSettings, from: string, to: string): Fraction {
  if (product.daysInYear !== 'actual') return fraction(BigInt(daysBetween(from, to)), BigInt(product.daysInYear));
  // Actual/actual: each calendar year's days over that year's length. A day belongs to the year of the date it
  // ends on, as Fineract counts: 12 Dec 2023 to 12 Jan 2024 is 19 days of 2023 and 12 of 2024.
  let total = ZERO;
  let cursor = from;
  while (cursor < to) {
    const year = Number(addDays(cursor, 1).slice(0, 4));
    const yearEnd = `${String(year).padStart(4, '0')}-12-31`;
    const stop = to < yearEnd ? to : yearEnd;
    const days = daysBetween(cursor, stop);
    total = add(total, fraction(BigInt(days), isLeap(year) ? 366n : 365n));
    cursor = stop;
  }
  return total;
}

/** One period's rate at the nominal convention. */
function nominalPeriodRate(product: LoanProductSettings, annual: Fraction): Fraction {
  const { unit, every } = product.frequency;
  // As Fineract counts periods in a year: 12 months, 52 weeks, and daysInYear days (365 for actual).
  // Under actual days a week is 7 days of the product's year, as its periods are charged.
  if (unit === 'month') return mul(annual, fraction(BigInt(every), 12n));
  const year = product.daysInYear === 'actual' ? 365n : BigInt(product.daysInYear);
  if (unit === 'week') return mul(annual, product.periodRate === 'actual_days' ? fraction(BigInt(every * 7), year) : fraction(BigInt(every), 52n));
  return mul(annual, fraction(BigInt(every), year));
}

interface Period {
  start: string;
  due: string;
  rate: Fraction;
}

function regularPeriods(product: LoanProductSettings, request: LoanRequest, annual: Fraction): Period[] {
  const count = request.periods - request.advanceInstalments;
  const nominal = nominalPeriodRate(product, annual);
  const periods: Period[] = [];
  let start = request.disbursementDate;
  for (let i = 0; i < count; i++) {
    const due = regularDueDate(product, request.firstDueDate, i, request.dueDay);
    const rate = product.periodRate === 'nominal' ? nominal : mul(annual, yearFraction(product, start, due));
    periods.push({ start, due, rate });
    start = due;
  }
  return periods;
}

// ---------------------------------------------------------------------------------------------- schedules

const paise = (value: bigint) => toSafeNumber(value);
const asFraction = (value: number | bigint) => fraction(BigInt(value));

/**
 * `count` amounts of `total` each rounded to the product's step; the absorber takes the rest. When the rest
 * would be 0 or less the amount drops a step at a time; an amount of 0 means the loan is too small.
 */
function equalShares(product: LoanProductSettings, total: bigint, count: number, field: string): { each: bigint; amounts: bigint[] } {
  const step = BigInt(product.instalmentRounding.multipleOfPaise);
  let each = roundFraction(fraction(total, BigInt(count)), product.instalmentRounding.mode, step);
  while (each > 0n && total - BigInt(count - 1) * each <= 0n) each -= step;
  if (each <= 0n) throw new LoanProductError(field, `${total} paise cannot be split into ${count} instalments`, 'financed_below_tenure');
  const amounts = Array.from({ length: count }, () => each);
  amounts[product.absorb === 'first' ? 0 : count - 1] = total - BigInt(count - 1) * each;
  return { each, amounts };
}

interface Row {
  due: string;
  principal: bigint;
  interest: bigint;
  advance: boolean;
}

function finish(product: LoanProductSettings, request: LoanRequest, financed: bigint, discount: bigint, emi: bigint, rows: Row[]): ProductSchedule {
  let balance = financed;
  const gst = BigInt(product.gstOnInterestBps);
  const instalments = rows.map((row, i): ProductInstalment => {
    balance -= row.principal;
    const tax = gst > 0n ? roundFraction(fraction(row.interest * gst, 10_000n), 'half_up') : 0n;
    return {
      number: i + 1, dueDate: row.due, principalPaise: paise(row.principal), interestPaise: paise(row.interest), taxPaise: paise(tax),
      amountPaise: paise(row.principal + row.interest + tax), balanceAfterPaise: paise(balance), advance: row.advance,
    };
  });
  if (balance !== 0n) throw new Error(`schedule leaves ${balance} paise of principal`);
  const sum = (pick: (r: ProductInstalment) => number) => instalments.reduce((s, r) => s + pick(r), 0);
  const advanceTotal = instalments.filter((r) => r.advance).reduce((s, r) => s + r.amountPaise, 0);
  return {
    financedPaise: paise(financed), discountPaise: paise(discount), totalInterestPaise: sum((r) => r.interestPaise), totalTaxPaise: sum((r) => r.taxPaise),
    totalPayablePaise: sum((r) => r.amountPaise), emiPaise: paise(emi),
    upfrontPaise: request.downPaymentPaise + request.processingFeePaise + advanceTotal, instalments,
  };
}

/**
 * Interest shares of a flat total over the paying periods: each rounded by the product, the absorber taking the
 * rest; a share never exceeds its instalment's amount (the excess moves to the nearest earlier instalment).
 */
function flatInterestShares(product: LoanProductSettings, total: bigint, room: bigint[]): bigint[] {
  const count = room.length;
  const share = roundFraction(fraction(total, BigInt(count)), product.interestRounding);
  const shares = room.map(() => 0n);
  const absorber = product.absorb === 'first' ? 0 : count - 1;
  let left = total;
  for (let i = 0; i < count; i++) {
    if (i === absorber) continue;
    const part = [share, room[i]!, left].reduce((a, b) => (a < b ? a : b));
    shares[i] = part;
    left -= part;
  }
  const own = left < room[absorber]! ? left : room[absorber]!;
  shares[absorber] = own;
  let excess = left - own;
  for (let i = count - 1; excess > 0n && i >= 0; i--) {
    const free = room[i]! - shares[i]!;
    const moved = free < excess ? free : excess;
    shares[i] = shares[i]! + moved;
    excess -= moved;
  }
  if (excess > 0n) throw new LoanProductError('annualRate', 'the interest is more than the instalments can carry', 'financed_below_tenure');
  return shares;
}

/**
 * The annuity factor sum over the paying periods at a constant rate r: (1 - (1+r)^-m) / r, exactly; m when r = 0.
 */
function annuityFactor(rate: Fraction, count: number): Fraction {
  if (rate.n === 0n) return asFraction(count);
  const base = rate.d + rate.n; // (1 + r) = base / d
  const grown = base ** BigInt(count);
  const start = rate.d ** BigInt(count);
  // ((base/d)^m - 1) / (r (base/d)^m) = d (base^m - d^m) / (n base^m)
  return fraction(rate.d * (grown - start), rate.n * grown);
}

/** The annuity factor over periods of their own rates: the sum of 1 / ((1+r1)...(1+ri)). */
function periodAnnuityFactor(periods: Period[]): Fraction {
  let total = ZERO;
  let discount = ONE;
  for (const p of periods) {
    discount = div(discount, add(ONE, p.rate));
    total = add(total, discount);
  }
  return total;
}

/** Builds the schedule a product gives for a request; throws LoanProductError naming the first bad field. */
export function buildProductSchedule(product: LoanProductSettings, request: LoanRequest): ProductSchedule {
  validateRequest(product, request);
  const annual = annualRateOf(request.annualRate);
  const periods = regularPeriods(product, request, annual);
  const advance = request.advanceInstalments;
  const grace = product.principalGrace.periods;
  const graceKind = product.principalGrace.kind;
  const roundInterest = (value: Fraction) => roundFraction(value, product.interestRounding);
  const priced = BigInt(request.pricePaise - request.downPaymentPaise);
  const advanceRows = (amounts: bigint[]): Row[] => amounts.map((a) => ({ due: request.disbursementDate, principal: a, interest: 0n, advance: true }));
  // Grace periods that pay nothing are not instalments; their interest (reducing) joins the first paying one.
  const graceRows = (interest: bigint[]): Row[] =>
    graceKind === 'interest_only' ? interest.flatMap((amount, i) => (amount > 0n ? [{ due: periods[i]!.due, principal: 0n, interest: amount, advance: false }] : [])) : [];
  const deferred = (interest: bigint[]) => (graceKind === 'nothing' ? interest.reduce((s, v) => s + v, 0n) : 0n);

  if (product.interest !== 'reducing') {
    // Flat and 0%: the interest is fixed up front; amounts do not depend on the balance.
    // Flat interest runs for the loan's whole tenure, the advance instalments' periods included (they are paid
    // early; the term is the same), as the platform's first loans were built.
    const rateSum = periods.reduce((s, p) => add(s, p.rate), mul(asFraction(advance), nominalPeriodRate(product, annual)));
    const interest = product.interest === 'zero' ? 0n : roundInterest(mul(asFraction(priced), rateSum));
    const paying = periods.length - grace;
    if (product.amortisation === 'equal_principal') {
      const { each, amounts } = equalShares(product, priced, advance + paying, 'pricePaise');
      const interestShares = interest === 0n ? periods.map(() => 0n) : flatInterestShares(product, interest, periods.map(() => interest));
      const graceShares = interestShares.slice(0, grace);
      const carried = deferred(graceShares);
      const rows: Row[] = [...advanceRows(amounts.slice(0, advance)), ...graceRows(graceShares)];
      periods.slice(grace).forEach((p, i) => {
        rows.push({ due: p.due, principal: amounts[advance + i]!, interest: interestShares[grace + i]! + (i === 0 ? carried : 0n), advance: false });
      });
      return finish(product, request, priced, 0n, each, rows);
    }
    // Equal instalments: interest-only grace rows carry an even share of the interest; the rest is one amount.
    const evenShare = interest === 0n ? 0n : roundInterest(fraction(interest, BigInt(periods.length)));
    const graceInterest = graceKind === 'interest_only' ? periods.slice(0, grace).map(() => evenShare) : [];
    const graceTotal = graceInterest.reduce((s, v) => s + v, 0n);
    const { each, amounts } = equalShares(product, priced + interest - graceTotal, advance + paying, 'pricePaise');
    const regular = amounts.slice(advance);
    const shares = interest - graceTotal === 0n ? regular.map(() => 0n) : flatInterestShares(product, interest - graceTotal, regular);
    const rows: Row[] = [...advanceRows(amounts.slice(0, advance)), ...graceRows(graceInterest)];
    periods.slice(grace).forEach((p, i) => rows.push({ due: p.due, principal: regular[i]! - shares[i]!, interest: shares[i]!, advance: false }));
    return finish(product, request, priced, 0n, each, rows);
  }

  // Reducing balance.
  const nominal = nominalPeriodRate(product, annual);
  const paying = periods.length - grace;
  if (product.amortisation === 'equal_principal') {
    const { each, amounts } = equalShares(product, priced, advance + paying, 'pricePaise');
    let balance = priced - amounts.slice(0, advance).reduce((s, v) => s + v, 0n);
    const rows: Row[] = advanceRows(amounts.slice(0, advance));
    const graceInterest = periods.slice(0, grace).map((p) => roundInterest(mul(asFraction(balance), p.rate)));
    rows.push(...graceRows(graceInterest));
    let carried = deferred(graceInterest);
    periods.slice(grace).forEach((p, i) => {
      const interest = roundInterest(mul(asFraction(balance), p.rate));
      const principal = amounts[advance + i]!;
      rows.push({ due: p.due, principal, interest: interest + carried, advance: false });
      carried = 0n;
      balance -= principal;
    });
    return finish(product, request, priced, 0n, each, rows);
  }

  // Equal instalments (an annuity). The exact instalment E solves P = k E + E a(m - g) at the nominal rate; a
  // no-cost loan fixes E at price / n instead and finances the present value of those payments.
  const factor = add(asFraction(advance), product.emiFrom === 'period_rates' ? periodAnnuityFactor(periods.slice(grace)) : annuityFactor(nominal, paying));
  let financed = priced;
  let emi: bigint;
  let amounts: bigint[] | null = null;
  if (product.noCost) {
    const shares = equalShares(product, priced, advance + paying, 'pricePaise');
    emi = shares.each;
    amounts = shares.amounts;
    // The present value of the customer's payments at the nominal rate, rounded half up to the paisa.
    let pv = amounts.slice(0, advance).reduce((s, v) => add(s, asFraction(v)), ZERO);
    let discountFactor = ONE;
    const step = div(ONE, add(ONE, nominal));
    for (const amount of amounts.slice(advance)) {
      discountFactor = mul(discountFactor, step);
      pv = add(pv, mul(asFraction(amount), discountFactor));
    }
    financed = roundFraction(pv, 'half_up');
  } else {
    emi = roundFraction(div(asFraction(priced), factor), product.instalmentRounding.mode, BigInt(product.instalmentRounding.multipleOfPaise));
    if (emi <= 0n) throw new LoanProductError('pricePaise', `${priced} paise cannot be split into ${request.periods} instalments`, 'financed_below_tenure');
  }
  const step = BigInt(product.instalmentRounding.multipleOfPaise);
  const walk = (each: bigint): Row[] | null => {
    const rows: Row[] = [];
    let balance = financed;
    for (let i = 0; i < advance; i++) {
      const principal = amounts ? amounts[i]! : each;
      rows.push({ due: request.disbursementDate, principal, interest: 0n, advance: true });
      balance -= principal;
    }
    if (balance <= 0n) return null;
    const graceInterest = periods.slice(0, grace).map((p) => roundInterest(mul(asFraction(balance), p.rate)));
    rows.push(...graceRows(graceInterest));
    let carried = deferred(graceInterest);
    const regular = periods.slice(grace);
    for (const [i, p] of regular.entries()) {
      const interest = roundInterest(mul(asFraction(balance), p.rate));
      const amount = amounts ? amounts[advance + i]! : each;
      const last = i === regular.length - 1;
      // The last instalment pays what is left; one whose interest reaches its amount repays no principal.
      const principal = last ? balance : amount > interest ? amount - interest : 0n;
      // This amount repays the loan before its last instalment: a smaller one is tried.
      if (principal > balance || (!last && principal === balance)) return null;
      // On a no-cost loan the customer's amounts are fixed: the last one's interest is what is left of it.
      const rowInterest = last && amounts ? amount - principal : interest;
      if (rowInterest < 0n) throw new LoanProductError('annualRate', 'the rate leaves the last payment short of the balance', 'product_settings');
      if (principal + rowInterest + carried <= 0n) return null;
      rows.push({ due: p.due, principal, interest: rowInterest + carried, advance: false });
      carried = 0n;
      balance -= principal;
    }
    return rows;
  };
  let rows = walk(emi);
  while (!rows && !amounts && emi > step) {
    emi -= step;
    rows = walk(emi);
  }
  if (!rows) throw new LoanProductError('pricePaise', `${priced} paise cannot be split into ${request.periods} instalments`, 'financed_below_tenure');
  if (product.emiAdjustment === 'closest_last' && !amounts) {
    const gap = (each: bigint, walked: Row[]) => {
      const last = walked[walked.length - 1]!;
      const d = last.principal + last.interest - each;
      return d < 0n ? -d : d;
    };
    for (;;) {
      const current = gap(emi, rows);
      const tries = [emi + step, emi - step].flatMap((each) => {
        const walked = each > 0n ? walk(each) : null;
        return walked && gap(each, walked) < current ? [{ each, walked }] : [];
      });
      if (tries.length === 0) break;
      emi = tries[0]!.each;
      rows = tries[0]!.walked;
    }
  }
  return finish(product, request, financed, priced - financed, emi, rows);
}

// ---------------------------------------------------------------------------------------------- key facts

/** Periods of the product's frequency from `from` to `to`, whole ones counted on the calendar, the rest by days. */
function periodsBetween(product: LoanProductSettings, from: string, to: string): number {
  const { unit, every } = product.frequency;
  if (unit !== 'month') return daysBetween(from, to) / (every * (unit === 'week' ? 7 : 1));
  // The whole periods from the calendar months between the dates, less one when the day of the month is not reached.
  const monthIndex = (iso: string) => Number(iso.slice(0, 4)) * 12 + Number(iso.slice(5, 7)) - 1;
  let whole = Math.max(0, Math.floor((monthIndex(to) - monthIndex(from)) / every));
  while (whole > 0 && addMonths(from, whole * every) > to) whole--;
  while (addMonths(from, (whole + 1) * every) <= to) whole++;
  const reached = addMonths(from, whole * every);
  const next = addMonths(from, (whole + 1) * every);
  return whole + daysBetween(reached, to) / daysBetween(reached, next);
}

export interface KeyFacts {
  /** What the customer is lent: price - down payment (the goods' value on a no-cost loan). */
  loanPaise: number;
  /** Paid out net of what is collected at the start: the processing fee and advance instalments. */
  netDisbursedPaise: number;
  totalInterestPaise: number;
  feesPaise: number;
  taxPaise: number;
  discountPaise: number;
  /** Everything the customer pays over the loan: instalments and fees. */
  totalCostPaise: number;
  /** The annual percentage rate, all charges included, from the cash flows: "14.00". */
  apr: string;
  instalments: number;
  firstDueDate: string;
  lastDueDate: string;
}

/**
 * The Key Fact Statement's figures. The APR is the rate per period that makes the customer's payments worth
 * what was paid out (an internal rate of return), times the periods in a year, as RBI's KFS illustration
 * annualises it; with no fee it equals the loan's own rate (up to the instalment's rounding).
 */
export function keyFacts(product: LoanProductSettings, request: LoanRequest, schedule: ProductSchedule): KeyFacts {
  const loan = request.pricePaise - request.downPaymentPaise;
  const upfront = schedule.instalments.filter((r) => r.advance).reduce((s, r) => s + r.amountPaise, 0);
  const netDisbursed = loan - request.processingFeePaise - upfront;
  const flows = schedule.instalments.filter((r) => !r.advance).map((r) => ({ t: periodsBetween(product, request.disbursementDate, r.dueDate), amount: r.amountPaise }));
  const worth = (rate: number) => flows.reduce((s, f) => s + f.amount / (1 + rate) ** f.t, 0);
  let apr = 0;
  if (netDisbursed > 0 && worth(0) > netDisbursed) {
    let low = 0;
    let high = 1;
    while (worth(high) > netDisbursed && high < 1e6) high *= 2;
    for (let i = 0; i < 200; i++) {
      const mid = (low + high) / 2;
      if (worth(mid) > netDisbursed) low = mid;
      else high = mid;
    }
    const { unit, every } = product.frequency;
    const perYear = unit === 'month' ? 12 / every : 365 / (every * (unit === 'week' ? 7 : 1));
    apr = ((low + high) / 2) * perYear * 100;
  }
  const last = schedule.instalments[schedule.instalments.length - 1]!;
  return {
    loanPaise: loan, netDisbursedPaise: netDisbursed, totalInterestPaise: schedule.totalInterestPaise, feesPaise: request.processingFeePaise,
    taxPaise: schedule.totalTaxPaise, discountPaise: schedule.discountPaise, totalCostPaise: schedule.totalPayablePaise + request.processingFeePaise,
    apr: apr.toFixed(2), instalments: schedule.instalments.length, firstDueDate: schedule.instalments[0]!.dueDate, lastDueDate: last.dueDate,
  };
}
