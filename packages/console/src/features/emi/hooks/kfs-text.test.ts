import { describe, expect, it } from 'vitest';
import { STANDARD_PRODUCT } from '@kisht/domain/loan-product';
import type { LoanTermsView } from '@kisht/contract/loan-terms';
import { kfsText, type KfsInput } from './kfs-text.ts';

/** A `t` for one language that tags every key it is asked for, and shows its values. */
const tagged = (lng: string) => (key: string, vars?: Record<string, unknown>) => `[${lng}] ${key}${vars ? ` ${Object.values(vars).join(' | ')}` : ''}`;

const noCost: LoanTermsView = {
  product: { id: 7, name: 'No-cost EMI (GST on interest)' },
  settings: { ...STANDARD_PRODUCT, noCost: true, gstOnInterestBps: 1800 },
  annual_rate: '16',
  key_facts: {
    loanPaise: 3_000_000,
    netDisbursedPaise: 2_870_000,
    totalInterestPaise: 130_000,
    feesPaise: 20_000,
    taxPaise: 23_400,
    discountPaise: 130_000,
    totalCostPaise: 173_400,
    apr: '17.25',
    instalments: 3,
    firstDueDate: '2026-07-05',
    lastDueDate: '2026-09-05',
  },
};

const input: KfsInput = {
  customerName: 'Lakshmi Venkataraman',
  terms: noCost,
  instalments: [
    { number: 1, due_date: '2026-07-05', amount_paise: 1_000_000 },
    { number: 2, due_date: '2026-08-05', amount_paise: 1_000_000 },
    { number: 3, due_date: '2026-09-05', amount_paise: 1_000_050 },
  ],
  shop: { name: 'Sharma Mobiles', mobile: '9876543210' },
};

describe("a loan's Key Fact Statement as text", () => {
  it('says every figure, one a line, in order', () => {
    expect(kfsText(input, tagged('mr')).split('\n')).toEqual([
      '[mr] kfs.text.heading Sharma Mobiles | Lakshmi Venkataraman',
      '[mr] kfs.text.product No-cost EMI (GST on interest)',
      '[mr] kfs.text.loan ₹30,000',
      '[mr] kfs.text.netDisbursed ₹28,700',
      '[mr] kfs.text.rate [mr] loan.ratePerYear 16',
      '[mr] kfs.text.apr 17.25%',
      '[mr] kfs.text.interest ₹1,300',
      '[mr] kfs.text.fees ₹200',
      '[mr] kfs.text.gst ₹234',
      '[mr] kfs.text.discount ₹1,300',
      '[mr] kfs.text.totalCost ₹1,734',
      '[mr] kfs.text.repayment [mr] loan.instalments 3 | [mr] loanProduct.each.month · [mr] loanProduct.noCost',
      '[mr] kfs.text.firstDue 05-07-2026',
      '[mr] kfs.text.lastDue 05-09-2026',
      '[mr] kfs.text.schedule',
      '[mr] kfs.text.instalment 1 | 05-07-2026 | ₹10,000',
      '[mr] kfs.text.instalment 2 | 05-08-2026 | ₹10,000',
      '[mr] kfs.text.instalment 3 | 05-09-2026 | ₹10,000.50',
      '[mr] kfs.text.penal',
      '[mr] kfs.text.contact Sharma Mobiles | 9876543210',
    ]);
  });

  it('keeps the exact rate of the product, not one rounded to basis points', () => {
    expect(kfsText({ ...input, terms: { ...noCost, annual_rate: '10.125' } }, tagged('en'))).toContain('[en] loan.ratePerYear 10.125');
  });

  it('leaves out GST and the no-cost discount when there are none', () => {
    const plain = { ...noCost, settings: STANDARD_PRODUCT, key_facts: { ...noCost.key_facts, taxPaise: 0, discountPaise: 0 } };
    const text = kfsText({ ...input, terms: plain }, tagged('en'));
    expect(text).not.toContain('kfs.text.gst');
    expect(text).not.toContain('kfs.text.discount');
    expect(text).toContain('[en] kfs.text.interest ₹1,300');
    expect(text).toContain('[en] loanProduct.each.month · [en] loan.method.reducing');
  });

  it('says GST alone when there is no discount', () => {
    const text = kfsText({ ...input, terms: { ...noCost, key_facts: { ...noCost.key_facts, discountPaise: 0 } } }, tagged('en'));
    expect(text).toContain('[en] kfs.text.gst ₹234');
    expect(text).not.toContain('kfs.text.discount');
  });

  it("is worded entirely with the `t` it is given (the customer's language)", () => {
    const lines = kfsText(input, tagged('tm')).split('\n');
    expect(lines.every((line) => line.startsWith('[tm] '))).toBe(true);
    expect(lines.join('\n')).not.toContain('[en]');
  });
});
