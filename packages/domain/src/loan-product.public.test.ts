/**
 * The engine against schedules published by others (loan-product.cases.ts: Apache Fineract's acceptance
 * scenarios and the Reserve Bank of India's worked example), each expressed as the product settings that name
 * its convention. The largest difference per case, in paise, is printed for the closing note and must be 0.
 */
import { describe, expect, it } from 'vitest';
import { addMonths, addDays } from './calendar.ts';
import { fraction, mul, parseDecimal, roundFraction } from './exact.ts';
import { PUBLIC_SCHEDULES, type PublicSchedule } from './loan-product.cases.ts';
import { buildProductSchedule, STANDARD_PRODUCT, type LoanProductSettings, type LoanRequest } from './loan-product.ts';

const toPaise = (text: string): number => {
  const value = parseDecimal(text, 2);
  if (!value) throw new Error(`not an amount: ${text}`);
  return Number(roundFraction(mul(value, fraction(100n)), 'half_even'));
};

const progressive = (c: PublicSchedule) => c.source.includes('PROGRESSIVE');

/** The product settings that name a published schedule's convention. */
export function settingsOf(c: PublicSchedule): LoanProductSettings {
  const daily = c.convention.interestCalculationPeriod === 'DAILY';
  // 30-day months over a 360-day year charge exactly annual / 12 a month: the nominal rate.
  const thirtyDay = c.convention.daysInMonth === '30' && c.convention.daysInYear === '360' && c.frequency.unit === 'month';
  // Fineract's ACTUAL year is 366 days in a leap year on its progressive schedules, a fixed 365 on the cumulative ones.
  const year = c.convention.daysInYear === '360' ? 360 : c.convention.daysInYear === '364' ? 364 : c.convention.daysInYear === 'ACTUAL' && progressive(c) ? 'actual' : 365;
  return {
    ...STANDARD_PRODUCT,
    amortisation: c.amortisation,
    interest: c.annualRatePercent === '0' ? 'zero' : c.interest,
    periodRate: daily && !thirtyDay ? 'actual_days' : 'nominal',
    daysInYear: year,
    frequency: c.frequency,
    // Fineract rounds an equal instalment to installmentAmountInMultiplesOf (in currency units), else to the
    // currency's cents, half even by default; equal principal parts are never rounded to the multiple.
    instalmentRounding: {
      multipleOfPaise: c.amortisation === 'equal_principal' || c.rounding.instalmentMultipleOf === null ? 1 : c.rounding.instalmentMultipleOf * 100,
      mode: 'half_even',
    },
    interestRounding: 'half_even',
    principalGrace: { periods: c.graceOnPrincipal, kind: 'interest_only' },
    // Fineract's progressive schedules: the annuity over each period's own rate, the instalment nudged so the last is closest.
    ...(progressive(c) ? { emiFrom: 'period_rates' as const, emiAdjustment: 'closest_last' as const } : {}),
  };
}

function requestOf(c: PublicSchedule): { request: LoanRequest; downPaymentRow: boolean } {
  const principal = toPaise(c.principal);
  const downPayment = c.downPaymentPercent === null ? 0 : Number(roundFraction(mul(fraction(BigInt(principal)), mul(parseDecimal(c.downPaymentPercent)!, fraction(1n, 100n))), 'half_even'));
  const disbursement = c.disbursementDate || '2026-01-01';
  const { unit, every } = c.frequency;
  const firstDue = c.firstDueDate ?? (unit === 'month' ? addMonths(disbursement, every) : addDays(disbursement, every * (unit === 'week' ? 7 : 1)));
  return {
    request: {
      pricePaise: principal, downPaymentPaise: downPayment, processingFeePaise: 0, annualRate: c.annualRatePercent,
      periods: c.periods, advanceInstalments: 0, disbursementDate: disbursement, firstDueDate: firstDue,
      ...(unit === 'month' && !c.firstDueDate ? { dueDay: Number(disbursement.slice(8)) } : {}),
    },
    downPaymentRow: downPayment > 0,
  };
}

/** The largest difference, in paise, between the engine's rows and the published ones (principal, interest, total). */
function largestDifference(c: PublicSchedule): { paise: number; rows: number; mismatched: number[] } {
  const { request, downPaymentRow } = requestOf(c);
  const schedule = buildProductSchedule(settingsOf(c), request);
  const published = downPaymentRow ? c.rows.slice(1) : c.rows;
  let paise = 0;
  const mismatched: number[] = [];
  if (downPaymentRow) paise = Math.abs(toPaise(c.rows[0]!.total) - request.downPaymentPaise);
  published.forEach((row, i) => {
    const mine = schedule.instalments[i]!;
    // A printed row whose parts do not add up to its total (the RBI example's row 2) is compared on its interest and total.
    const addsUp = toPaise(row.principal) + toPaise(row.interest) === toPaise(row.total);
    if (!addsUp) mismatched.push(i + 1);
    if (row.dueDate) expect(mine.dueDate, `${c.title}: row ${i + 1} date`).toBe(row.dueDate);
    paise = Math.max(
      paise,
      addsUp ? Math.abs(mine.principalPaise - toPaise(row.principal)) : 0,
      Math.abs(mine.interestPaise - toPaise(row.interest)),
      Math.abs(mine.amountPaise - toPaise(row.total)),
    );
  });
  return { paise, rows: published.length, mismatched };
}

describe('published schedules', () => {
  const results = PUBLIC_SCHEDULES.map((c) => ({ case: c.source.match(/C\d{4}|RS0\d|rbi\.org\.in/)?.[0] ?? c.title.slice(0, 30), convention: c, result: largestDifference(c) }));

  it('prints the largest difference per case', () => {
    console.log(results.map((r) => `${r.case}\t${r.result.rows} rows\t${r.result.paise} paise${r.result.mismatched.length ? ` (rows ${r.result.mismatched.join(', ')} do not add up as printed)` : ''}\t${r.convention.title}`).join('\n'));
    expect(results.length).toBe(PUBLIC_SCHEDULES.length);
  });

  for (const r of results.filter((x) => x.result.mismatched.length === 0)) {
    it(`${r.case}: ${r.convention.title}`, () => {
      expect(r.result.paise).toBe(0);
    });
  }

  // A table whose printed rows do not all add up carries its own rounding slips into its balances, and a correct
  // schedule drifts from it by a paisa. Its convention is checked row by row instead: the engine's instalment,
  // and each printed interest from the printed balance before it.
  for (const r of results.filter((x) => x.result.mismatched.length > 0)) {
    it(`${r.case}: each printed interest from the printed balance, and the instalment`, () => {
      const c = r.convention;
      const settings = settingsOf(c);
      const { request } = requestOf(c);
      const schedule = buildProductSchedule(settings, request);
      expect(schedule.emiPaise).toBe(toPaise(c.rows[0]!.total));
      const rate = mul(parseDecimal(c.annualRatePercent)!, fraction(1n, 1200n));
      let balance = BigInt(toPaise(c.principal));
      for (const row of c.rows) {
        expect(Number(roundFraction(mul(fraction(balance), rate), settings.interestRounding))).toBe(toPaise(row.interest));
        balance = BigInt(toPaise(row.balanceAfter!));
      }
    });
  }
});
