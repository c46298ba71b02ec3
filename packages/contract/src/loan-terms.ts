/** A loan made with a loan product (decision 027): what it keeps of the product, and its Key Fact Statement. */
import { Type, type Static } from 'typebox';
import type { LoanProductSettings } from '@kisht/domain/loan-product';

/** The KFS figures (loan-product.ts keyFacts). */
export const KeyFactsView = Type.Object({
  loanPaise: Type.Integer(), netDisbursedPaise: Type.Integer(), totalInterestPaise: Type.Integer(), feesPaise: Type.Integer(), taxPaise: Type.Integer(),
  discountPaise: Type.Integer(), totalCostPaise: Type.Integer(), apr: Type.String({ description: 'Annual percentage rate, all charges included: "14.00"' }),
  instalments: Type.Integer(), firstDueDate: Type.String(), lastDueDate: Type.String(),
});
export const LoanTermsView = Type.Object({
  product: Type.Object({ id: Type.Integer(), name: Type.String() }),
  settings: Type.Unsafe<LoanProductSettings>({ type: 'object', additionalProperties: true }),
  annual_rate: Type.String({ description: 'Exact decimal percentage per year' }),
  key_facts: KeyFactsView,
});
export type LoanTermsView = Static<typeof LoanTermsView>;
