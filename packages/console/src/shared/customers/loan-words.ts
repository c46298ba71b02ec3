/**
 * A loan's terms in the retailer's words, whether it follows the standard EMI or a loan product (decision 027):
 * its rate (a product's exact one), its tenure (instalments when they are not monthly) and its kind.
 */
import type { CustomerProfile } from '@kisht/contract/customers';
import type { LoanProductSettings } from '@kisht/domain/loan-product';
import { bpsToPercentText } from '@kisht/domain/money-input';
import { INTEREST_METHOD_LABEL_KEYS } from '../labels.ts';

type Translate = (key: string, vars?: Record<string, unknown>) => string;
type LoanProfile = Pick<CustomerProfile, 'annual_rate_bps' | 'tenure_months' | 'interest_method' | 'loan_terms'>;

/** How often a product is paid, and what kind of interest it charges: "Weekly · Reducing balance". */
export function productKindText(settings: LoanProductSettings, t: Translate): string {
  const { unit, every } = settings.frequency;
  const often = every === 1 ? t(`loanProduct.each.${unit}`) : t(`loanProduct.every.${unit}`, { count: every });
  const kind = settings.noCost ? t('loanProduct.noCost') : settings.interest === 'zero' ? t('loanProduct.zero') : t(INTEREST_METHOD_LABEL_KEYS[settings.interest]);
  return `${often} · ${kind}`;
}

export function rateText(loan: LoanProfile, t: Translate): string {
  return t('loan.ratePerYear', { rate: loan.loan_terms ? loan.loan_terms.annual_rate : bpsToPercentText(loan.annual_rate_bps ?? 0) });
}

export function tenureText(loan: LoanProfile, t: Translate): string {
  const count = loan.tenure_months ?? 0;
  return loan.loan_terms && loan.loan_terms.settings.frequency.unit !== 'month' ? t('loan.instalments', { count }) : t('loan.months', { count });
}

/** The method row: a product's kind, or the standard loan's interest method. */
export function methodText(loan: LoanProfile, t: Translate): string {
  if (loan.loan_terms) return productKindText(loan.loan_terms.settings, t);
  const key = INTEREST_METHOD_LABEL_KEYS[loan.interest_method as keyof typeof INTEREST_METHOD_LABEL_KEYS];
  return key ? t(key) : (loan.interest_method ?? '');
}
