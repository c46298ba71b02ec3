/**
 * EMI (equated monthly instalment) schedules for device loans, in integer paise.
 *
 * The product's rounding rule:
 * - financed = price - down payment. The processing fee is collected upfront, never financed, never
 *   earns interest. Rates are integer basis points per year; the monthly rate is bps / 10000 / 12.
 * - The regular EMI is rounded to the nearest whole rupee (100 paise), halves up. Every instalment
 *   but the last equals the EMI; the last absorbs the rounding difference, so the instalments sum
 *   exactly to financed + total interest. If that would leave the last instalment at 0 or below, the
 *   EMI is lowered a rupee at a time until the last is positive (small loans over long tenures: Rs 1,770
 *   at 0% over 60 months is 59 x Rs 29 + Rs 59, since Rs 30 would leave 0 for the last).
 * - 0% scheme (either method): no interest, EMI = rupee-rounded financed / n.
 * - flat: total interest = financed x rate x n / 12, rounded half up to the paisa, EMI =
 *   rupee-rounded (financed + interest) / n. Advance instalments are all principal; each monthly
 *   instalment's interest part is interest / (n - advance) rounded half up and the last takes the rest;
 *   principal is the remainder of the instalment.
 *   Where that would make a part negative (interest of a few rupees over many months, where the
 *   rounded-up shares add up past the total, or a loan of a few rupees), shares stop once the interest
 *   is used up, and an instalment's interest is capped at its amount with the excess moved earlier.
 * - reducing balance: with k advance instalments (collected at enrolment, all principal, no
 *   interest) and m = n - k monthly ones, the exact EMI E solves financed = k E + E (1 - (1+r)^-m) / r,
 *   then is rounded to the rupee, halves up, from the exact ratio. Each monthly instalment's interest is balance x r rounded half up
 *   to the paisa and its principal is EMI - interest; the last pays the whole remaining balance plus
 *   its interest. Total interest is the sum of the interest parts. An instalment's interest never
 *   exceeds its amount, so a balance never grows (again only reachable on loans of a few rupees).
 * - Due dates: advance instalments on the enrolment date; monthly ones on the first due date and
 *   then monthly on its day of the month, clamped in short months (31 Jan, 28 Feb, 31 Mar).
 * Every amount, the reducing-balance EMI included, is computed from the integer inputs exactly (BigInt
 * ratios), so no float decides a paisa.
 */
import { addMonths, isIsoDate } from './calendar.ts';

export type InterestMethod = 'reducing' | 'flat';

export interface LoanTerms {
  pricePaise: number;
  downPaymentPaise: number;
  /** Collected upfront at enrolment; not financed, earns no interest. */
  processingFeePaise: number;
  /** Per year, in basis points: 1400 = 14.00% p.a.; 0 is a 0% scheme. */
  annualRateBps: number;
  method: InterestMethod;
  /** Number of instalments, 1..60. */
  tenureMonths: number;
  /** Instalments collected at enrolment, 0..tenureMonths-1. */
  advanceEmis: number;
  /** Enrolment date, YYYY-MM-DD. */
  startDate: string;
  /** Due date of the first monthly (non-advance) instalment, after startDate. */
  firstDueDate: string;
}

export interface Instalment {
  number: number;
  dueDate: string;
  principalPaise: number;
  interestPaise: number;
  amountPaise: number;
  /** Principal still owed once this instalment is paid. */
  balanceAfterPaise: number;
  advance: boolean;
}

export interface Schedule {
  financedPaise: number;
  totalInterestPaise: number;
  /** financed + total interest, exactly the sum of the instalment amounts. */
  totalPayablePaise: number;
  /** The regular instalment, a whole number of rupees. */
  emiPaise: number;
  /** Down payment + processing fee + the advance instalments. */
  upfrontPaise: number;
  instalments: Instalment[];
}

/** Why terms were refused: a field out of its range, or a loan too small to split into that many instalments. */
export type LoanTermsRule = 'loan_terms' | 'financed_below_tenure';

export class LoanTermsError extends Error {
  readonly field: keyof LoanTerms;
  readonly rule: LoanTermsRule;

  constructor(field: keyof LoanTerms, message: string, rule: LoanTermsRule = 'loan_terms') {
    super(`${field}: ${message}`);
    this.name = 'LoanTermsError';
    this.field = field;
    this.rule = rule;
  }
}

