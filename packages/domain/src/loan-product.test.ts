import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateSchedule, type LoanTerms } from './emi.ts';
import { fraction, parseDecimal, roundFraction } from './exact.ts';
import {
  buildProductSchedule, keyFacts, LoanProductError, offeredRate, STANDARD_PRODUCT, validateProduct,
  type LoanProductSettings, type LoanRequest, type ProductSchedule,
} from './loan-product.ts';

const product = (changes: Partial<LoanProductSettings>): LoanProductSettings => ({ ...STANDARD_PRODUCT, ...changes });
const request = (changes: Partial<LoanRequest>): LoanRequest => ({
  pricePaise: 1_00_000_00, downPaymentPaise: 0, processingFeePaise: 0, annualRate: '12', periods: 12, advanceInstalments: 0,
  disbursementDate: '2026-01-15', firstDueDate: '2026-02-15', ...changes,
});
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** What every schedule must hold, whatever its settings. */
function expectConsistent(s: ProductSchedule) {
  expect(sum(s.instalments.map((r) => r.principalPaise))).toBe(s.financedPaise);
  expect(s.totalInterestPaise).toBe(sum(s.instalments.map((r) => r.interestPaise)));
  expect(s.totalPayablePaise).toBe(sum(s.instalments.map((r) => r.amountPaise)));
  for (const r of s.instalments) {
    expect(r.amountPaise).toBe(r.principalPaise + r.interestPaise + r.taxPaise);
    expect(r.amountPaise).toBeGreaterThan(0);
    expect(r.principalPaise).toBeGreaterThanOrEqual(0);
    expect(r.interestPaise).toBeGreaterThanOrEqual(0);
    expect(Number.isSafeInteger(r.amountPaise)).toBe(true);
  }
  expect(s.instalments.at(-1)!.balanceAfterPaise).toBe(0);
  const dates = s.instalments.map((r) => r.dueDate);
  expect([...dates].sort()).toEqual(dates);
}

describe('exact rounding', () => {
  it('rounds halves by each named rule, to any step', () => {
    const half = fraction(5n, 2n); // 2.5
    expect(['half_up', 'half_even', 'down', 'up'].map((m) => roundFraction(half, m as never))).toEqual([3n, 2n, 2n, 3n]);
    expect(roundFraction(fraction(7n, 2n), 'half_even')).toBe(4n); // 3.5 -> 4
    expect(roundFraction(fraction(12_550n), 'half_even', 100n)).toBe(12_600n); // 125.5 rupees -> 126
    expect(roundFraction(fraction(12_450n), 'half_even', 100n)).toBe(12_400n);
    expect(roundFraction(fraction(12_401n), 'up', 500n)).toBe(12_500n);
    expect(roundFraction(fraction(12_499n), 'down', 500n)).toBe(12_000n);
    expect(roundFraction(fraction(10n), 'up', 5n)).toBe(10n);
  });
  it('reads rates as exact decimals, never through a float', () => {
    expect(parseDecimal('13.99')).toEqual({ n: 1399n, d: 100n });
    expect(parseDecimal('10.125')).toEqual({ n: 81n, d: 8n });
    expect(parseDecimal('0.1')).toEqual({ n: 1n, d: 10n });
    for (const bad of ['', '-1', '1e3', '1.2.3', ' ', 'abc', '1.1234567']) expect(parseDecimal(bad)).toBeNull();
  });
});

