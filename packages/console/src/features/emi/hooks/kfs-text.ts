/**
 * A loan product's Key Fact Statement (RBI, 2024) as plain lines for WhatsApp or SMS: the figures kept when
 * the loan was made (decision 027), the schedule, the penal charges and whom to ask. Worded with the `t` of
 * the customer's language (kfs-language.ts), not necessarily the retailer's.
 */
import type { InstalmentView } from '@kisht/contract/emi';
import type { LoanTermsView } from '@kisht/contract/loan-terms';
import { formatDate } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { productKindText } from '../../../shared/customers/loan-words.ts';

export type Translate = (key: string, vars?: Record<string, unknown>) => string;

export interface KfsInput {
  customerName: string;
  terms: LoanTermsView;
  instalments: readonly Pick<InstalmentView, 'number' | 'due_date' | 'amount_paise'>[];
  /** The shop that made the loan: its name (the shop's, else the retailer's) and mobile. */
  shop: { name: string; mobile: string };
}

export function kfsText({ customerName, terms, instalments, shop }: KfsInput, t: Translate): string {
  const facts = terms.key_facts;
  const rupees = (paise: number) => ({ amount: formatRupees(paise) });
  const lines = [
    t('kfs.text.heading', { shop: shop.name, name: customerName }),
    t('kfs.text.product', { product: terms.product.name }),
    t('kfs.text.loan', rupees(facts.loanPaise)),
    t('kfs.text.netDisbursed', rupees(facts.netDisbursedPaise)),
    // The product's exact rate, as the EMI plan shows it ("16.5% a year").
    t('kfs.text.rate', { rate: t('loan.ratePerYear', { rate: terms.annual_rate }) }),
    t('kfs.text.apr', { apr: `${facts.apr}%` }),
    t('kfs.text.interest', rupees(facts.totalInterestPaise)),
    t('kfs.text.fees', rupees(facts.feesPaise)),
    ...(facts.taxPaise > 0 ? [t('kfs.text.gst', rupees(facts.taxPaise))] : []),
    ...(facts.discountPaise > 0 ? [t('kfs.text.discount', rupees(facts.discountPaise))] : []),
    t('kfs.text.totalCost', rupees(facts.totalCostPaise)),
    t('kfs.text.repayment', { instalments: t('loan.instalments', { count: facts.instalments }), kind: productKindText(terms.settings, t) }),
    t('kfs.text.firstDue', { date: formatDate(facts.firstDueDate) }),
    t('kfs.text.lastDue', { date: formatDate(facts.lastDueDate) }),
    t('kfs.text.schedule'),
    ...instalments.map((i) => t('kfs.text.instalment', { number: i.number, date: formatDate(i.due_date), amount: formatRupees(i.amount_paise) })),
    t('kfs.text.penal'),
    t('kfs.text.contact', { shop: shop.name, mobile: shop.mobile }),
  ];
  return lines.join('\n');
}
