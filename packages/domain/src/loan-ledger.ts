/**
 * The ledger that explains every rupee of a loan (decision 027): a payment split into penalty, interest and
 * principal by the product's rule, the amount that closes a loan today, and a statement whose entries always
 * add up to what is owed. Integer paise throughout.
 */
import { daysBetween } from './calendar.ts';
import { fraction, roundFraction } from './exact.ts';
import type { Component, LoanProductSettings } from './loan-product.ts';

/** What is still owed on one instalment, by part. `taxPaise` is the GST on a no-cost loan's interest. */
export interface OwedParts {
  number: number;
  penaltyPaise: number;
  interestPaise: number;
  taxPaise?: number;
  principalPaise: number;
}

export interface PartAllocation {
  number: number;
  penaltyPaise: number;
  interestPaise: number;
  taxPaise: number;
  principalPaise: number;
}

type Field = 'penaltyPaise' | 'interestPaise' | 'taxPaise' | 'principalPaise';
/** The fields of each part in a product's order: the GST on interest is settled with the interest, right after it. */
const FIELDS: Record<Component, Field[]> = { penalty: ['penaltyPaise'], interest: ['interestPaise', 'taxPaise'], principal: ['principalPaise'] };
const owedOf = (row: OwedParts, field: Field) => (field === 'taxPaise' ? (row.taxPaise ?? 0) : row[field]);

/**
 * Splits a payment over instalments listed oldest first, by the product's rule: `instalment` settles each
 * instalment's parts in order before the next instalment; `component` takes each part from every instalment,
 * oldest first, before the next part. Whatever exceeds the total owed comes back as `unallocatedPaise`.
 */
export function allocateByRule(rule: LoanProductSettings['allocation'], owed: OwedParts[], amountPaise: number): { allocations: PartAllocation[]; unallocatedPaise: number } {
  if (!Number.isSafeInteger(amountPaise) || amountPaise <= 0) throw new RangeError(`A payment must be a positive whole number of paise, got ${amountPaise}`);
  for (const row of owed) {
    for (const field of Object.values(FIELDS).flat()) {
      const value = owedOf(row, field);
      if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`Instalment ${row.number} owes ${value} as ${field}`);
    }
  }
  const taken: PartAllocation[] = owed.map((row) => ({ number: row.number, penaltyPaise: 0, interestPaise: 0, taxPaise: 0, principalPaise: 0 }));
  let left = amountPaise;
  const take = (i: number, part: Component) => {
    for (const field of FIELDS[part]) {
      const amount = Math.min(left, owedOf(owed[i]!, field) - taken[i]![field]);
      taken[i]![field] += amount;
      left -= amount;
    }
  };
  if (rule.across === 'instalment') {
    for (let i = 0; i < owed.length && left > 0; i++) for (const part of rule.order) take(i, part);
  } else {
    for (const part of rule.order) for (let i = 0; i < owed.length && left > 0; i++) take(i, part);
  }
  return { allocations: taken.filter((a) => a.penaltyPaise + a.interestPaise + a.taxPaise + a.principalPaise > 0), unallocatedPaise: left };
}

/** An instalment as the foreclosure quote reads it: its schedule and what is still owed on it. */
export interface InstalmentState extends OwedParts {
  dueDate: string;
  /** The instalment's scheduled interest (whether paid or not). */
  scheduledInterestPaise: number;
  /** Its scheduled GST on interest (whether paid or not); absent: none of it was paid ahead. */
  scheduledTaxPaise?: number;
}

export interface ForeclosureQuote {
  /** Principal not yet paid, on every instalment, less interest (and its GST) paid ahead for periods not yet run. */
  principalPaise: number;
  /**
   * Interest and GST paid ahead for time that has not run (the current period beyond what has accrued, later periods
   * in full): counted as principal paid, so closing early never keeps interest the loan did not earn.
   */
  paidAheadPaise: number;
  /** Interest of instalments already due and unpaid, plus the current period's interest accrued to today. */
  interestPaise: number;
  /** GST on that interest (no-cost loans): what is unpaid on instalments already due, and on the interest accrued. */
  taxPaise: number;
  penaltyPaise: number;
  feePaise: number;
  totalPaise: number;
}

/**
 * The amount that closes the loan today: all principal still owed, the unpaid interest of instalments already
 * due, the current period's scheduled interest pro rata to the days elapsed (rounded as the product rounds
 * interest), unpaid penalties, and the product's foreclosure fee on the principal not yet due. Interest of
 * later periods is not charged.
 */