describe('the standard product', () => {
  const legacy = (terms: LoanTerms) => generateSchedule(terms);
  const asRequest = (t: LoanTerms): LoanRequest => ({
    pricePaise: t.pricePaise, downPaymentPaise: t.downPaymentPaise, processingFeePaise: t.processingFeePaise,
    annualRate: (t.annualRateBps / 100).toString(), periods: t.tenureMonths, advanceInstalments: t.advanceEmis,
    disbursementDate: t.startDate, firstDueDate: t.firstDueDate,
  });

  it('gives the schedules the platform has always given, reducing and flat, to the paisa', () => {
    fc.assert(fc.property(
      fc.integer({ min: 5_000_00, max: 5_00_000_00 }), fc.integer({ min: 0, max: 4800 }), fc.integer({ min: 1, max: 60 }),
      fc.integer({ min: 0, max: 3 }), fc.constantFrom('reducing' as const, 'flat' as const), fc.integer({ min: 1, max: 28 }),
      (price, bps, tenure, advanceWanted, method, day) => {
        const advance = Math.min(advanceWanted, tenure - 1);
        const terms: LoanTerms = {
          pricePaise: price, downPaymentPaise: 0, processingFeePaise: 0, annualRateBps: bps, method, tenureMonths: tenure, advanceEmis: advance,
          startDate: `2026-01-${String(day).padStart(2, '0')}`, firstDueDate: `2026-02-${String(day).padStart(2, '0')}`,
        };
        const old = legacy(terms);
        const now = buildProductSchedule(product({ interest: bps === 0 ? 'zero' : method }), asRequest(terms));
        expect(now.instalments.map((r) => [r.dueDate, r.principalPaise, r.interestPaise, r.amountPaise, r.advance]))
          .toEqual(old.instalments.map((r) => [r.dueDate, r.principalPaise, r.interestPaise, r.amountPaise, r.advance]));
        expect(now.emiPaise).toBe(old.emiPaise);
      },
    ), { numRuns: 400 });
  });

  it('rounds an EMI that is exactly half a rupee over upwards (Rs 2,50,250 at 2.40% over 2 months)', () => {
    const s = buildProductSchedule(STANDARD_PRODUCT, request({ pricePaise: 2_50_250_00, annualRate: '2.4', periods: 2 }));
    expect(s.emiPaise).toBe(1_25_501_00);
  });
});

