import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ageInMonths, bandsProblem, canMoveClaim, CLAIM_STATES, claimPayout, claimRefusal, coverPeriod, deductibleBps, isFinalClaimState,
  newCertificateNumber, parseCertificateNumber, rulesProblem, saleRefusal, shareOf, type ClaimableSale, type WarrantyRules,
} from './warranty.ts';

const damage: WarrantyRules = {
  cover_kind: 'insurance', insurer_name: 'Demo General Insurance', purchase_window_days: 15, waiting_days: 7, term_months: 12,
  brand_warranty_months: 12, covers_defects: false, covers_accidental: true, covers_liquid: true,
  deductible_bands: [{ from_months: 0, to_months: 6, bps: 0 }, { from_months: 6, to_months: 12, bps: 1000 }, { from_months: 12, to_months: null, bps: 2000 }],
  max_claims: 2, cover_limit_bps: 10_000,
};
const repairs: WarrantyRules = {
  ...damage, cover_kind: 'service_contract', insurer_name: null, covers_defects: true, covers_accidental: false, covers_liquid: false, term_months: 24, waiting_days: 0,
};

describe('the plan rules', () => {
  it('accepts the demo plans and refuses rules that mix the kinds or leave gaps', () => {
    expect(rulesProblem(damage)).toBeNull();
    expect(rulesProblem(repairs)).toBeNull();
    expect(rulesProblem({ ...repairs, covers_accidental: true })).toMatch(/insurance/);
    expect(rulesProblem({ ...repairs, insurer_name: 'Someone' })).toMatch(/insurer/);
    expect(rulesProblem({ ...damage, insurer_name: null })).toMatch(/insurer/);
    expect(rulesProblem({ ...repairs, term_months: 12 })).toMatch(/brand warranty/);
    expect(bandsProblem([{ from_months: 0, to_months: 6, bps: 0 }, { from_months: 7, to_months: null, bps: 100 }])).toMatch(/starts at 7/);
    expect(bandsProblem([{ from_months: 0, to_months: 6, bps: 0 }])).toMatch(/no end/);
    expect(bandsProblem([{ from_months: 0, to_months: null, bps: 10_001 }])).toMatch(/bps/);
    expect(bandsProblem([])).toBe('no bands');
  });
});

describe('selling a plan', () => {
  const phone = { invoice_date: '2026-03-01', invoice_value_paise: 1_999_900 };

  it('sells within the purchase window after the invoice date, the last day included', () => {
    expect(saleRefusal(damage, phone, '2026-03-01')).toBeNull();
    expect(saleRefusal(damage, phone, '2026-03-16')).toBeNull();
    expect(saleRefusal(damage, phone, '2026-03-17')).toBe('window_closed');
  });

  it('refuses an invoice in the future, not a date, or a value of nothing or beyond reason', () => {
    expect(saleRefusal(damage, phone, '2026-02-28')).toBe('invoice_in_future');
    expect(saleRefusal(damage, { ...phone, invoice_date: '2026-02-30' }, '2026-03-01')).toBe('invoice_date_invalid');
    expect(saleRefusal(damage, { ...phone, invoice_value_paise: 0 }, '2026-03-01')).toBe('invoice_value');
    expect(saleRefusal(damage, { ...phone, invoice_value_paise: 100_000_001 }, '2026-03-01')).toBe('invoice_value');
    expect(saleRefusal(damage, { ...phone, invoice_value_paise: 100_000_000 }, '2026-03-01')).toBeNull();
    expect(saleRefusal(damage, { ...phone, invoice_value_paise: 10.5 }, '2026-03-01')).toBe('invoice_value');
  });

  it('covers from the sale date plus the waiting period to the day before the term ends', () => {
    expect(coverPeriod(damage, '2026-03-01', '2026-03-10')).toEqual({ start: '2026-03-17', end: '2027-02-28' });
    expect(coverPeriod(repairs, '2024-01-31', '2024-02-01')).toEqual({ start: '2024-02-01', end: '2026-01-30' });
  });
});