export function foreclosureQuote(product: LoanProductSettings, disbursementDate: string, instalments: InstalmentState[], today: string): ForeclosureQuote {
  let principal = 0;
  let interest = 0;
  let tax = 0;
  let penalty = 0;
  let notYetDue = 0;
  let paidAhead = 0;
  let periodStart = disbursementDate;
  let accruedDone = false;
  for (const row of [...instalments].sort((a, b) => (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : a.number - b.number))) {
    principal += row.principalPaise;
    penalty += row.penaltyPaise;
    if (row.dueDate <= today) {
      interest += row.interestPaise;
      tax += row.taxPaise ?? 0;
      periodStart = row.dueDate;
      continue;
    }
    notYetDue += row.principalPaise;
    // What of this period's interest and GST was already paid.
    const paidInterest = row.scheduledInterestPaise - row.interestPaise;
    const paidTax = (row.scheduledTaxPaise ?? row.taxPaise ?? 0) - (row.taxPaise ?? 0);
    if (!accruedDone) {
      accruedDone = true;
      const length = daysBetween(periodStart, row.dueDate);
      const elapsed = Math.max(0, Math.min(length, daysBetween(periodStart, today)));
      const accrued = length > 0 ? Number(roundFraction(fraction(BigInt(row.scheduledInterestPaise) * BigInt(elapsed), BigInt(length)), product.interestRounding)) : 0;
      const accruedTax = Number(roundFraction(fraction(BigInt(accrued) * BigInt(product.gstOnInterestBps), 10_000n), 'half_up'));
      // The part already paid counts against what has accrued; beyond it, it was paid ahead.
      interest += Math.max(0, accrued - paidInterest);
      tax += Math.max(0, accruedTax - paidTax);
      paidAhead += Math.max(0, paidInterest - accrued) + Math.max(0, paidTax - accruedTax);
    } else {
      paidAhead += paidInterest + paidTax;
    }
  }
  const fee = Number(roundFraction(fraction(BigInt(notYetDue) * BigInt(product.foreclosureFeeBps), 10_000n), 'half_up'));
  // Paid ahead never makes the amount to close negative: at most it takes the principal to nothing.
  const credited = Math.min(paidAhead, principal);
  principal -= credited;
  return { principalPaise: principal, paidAheadPaise: credited, interestPaise: interest, taxPaise: tax, penaltyPaise: penalty, feePaise: fee, totalPaise: principal + interest + tax + penalty + fee };
}

/** One line of a customer statement. Amounts the customer owes are positive; what reduces the debt is negative. */
export type StatementEvent =
  | { kind: 'due'; date: string; number: number; amountPaise: number }
  | { kind: 'penalty'; date: string; number: number; amountPaise: number; reason: string }
  | { kind: 'waiver'; date: string; number: number; amountPaise: number; reason: string }
  | { kind: 'payment'; date: string; id: string; amountPaise: number; allocations: PartAllocation[] }
  | { kind: 'reversal'; date: string; id: string; amountPaise: number }
  | { kind: 'edit'; date: string; number: number; beforePaise: number; afterPaise: number; reason: string };

export interface StatementLine {
  date: string;
  kind: StatementEvent['kind'];
  /** What the line adds to (positive) or takes off (negative) the balance. */
  deltaPaise: number;
  balanceAfterPaise: number;
  event: StatementEvent;
}

export function statementDelta(event: StatementEvent): number {
  switch (event.kind) {
    case 'due':
    case 'penalty':
      return event.amountPaise;
    case 'waiver':
    case 'payment':
      return -event.amountPaise;
    case 'reversal':
      return event.amountPaise;
    case 'edit':
      return event.afterPaise - event.beforePaise;
  }
}

/** The statement in date order (stable for one day), with the balance after each line. */
export function buildStatement(events: StatementEvent[]): { lines: StatementLine[]; balancePaise: number } {
  const ordered = events.map((event, i) => ({ event, i })).sort((a, b) => (a.event.date < b.event.date ? -1 : a.event.date > b.event.date ? 1 : a.i - b.i));
  let balance = 0;
  const lines = ordered.map(({ event }) => {
    const delta = statementDelta(event);
    balance += delta;
    return { date: event.date, kind: event.kind, deltaPaise: delta, balanceAfterPaise: balance, event };
  });
  return { lines, balancePaise: balance };
}