describe('settings', () => {
  it('equal principal: the same principal each month, interest on what is left', () => {
    const s = buildProductSchedule(product({ amortisation: 'equal_principal', instalmentRounding: { multipleOfPaise: 1, mode: 'half_even' }, interestRounding: 'half_even' }),
      request({ pricePaise: 1_200_00, periods: 4 }));
    expect(s.instalments.map((r) => [r.principalPaise, r.interestPaise])).toEqual([[300_00, 12_00], [300_00, 9_00], [300_00, 6_00], [300_00, 3_00]]);
    expectConsistent(s);
  });

  it('equal principal with a remainder: the absorber takes it, first or last', () => {
    const p = (absorb: 'first' | 'last') => buildProductSchedule(product({ amortisation: 'equal_principal', absorb, instalmentRounding: { multipleOfPaise: 1, mode: 'half_up' } }), request({ pricePaise: 1_000_00, periods: 3 }));
    expect(p('last').instalments.map((r) => r.principalPaise)).toEqual([333_33, 333_33, 333_34]);
    expect(p('first').instalments.map((r) => r.principalPaise)).toEqual([333_34, 333_33, 333_33]);
  });

  it('a 0% scheme splits the price evenly, rounded as the product says', () => {
    const byRupee = buildProductSchedule(product({ interest: 'zero' }), request({ pricePaise: 10_000_00, annualRate: '0', periods: 3 }));
    expect(byRupee.instalments.map((r) => r.amountPaise)).toEqual([3_333_00, 3_333_00, 3_334_00]);
    const byTen = buildProductSchedule(product({ interest: 'zero', instalmentRounding: { multipleOfPaise: 1000, mode: 'up' }, absorb: 'first' }), request({ pricePaise: 10_000_00, annualRate: '0', periods: 3 }));
    expect(byTen.instalments.map((r) => r.amountPaise)).toEqual([3_320_00, 3_340_00, 3_340_00]);
    expect(byTen.totalInterestPaise).toBe(0);
  });

  it('rounds the EMI to the paisa or in multiples, by each mode', () => {
    const at = (multipleOfPaise: number, mode: 'half_up' | 'half_even' | 'down' | 'up') =>
      buildProductSchedule(product({ instalmentRounding: { multipleOfPaise, mode } }), request({ pricePaise: 50_000_00, annualRate: '13.99', periods: 9 })).emiPaise;
    // The exact EMI is Rs 5,884.402064...: 588440.2064... paise.
    expect(at(1, 'half_up')).toBe(5_884_40);
    expect(at(1, 'half_even')).toBe(5_884_40);
    expect(at(1, 'up')).toBe(5_884_41);
    expect(at(100, 'half_even')).toBe(5_884_00);
    expect(at(100, 'up')).toBe(5_885_00);
    expect(at(500, 'half_up')).toBe(5_885_00);
    expect(at(1000, 'down')).toBe(5_880_00);
  });

  it('weekly and every-N-days loans take annual x days / days in the year per period', () => {
    const weekly = buildProductSchedule(product({ frequency: { unit: 'week', every: 1 }, daysInYear: 364, instalmentRounding: { multipleOfPaise: 1, mode: 'half_up' } }),
      request({ pricePaise: 10_000_00, annualRate: '52', periods: 4, firstDueDate: '2026-01-22' }));
    // 52% over 364 days: exactly 1% a week.
    expect(weekly.instalments[0]!.interestPaise).toBe(100_00);
    expect(weekly.instalments.map((r) => r.dueDate)).toEqual(['2026-01-22', '2026-01-29', '2026-02-05', '2026-02-12']);
    expectConsistent(weekly);
    const every15 = buildProductSchedule(product({ frequency: { unit: 'day', every: 15 } }), request({ periods: 24, firstDueDate: '2026-01-30', annualRate: '36.5' }));
    expect(every15.instalments[0]!.interestPaise).toBe(1_50_000); // 1,00,000 x 36.5% x 15 / 365 = Rs 1,500
    expect(every15.instalments.at(-1)!.dueDate).toBe('2027-01-10'); // 23 x 15 days after the first
    expectConsistent(every15);
  });

  it('actual days: each period is charged its own days, a leap year counted as the product says', () => {
    const base = { periodRate: 'actual_days' as const, instalmentRounding: { multipleOfPaise: 1, mode: 'half_up' as const } };
    const r = request({ pricePaise: 3_65_000_00, annualRate: '10', periods: 3, disbursementDate: '2028-01-31', firstDueDate: '2028-02-29' });
    const fixed = buildProductSchedule(product({ ...base, daysInYear: 365 }), r);
    // 29 days of 3,65,000 at 10% / 365 = Rs 2,900 exactly.
    expect(fixed.instalments[0]!.interestPaise).toBe(2_900_00);
    const actual = buildProductSchedule(product({ ...base, daysInYear: 'actual' }), r);
    // 2028 is a leap year: 29 / 366 of Rs 36,500 = 2,892.0765... -> 2,892.08
    expect(actual.instalments[0]!.interestPaise).toBe(2_892_08);
    expectConsistent(fixed);
    expectConsistent(actual);
    // A period across the new year: the days ending 22-31 December are 2027's (10, over 365), the 21 ending in
    // January 2028's (over 366).
    const across = buildProductSchedule(product({ ...base, daysInYear: 'actual' }), request({ pricePaise: 3_65_000_00, annualRate: '10', periods: 2, disbursementDate: '2027-12-21', firstDueDate: '2028-01-21' }));
    const exact = 36_500_00 * (10 / 365 + 21 / 366); // 3,09,426.5... paise
    expect(across.instalments[0]!.interestPaise).toBe(Math.round(exact));
  });

  it('interest-only grace, then an annuity over the rest; a nothing grace defers its interest without capitalising it', () => {
    const interestOnly = buildProductSchedule(product({ principalGrace: { periods: 2, kind: 'interest_only' }, instalmentRounding: { multipleOfPaise: 1, mode: 'half_up' } }), request({ periods: 6 }));
    expect(interestOnly.instalments.slice(0, 2).map((r) => [r.principalPaise, r.interestPaise])).toEqual([[0, 1_000_00], [0, 1_000_00]]);
    const annuityOf4 = buildProductSchedule(product({ instalmentRounding: { multipleOfPaise: 1, mode: 'half_up' } }), request({ periods: 4, firstDueDate: '2026-04-15' }));
    expect(interestOnly.instalments.slice(2).map((r) => r.amountPaise)).toEqual(annuityOf4.instalments.map((r) => r.amountPaise));
    const nothing = buildProductSchedule(product({ principalGrace: { periods: 2, kind: 'nothing' }, instalmentRounding: { multipleOfPaise: 1, mode: 'half_up' } }), request({ periods: 6 }));
    expect(nothing.instalments).toHaveLength(4);
    expect(nothing.instalments[0]!.interestPaise).toBe(annuityOf4.instalments[0]!.interestPaise + 2_000_00);
    expect(nothing.instalments[0]!.dueDate).toBe('2026-04-15');
    expectConsistent(interestOnly);
    expectConsistent(nothing);
  });

  it('no-cost EMI: the customer pays price / n, the loan is its present value, GST on the interest is shown', () => {
    const s = buildProductSchedule(product({ noCost: true, gstOnInterestBps: 1800, instalmentRounding: { multipleOfPaise: 1, mode: 'half_up' } }),
      request({ pricePaise: 60_000_00, annualRate: '15', periods: 6 }));
    expect(s.instalments.map((r) => r.principalPaise + r.interestPaise)).toEqual(Array(6).fill(10_000_00));
    // PV of 6 x 10,000 at 1.25% a month = 58,490.29...: the discount is the rest of the price.
    const pv = Array.from({ length: 6 }, (_, i) => 10_000_00 / 1.0125 ** (i + 1)).reduce((a, b) => a + b);
    expect(Math.abs(s.financedPaise - pv)).toBeLessThan(1);
    expect(s.discountPaise).toBe(60_000_00 - s.financedPaise);
    expect(s.totalInterestPaise).toBe(s.discountPaise);
    expect(s.instalments[0]!.interestPaise).toBe(Math.round(s.financedPaise * 0.0125));
    for (const r of s.instalments) expect(r.taxPaise).toBe(Math.round((r.interestPaise * 18) / 100));
    expect(s.totalPayablePaise).toBe(60_000_00 + s.totalTaxPaise);
    expectConsistent(s);
  });

  it('refuses combinations no lender uses, and loans too small to split, with the rule named', () => {
    const rule = (fn: () => unknown) => { try { fn(); } catch (e) { return e instanceof LoanProductError ? [e.rule, e.field] : String(e); } return null; };
    expect(rule(() => validateProduct(product({ absorb: 'first' })))).toEqual(['product_settings', 'absorb']);
    expect(rule(() => validateProduct(product({ noCost: true, interest: 'flat' })))).toEqual(['product_settings', 'noCost']);
    expect(rule(() => validateProduct(product({ gstOnInterestBps: 1800 })))).toEqual(['product_settings', 'gstOnInterestBps']);
    expect(rule(() => validateProduct(product({ allocation: { order: ['penalty', 'penalty', 'principal'], across: 'instalment' } })))).toEqual(['product_settings', 'allocation.order']);
    expect(rule(() => buildProductSchedule(STANDARD_PRODUCT, request({ annualRate: '12.5%' })))).toEqual(['loan_terms', 'annualRate']);
    expect(rule(() => buildProductSchedule(STANDARD_PRODUCT, request({ annualRate: '0.1234567' })))).toEqual(['loan_terms', 'annualRate']);
    expect(rule(() => buildProductSchedule(product({ principalGrace: { periods: 6, kind: 'interest_only' } }), request({ periods: 6 })))).toEqual(['product_settings', 'principalGrace']);
    expect(rule(() => buildProductSchedule(STANDARD_PRODUCT, request({ pricePaise: 50_00, periods: 60, annualRate: '0' })))).toEqual(['financed_below_tenure', 'pricePaise']);
    expect(rule(() => buildProductSchedule(STANDARD_PRODUCT, request({ periods: 241 })))).toEqual(['loan_terms', 'periods']);
    // Settings stored as JSON with a part missing are refused by name, not read into a TypeError.
    expect(rule(() => validateProduct({ ...STANDARD_PRODUCT, frequency: undefined } as never))).toEqual(['product_settings', 'frequency']);
    expect(rule(() => validateProduct({ ...STANDARD_PRODUCT, allocation: { across: 'instalment' } } as never))).toEqual(['product_settings', 'allocation.order']);
  });

  it('holds its invariants over random products and loans, up to 120 months and 260 weeks', () => {
    const settings = fc.record({
      amortisation: fc.constantFrom('equal_instalments' as const, 'equal_principal' as const),
      interest: fc.constantFrom('reducing' as const, 'flat' as const, 'zero' as const),
      periodRate: fc.constantFrom('nominal' as const, 'actual_days' as const),
      daysInYear: fc.constantFrom(360 as const, 364 as const, 365 as const, 'actual' as const),
      unit: fc.constantFrom('month' as const, 'week' as const, 'day' as const),
      multiple: fc.constantFrom(1, 100, 500, 1000),
      mode: fc.constantFrom('half_up' as const, 'half_even' as const, 'down' as const, 'up' as const),
      interestRounding: fc.constantFrom('half_up' as const, 'half_even' as const),
      absorb: fc.constantFrom('last' as const, 'first' as const),
      grace: fc.integer({ min: 0, max: 3 }),
      graceKind: fc.constantFrom('interest_only' as const, 'nothing' as const),
    });
    fc.assert(fc.property(settings, fc.integer({ min: 20_000_00, max: 10_00_00_000_00 }), fc.integer({ min: 0, max: 3600 }), fc.integer({ min: 1, max: 260 }), fc.integer({ min: 0, max: 2 }),
      (s, price, bps, periodsWanted, advanceWanted) => {
        const every = s.unit === 'day' ? 15 : 1;
        const periods = Math.min(periodsWanted, s.unit === 'month' ? 120 : 260);
        const advance = Math.min(advanceWanted, periods - 1);
        const grace = Math.min(s.grace, periods - advance - 1);
        const p = product({
          amortisation: s.amortisation, interest: s.interest, periodRate: s.periodRate, daysInYear: s.daysInYear, frequency: { unit: s.unit, every },
          instalmentRounding: { multipleOfPaise: s.multiple, mode: s.mode }, interestRounding: s.interestRounding,
          absorb: s.interest === 'reducing' && s.amortisation === 'equal_instalments' ? 'last' : s.absorb,
          principalGrace: { periods: grace, kind: s.graceKind },
        });
        const first = s.unit === 'month' ? '2026-02-28' : s.unit === 'week' ? '2026-02-07' : '2026-02-15';
        const r = request({ pricePaise: price, annualRate: s.interest === 'zero' ? '0' : (bps / 100).toString(), periods, advanceInstalments: advance, disbursementDate: '2026-01-31', firstDueDate: first });
        const schedule = buildProductSchedule(p, r);
        expectConsistent(schedule);
        if (s.interest === 'zero') expect(schedule.totalInterestPaise).toBe(0);
      },
    ), { numRuns: 300 });
  }, 60_000);
});