const PAISE_PER_RUPEE = 100;
const MAX_RATE_BPS = 6000;
const MAX_TENURE_MONTHS = 60;
/** Rs 1,000 crore: far above any device, and keeps every total in the schedule a safe integer. */
const MAX_AMOUNT_PAISE = 1_000_000_000_000;
const BPS_MONTHS_PER_UNIT = 10_000 * 12;

function requirePaise(terms: LoanTerms, field: 'pricePaise' | 'downPaymentPaise' | 'processingFeePaise'): number {
  const value = terms[field];
  if (!Number.isSafeInteger(value)) throw new LoanTermsError(field, `must be a whole number of paise, got ${value}`);
  if (value < 0 || value > MAX_AMOUNT_PAISE) {
    throw new LoanTermsError(field, `must be between 0 and ${MAX_AMOUNT_PAISE} paise, got ${value}`);
  }
  return value;
}

/** Throws a LoanTermsError naming the first invalid field. */
export function validateLoanTerms(terms: LoanTerms): void {
  const price = requirePaise(terms, 'pricePaise');
  if (price === 0) throw new LoanTermsError('pricePaise', 'must be more than 0');
  const down = requirePaise(terms, 'downPaymentPaise');
  if (down >= price) throw new LoanTermsError('downPaymentPaise', 'must be less than the price');
  requirePaise(terms, 'processingFeePaise');

  const rate = terms.annualRateBps;
  if (!Number.isInteger(rate) || rate < 0 || rate > MAX_RATE_BPS) {
    throw new LoanTermsError('annualRateBps', `must be an integer 0..${MAX_RATE_BPS} basis points, got ${rate}`);
  }
  if (terms.method !== 'reducing' && terms.method !== 'flat') {
    throw new LoanTermsError('method', `must be 'reducing' or 'flat', got ${String(terms.method)}`);
  }
  const tenure = terms.tenureMonths;
  if (!Number.isInteger(tenure) || tenure < 1 || tenure > MAX_TENURE_MONTHS) {
    throw new LoanTermsError('tenureMonths', `must be an integer 1..${MAX_TENURE_MONTHS}, got ${tenure}`);
  }
  const advance = terms.advanceEmis;
  if (!Number.isInteger(advance) || advance < 0 || advance >= tenure) {
    throw new LoanTermsError('advanceEmis', `must be an integer 0..${tenure - 1}, got ${advance}`);
  }
  if (!isIsoDate(terms.startDate)) throw new LoanTermsError('startDate', `must be a date YYYY-MM-DD, got ${terms.startDate}`);
  if (!isIsoDate(terms.firstDueDate)) {
    throw new LoanTermsError('firstDueDate', `must be a date YYYY-MM-DD, got ${terms.firstDueDate}`);
  }
  // Same-length ISO dates compare correctly as strings.
  if (terms.firstDueDate <= terms.startDate) throw new LoanTermsError('firstDueDate', 'must be after startDate');
  try {
    addMonths(terms.firstDueDate, tenure - advance - 1);
  } catch {
    throw new LoanTermsError('firstDueDate', 'the last due date falls after the year 9999');
  }
}

/** The monthly rate as a fraction: annual / 12, e.g. 1200 bps -> 0.01. */
export function monthlyRate(annualRateBps: number): number {
  // One division of exact integers, so 1200 gives exactly the double 0.01.
  return annualRateBps / BPS_MONTHS_PER_UNIT;
}

/** numerator / denominator rounded half up, exactly (both non-negative, denominator > 0). */
function divideRoundHalfUp(numerator: bigint, denominator: bigint): number {
  return Number((2n * numerator + denominator) / (2n * denominator));
}

/** Interest on a balance for one month, rounded half up to the paisa. */
function monthInterest(balancePaise: number, annualRateBps: number): number {
  return divideRoundHalfUp(BigInt(balancePaise) * BigInt(annualRateBps), BigInt(BPS_MONTHS_PER_UNIT));
}

/** Every instalment but the last is `emi`; lowers it a rupee at a time until the last is positive. */
function equalAmounts(totalPaise: number, count: number, emiPaise: number): { emiPaise: number; amounts: number[] } {
  let emi = emiPaise;
  while (emi > 0 && totalPaise - (count - 1) * emi <= 0) emi -= PAISE_PER_RUPEE;
  const amounts = Array.from({ length: count }, () => emi);
  amounts[count - 1] = totalPaise - (count - 1) * emi;
  return { emiPaise: emi, amounts };
}

