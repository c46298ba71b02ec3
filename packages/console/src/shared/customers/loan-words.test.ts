import { describe, expect, it } from 'vitest';
import { STANDARD_PRODUCT } from '@kisht/domain/loan-product';
import type { CustomerProfile } from '@kisht/contract/customers';
import { methodText, productKindText, rateText, tenureText } from './loan-words.ts';

const t = (key: string, vars?: Record<string, unknown>) => (vars ? `${key}${JSON.stringify(vars)}` : key);
const keyFacts = { loanPaise: 1, netDisbursedPaise: 1, totalInterestPaise: 0, feesPaise: 0, taxPaise: 0, discountPaise: 0, totalCostPaise: 1, apr: '0.00', instalments: 1, firstDueDate: '2026-01-01', lastDueDate: '2026-01-01' };
const standard = { annual_rate_bps: 1399, tenure_months: 12, interest_method: 'reducing', loan_terms: null } satisfies Partial<CustomerProfile>;
const weekly = {
  annual_rate_bps: 1013, tenure_months: 52, interest_method: 'reducing',
  loan_terms: { product: { id: 3, name: 'Weekly' }, settings: { ...STANDARD_PRODUCT, frequency: { unit: 'week' as const, every: 1 } }, annual_rate: '10.125', key_facts: keyFacts },
} satisfies Partial<CustomerProfile>;

describe("a loan's words", () => {
  it('say the standard loan as before: months, the rate from basis points, the interest method', () => {
    expect(tenureText(standard, t)).toBe('loan.months{"count":12}');
    expect(rateText(standard, t)).toBe('loan.ratePerYear{"rate":"13.99"}');
    expect(methodText(standard, t)).toBe('loan.method.reducing');
  });

  it("say a product's loan by its terms: instalments when not monthly, its exact rate, how it is paid", () => {
    expect(tenureText(weekly, t)).toBe('loan.instalments{"count":52}');
    expect(rateText(weekly, t)).toBe('loan.ratePerYear{"rate":"10.125"}');
    expect(methodText(weekly, t)).toBe('loanProduct.each.week · loan.method.reducing');
    expect(productKindText({ ...STANDARD_PRODUCT, noCost: true, frequency: { unit: 'day', every: 15 } }, t)).toBe('loanProduct.every.day{"count":15} · loanProduct.noCost');
  });
});