describe('the rate enrolment offers with a product', () => {
  it('is a decimal of up to 4 places from 0 to 60, with its basis points rounded half up', () => {
    expect(offeredRate(' 13.99 ')).toEqual({ rate: '13.99', bps: 1399 });
    expect(offeredRate('10.125')).toEqual({ rate: '10.125', bps: 1013 });
    expect(offeredRate('60')).toEqual({ rate: '60', bps: 6000 });
    expect(offeredRate('0')).toEqual({ rate: '0', bps: 0 });
    for (const bad of ['60.0001', '75', '1.23456', '', '-1', '1e1', '12%']) expect(offeredRate(bad), bad).toBeNull();
  });
});

describe('the key fact statement', () => {
  it('gives the loan\'s own rate as its APR when nothing else is charged, and a higher one with a fee', () => {
    const r = request({ pricePaise: 1_00_000_00, annualRate: '14', periods: 12 });
    const plain = keyFacts(STANDARD_PRODUCT, r, buildProductSchedule(STANDARD_PRODUCT, r));
    expect(Math.abs(Number(plain.apr) - 14)).toBeLessThanOrEqual(0.01);
    const withFee = { ...r, processingFeePaise: 2_000_00 };
    const facts = keyFacts(STANDARD_PRODUCT, withFee, buildProductSchedule(STANDARD_PRODUCT, withFee));
    // RBI's illustration annualises the monthly IRR x 12: a 2% fee on a 12-month 14% loan is about 17.7%.
    expect(Number(facts.apr)).toBeGreaterThan(17.5);
    expect(Number(facts.apr)).toBeLessThan(18);
    expect(facts.netDisbursedPaise).toBe(98_000_00);
    expect(facts.totalCostPaise).toBe(facts.totalInterestPaise + 1_00_000_00 + 2_000_00);
  });

  it('a no-cost loan costs the customer only its GST and fees, and says so', () => {
    const p = product({ noCost: true, gstOnInterestBps: 1800 });
    const r = request({ pricePaise: 30_000_00, annualRate: '16', periods: 6 });
    const facts = keyFacts(p, r, buildProductSchedule(p, r));
    expect(facts.loanPaise).toBe(30_000_00);
    expect(facts.discountPaise).toBeGreaterThan(0);
    expect(facts.taxPaise).toBeGreaterThan(0);
    // Its only cost is the GST: about Rs 250 on Rs 30,000 held for 3.5 months on average, some 2.8% a year.
    expect(Number(facts.apr)).toBeGreaterThan(2.5);
    expect(Number(facts.apr)).toBeLessThan(3.1);
  });

  it('counts whole months on the calendar, however far the first due date is', () => {
    // 2,076 months from disbursement to the first due date, counted without walking them one by one: the APR is
    // still worked out (near 0: a nominal rate charges the first period one month's interest, whatever the gap).
    const r = request({ annualRate: '12', periods: 12, disbursementDate: '2026-01-15', firstDueDate: '2199-01-15', pricePaise: 1_000_00 });
    const p = product({ instalmentRounding: { multipleOfPaise: 1, mode: 'half_up' } });
    const facts = keyFacts(p, r, buildProductSchedule(p, r));
    expect(facts.lastDueDate).toBe('2199-12-15');
    expect(Number.isFinite(Number(facts.apr))).toBe(true);
  });

  it('is 0.00 for a 0% loan without fees', () => {
    const p = product({ interest: 'zero' });
    const r = request({ annualRate: '0' });
    expect(keyFacts(p, r, buildProductSchedule(p, r)).apr).toBe('0.00');
  });
});