interface Split {
  principalPaise: number;
  interestPaise: number;
}

/**
 * Flat (and 0%) schedules: fixed amounts, each split into principal and an even share of the interest. The
 * first `advance` instalments (collected at enrolment) are all principal, as on a reducing-balance loan: the
 * interest is shared among the monthly ones only.
 */
function flatSplits(totalInterestPaise: number, amounts: number[], advance: number): Split[] {
  const count = amounts.length;
  const monthly = count - advance;
  const share = divideRoundHalfUp(BigInt(totalInterestPaise), BigInt(monthly));
  const interest: number[] = amounts.map(() => 0);
  let interestLeft = totalInterestPaise;
  for (let i = advance; i < count - 1; i++) {
    const part = Math.min(share, amounts[i]!, interestLeft);
    interest[i] = part;
    interestLeft -= part;
  }
  // An instalment cannot be more interest than its amount: push any excess back onto earlier monthly ones, and
  // only if they are all interest already (a very high rate with most instalments in advance) onto the advance
  // ones. The amounts sum to financed + interest with financed > 0, so there is always room.
  const lastInterest = Math.min(interestLeft, amounts[count - 1]!);
  interest[count - 1] = lastInterest;
  let excess = interestLeft - lastInterest;
  for (let i = count - 2; excess > 0 && i >= 0; i--) {
    const room = amounts[i]! - interest[i]!;
    const moved = Math.min(room, excess);
    interest[i] = interest[i]! + moved;
    excess -= moved;
  }
  return amounts.map((amount, i) => ({ principalPaise: amount - interest[i]!, interestPaise: interest[i]! }));
}

/**
 * The reducing-balance EMI with `advance` interest-free instalments paid at once, rounded half up to the rupee,
 * computed exactly. With the monthly rate r = a / b (a = the annual basis points, b = 120,000), X = (b + a)^m and
 * Y = b^m for the m monthly instalments, financed = k E + E (1 - (1+r)^-m) / r gives
 * E = financed a X / (k a X + b (X - Y)): a ratio of integers, so an EMI that is exactly half a rupee over rounds
 * up, as the rule says (a float of the same ratio can land a hair below the half and round down).
 */
function reducingEmiRoundedToRupee(financedPaise: number, annualRateBps: number, tenure: number, advance: number): number {
  const a = BigInt(annualRateBps);
  const b = BigInt(BPS_MONTHS_PER_UNIT);
  const monthly = BigInt(tenure - advance);
  const x = (b + a) ** monthly;
  const y = b ** monthly;
  const numerator = BigInt(financedPaise) * a * x;
  const denominator = BigInt(advance) * a * x + b * (x - y);
  return divideRoundHalfUp(numerator, denominator * BigInt(PAISE_PER_RUPEE)) * PAISE_PER_RUPEE;
}

/** Walks a reducing-balance schedule; null when this EMI pays the loan off before the last instalment. */
function reducingSplits(financedPaise: number, terms: LoanTerms, emiPaise: number): Split[] | null {
  const splits: Split[] = [];
  let balance = financedPaise;
  for (let i = 0; i < terms.tenureMonths - 1; i++) {
    const interest = i < terms.advanceEmis ? 0 : Math.min(monthInterest(balance, terms.annualRateBps), emiPaise);
    const principal = emiPaise - interest;
    if (principal > balance) return null;
    balance -= principal;
    splits.push({ principalPaise: principal, interestPaise: interest });
  }
  const lastInterest = monthInterest(balance, terms.annualRateBps);
  if (balance + lastInterest <= 0) return null;
  splits.push({ principalPaise: balance, interestPaise: lastInterest });
  return splits;
}

function reducingSchedule(financedPaise: number, terms: LoanTerms): { emiPaise: number; splits: Split[] } {
  let emi = reducingEmiRoundedToRupee(financedPaise, terms.annualRateBps, terms.tenureMonths, terms.advanceEmis);
  // An EMI of 0 always works (the last instalment is then the whole loan), so this ends.
  for (;;) {
    const splits = reducingSplits(financedPaise, terms, emi);
    if (splits) return { emiPaise: emi, splits };
    emi -= PAISE_PER_RUPEE;
  }
}