describe('raising a claim', () => {
  const sale: ClaimableSale = {
    rules: damage, invoice_date: '2026-03-01', cover_start: '2026-03-08', cover_end: '2027-02-28', imei: '490154203237518', revoked: false, claims_so_far: 0,
  };
  const claim = { imei: '490154203237518', cause: 'accidental' as const, date: '2026-05-01' };

  it('allows a covered cause in the cover period, on the phone sold, while claims are left', () => {
    expect(claimRefusal(sale, claim)).toBeNull();
    expect(claimRefusal(sale, { ...claim, date: '2026-03-08' })).toBeNull();
    expect(claimRefusal(sale, { ...claim, date: '2027-02-28' })).toBeNull();
    expect(claimRefusal({ ...sale, claims_so_far: 1 }, claim)).toBeNull();
  });

  it('refuses before the waiting period ends, after the cover ends, once revoked, on another phone and over the limit', () => {
    expect(claimRefusal(sale, { ...claim, date: '2026-03-07' })).toBe('not_started');
    expect(claimRefusal(sale, { ...claim, date: '2027-03-01' })).toBe('ended');
    expect(claimRefusal({ ...sale, revoked: true }, claim)).toBe('revoked');
    expect(claimRefusal(sale, { ...claim, imei: '356938035643809' })).toBe('imei_mismatch');
    expect(claimRefusal({ ...sale, claims_so_far: 2 }, claim)).toBe('claim_limit');
  });

  it('covers only what the plan says, and a defect only after the brand warranty', () => {
    expect(claimRefusal(sale, { ...claim, cause: 'defect' })).toBe('cause_not_covered');
    const contract: ClaimableSale = { ...sale, rules: repairs, cover_start: '2026-03-01', cover_end: '2028-02-29' };
    expect(claimRefusal(contract, { ...claim, cause: 'liquid' })).toBe('cause_not_covered');
    expect(claimRefusal(contract, { ...claim, cause: 'defect', date: '2027-02-28' })).toBe('brand_warranty');
    expect(claimRefusal(contract, { ...claim, cause: 'defect', date: '2027-03-01' })).toBeNull();
  });
});

describe('the claim states', () => {
  it('moves only forward, and the outcomes and a rejection end it', () => {
    expect(canMoveClaim('intimated', 'documents')).toBe(true);
    expect(canMoveClaim('intimated', 'rejected')).toBe(true);
    expect(canMoveClaim('intimated', 'approved')).toBe(false);
    expect(canMoveClaim('documents', 'approved')).toBe(true);
    expect(canMoveClaim('documents', 'rejected')).toBe(true);
    expect(canMoveClaim('approved', 'rejected')).toBe(false);
    for (const outcome of ['repaired', 'replaced', 'settled'] as const) expect(canMoveClaim('approved', outcome)).toBe(true);
    for (const state of CLAIM_STATES) {
      expect(isFinalClaimState(state)).toBe(['rejected', 'repaired', 'replaced', 'settled'].includes(state));
      if (isFinalClaimState(state)) for (const to of CLAIM_STATES) expect(canMoveClaim(state, to)).toBe(false);
      expect(canMoveClaim(state, 'intimated')).toBe(false);
    }
  });
});

describe('the payable amount', () => {
  const invoice = { invoice_value_paise: 2_000_000, invoice_date: '2026-01-31' };

  it('counts completed months, a month-end invoice reaching its anniversary on a shorter month\'s last day', () => {
    expect(ageInMonths('2026-01-31', '2026-01-31')).toBe(0);
    expect(ageInMonths('2026-01-31', '2026-02-27')).toBe(0);
    expect(ageInMonths('2026-01-31', '2026-02-28')).toBe(1);
    expect(ageInMonths('2026-01-15', '2026-07-14')).toBe(5);
    expect(ageInMonths('2026-01-15', '2026-07-15')).toBe(6);
    expect(ageInMonths('2026-01-15', '2025-12-01')).toBe(0);
  });

  it('takes the band the age falls in: its start included, its end not', () => {
    const bands = damage.deductible_bands;
    expect([0, 5, 6, 11, 12, 40].map((m) => deductibleBps(bands, m))).toEqual([0, 0, 1000, 1000, 2000, 2000]);
  });

  it('pays the assessed cost less the deductible at the band edges', () => {
    const at = (claim_date: string, assessed_cost_paise: number) => claimPayout(damage, { ...invoice, claim_date, assessed_cost_paise });
    // 5 months and 30 days: still the first band.
    expect(at('2026-07-30', 500_000)).toMatchObject({ device_age_months: 5, deductible_bps: 0, deductible_paise: 0, payable_paise: 500_000 });
    // Six months to the day (31 July): 10 %.
    expect(at('2026-07-31', 500_000)).toMatchObject({ device_age_months: 6, deductible_bps: 1000, deductible_paise: 50_000, payable_paise: 450_000 });
    expect(at('2027-01-30', 500_000)).toMatchObject({ device_age_months: 11, deductible_bps: 1000, payable_paise: 450_000 });
    expect(at('2027-01-31', 500_000)).toMatchObject({ device_age_months: 12, deductible_bps: 2000, deductible_paise: 100_000, payable_paise: 400_000 });
  });

  it('caps the cost at the cover limit, a share of the invoice value, before the deductible', () => {
    const half = { ...damage, cover_limit_bps: 5000 };
    expect(claimPayout(half, { ...invoice, claim_date: '2026-08-15', assessed_cost_paise: 1_500_000 })).toEqual({
      cover_limit_paise: 1_000_000, base_paise: 1_000_000, device_age_months: 6, deductible_bps: 1000, deductible_paise: 100_000, payable_paise: 900_000,
    });
    expect(claimPayout(damage, { ...invoice, claim_date: '2026-02-15', assessed_cost_paise: 0 }).payable_paise).toBe(0);
  });

  it('rounds odd paise to the nearest paisa, halves up', () => {
    // 10 % of 12,345 paise is 1,234.5: the deductible is 1,235 and the claim pays 11,110.
    expect(claimPayout(damage, { ...invoice, claim_date: '2026-08-01', assessed_cost_paise: 12_345 })).toMatchObject({ deductible_paise: 1235, payable_paise: 11_110 });
    // 10 % of 12,344 is 1,234.4: 1,234.
    expect(claimPayout(damage, { ...invoice, claim_date: '2026-08-01', assessed_cost_paise: 12_344 })).toMatchObject({ deductible_paise: 1234, payable_paise: 11_110 });
    // 20 % of 1 paisa is 0.2: nothing taken. 33.33 % of an odd limit.
    expect(claimPayout(damage, { ...invoice, claim_date: '2027-03-01', assessed_cost_paise: 1 })).toMatchObject({ deductible_paise: 0, payable_paise: 1 });
    expect(shareOf(999_999, 3333)).toBe(333_300);
    expect(shareOf(3, 5000)).toBe(2);
    expect(shareOf(1, 5000)).toBe(1);
    expect(shareOf(1, 4999)).toBe(0);
    expect(() => shareOf(10.5, 1000)).toThrow(RangeError);
    expect(() => shareOf(100, 10_001)).toThrow(RangeError);
  });

  it('is exact for any amount: payable plus deductible is the capped cost, never negative', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_147_483_647 }), fc.integer({ min: 1, max: 100_000_000 }), fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }),
        (cost, value, limitBps, bps) => {
          const rules = { cover_limit_bps: limitBps, deductible_bands: [{ from_months: 0, to_months: null, bps }] };
          const out = claimPayout(rules, { invoice_value_paise: value, assessed_cost_paise: cost, invoice_date: '2026-01-01', claim_date: '2026-06-01' });
          expect(out.payable_paise + out.deductible_paise).toBe(out.base_paise);
          expect(out.payable_paise).toBeGreaterThanOrEqual(0);
          expect(out.base_paise).toBeLessThanOrEqual(out.cover_limit_paise);
          // The same as exact rational arithmetic, halves up.
          const exact = (n: bigint, b: bigint) => Number((2n * n * b + 10_000n) / 20_000n);
          expect(out.cover_limit_paise).toBe(exact(BigInt(value), BigInt(limitBps)));
          expect(out.deductible_paise).toBe(exact(BigInt(out.base_paise), BigInt(bps)));
        }),
    );
  });
});

describe('certificate numbers', () => {
  it('are KW, the year and eight characters that cannot be misread, and parse back however they are typed', () => {
    let i = 0;
    const number = newCertificateNumber(2026, (size) => (i++ * 7) % size);
    expect(number).toMatch(/^KW-2026-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    expect(parseCertificateNumber(number.toLowerCase())).toBe(number);
    expect(parseCertificateNumber(` ${number.replaceAll('-', '')} `)).toBe(number);
    expect(parseCertificateNumber('KW-2026-0OI1-ABCD')).toBeNull();
    expect(parseCertificateNumber('Lakshmi')).toBeNull();
  });
});