function flatSchedule(financedPaise: number, terms: LoanTerms): { emiPaise: number; splits: Split[] } {
  const n = terms.tenureMonths;
  const totalInterest = divideRoundHalfUp(
    BigInt(financedPaise) * BigInt(terms.annualRateBps) * BigInt(n),
    BigInt(BPS_MONTHS_PER_UNIT),
  );
  const total = financedPaise + totalInterest;
  const rounded = divideRoundHalfUp(BigInt(total), BigInt(n * PAISE_PER_RUPEE)) * PAISE_PER_RUPEE;
  const { emiPaise, amounts } = equalAmounts(total, n, rounded);
  return { emiPaise, splits: flatSplits(totalInterest, amounts, terms.advanceEmis) };
}

function dueDate(terms: LoanTerms, index: number): string {
  if (index < terms.advanceEmis) return terms.startDate;
  return addMonths(terms.firstDueDate, index - terms.advanceEmis);
}

/** The full instalment schedule of valid terms (throws LoanTermsError otherwise). */
export function generateSchedule(terms: LoanTerms): Schedule {
  validateLoanTerms(terms);
  const financedPaise = terms.pricePaise - terms.downPaymentPaise;
  // With no interest both methods reduce to the same equal split, so 0% goes through the flat path.
  const { emiPaise, splits } =
    terms.method === 'reducing' && terms.annualRateBps > 0
      ? reducingSchedule(financedPaise, terms)
      : flatSchedule(financedPaise, terms);

  let balance = financedPaise;
  const instalments = splits.map(({ principalPaise, interestPaise }, index): Instalment => {
    balance -= principalPaise;
    return {
      number: index + 1,
      dueDate: dueDate(terms, index),
      principalPaise,
      interestPaise,
      amountPaise: principalPaise + interestPaise,
      balanceAfterPaise: balance,
      advance: index < terms.advanceEmis,
    };
  });
  // A loan of a few rupees over many instalments rounds its EMI down to nothing: a schedule with instalments
  // of 0 is refused as terms, not stored (each of them would be "paid" the day it falls due).
  if (instalments.some((i) => i.amountPaise <= 0)) {
    throw new LoanTermsError('tenureMonths', `the amount financed (${financedPaise} paise) is too small for ${terms.tenureMonths} instalments`, 'financed_below_tenure');
  }
  const totalInterestPaise = instalments.reduce((sum, i) => sum + i.interestPaise, 0);
  const advancePaise = instalments.filter((i) => i.advance).reduce((sum, i) => sum + i.amountPaise, 0);
  return {
    financedPaise,
    totalInterestPaise,
    totalPayablePaise: financedPaise + totalInterestPaise,
    emiPaise,
    upfrontPaise: terms.downPaymentPaise + terms.processingFeePaise + advancePaise,
    instalments,
  };
}

/**
 * Pays `amountPaise` into instalments oldest due first. `outstanding` lists what is still owed per
 * instalment in due order. The last instalment touched may be part-paid; instalments owing nothing
 * get no allocation; whatever exceeds the total owed comes back as `unallocatedPaise`.
 */
export function allocatePayment(
  outstanding: Array<{ number: number; duePaise: number }>,
  amountPaise: number,
): { allocations: Array<{ number: number; paidPaise: number }>; unallocatedPaise: number } {
  if (!Number.isSafeInteger(amountPaise) || amountPaise <= 0) {
    throw new RangeError(`A payment must be a positive whole number of paise, got ${amountPaise}`);
  }
  for (const { number, duePaise } of outstanding) {
    if (!Number.isSafeInteger(duePaise) || duePaise < 0) {
      throw new RangeError(`Instalment ${number} owes ${duePaise}: must be a non-negative whole number of paise`);
    }
  }
  const allocations: Array<{ number: number; paidPaise: number }> = [];
  let left = amountPaise;
  for (const { number, duePaise } of outstanding) {
    if (left === 0) break;
    const paidPaise = Math.min(left, duePaise);
    if (paidPaise > 0) allocations.push({ number, paidPaise });
    left -= paidPaise;
  }
  return { allocations, unallocatedPaise: left };
}
