import { describe, expect, it } from 'vitest';
import type { InstalmentView, Receipt } from '@kisht/contract/emi';
import { isPayable, payableSelection, toggleAll, toggleId, totalOutstanding } from './instalment-selection.ts';
import { isReversible, receiptNote, receiptText } from './receipt-text.ts';

const instalment = (id: number, status: InstalmentView['status'], outstanding: number): InstalmentView => ({
  id,
  number: id,
  due_date: '2026-06-05',
  principal_paise: 0,
  interest_paise: 0,
  tax_paise: 0,
  amount_paise: 100_000,
  penalty_paise: 0,
  unpaid_penalty_paise: 0,
  paid_paise: 100_000 - outstanding,
  outstanding_paise: outstanding,
  status,
  days_past_due: 0,
  advance: false,
  paid_at: null,
});

describe('instalment selection', () => {
  const rows = [instalment(1, 'paid', 0), instalment(2, 'overdue', 100_000), instalment(3, 'partial', 40_000), instalment(4, 'due', 100_000)];

  it('pays only what is not paid yet', () => {
    expect(rows.filter(isPayable).map((i) => i.id)).toEqual([2, 3, 4]);
  });

  it('keeps the selected payable rows in order and adds them up', () => {
    const selected = payableSelection(rows, new Set([4, 1, 3]));
    expect(selected.map((i) => i.id)).toEqual([3, 4]);
    expect(totalOutstanding(selected)).toBe(140_000);
  });

  it('toggles one row, and all payable rows at once', () => {
    expect([...toggleId(new Set([2]), 3)]).toEqual([2, 3]);
    expect([...toggleId(new Set([2, 3]), 2)]).toEqual([3]);
    expect([...toggleAll(rows, new Set([2]))].sort()).toEqual([2, 3, 4]);
    expect(toggleAll(rows, new Set([2, 3, 4])).size).toBe(0);
  });
});

describe('receiptText', () => {
  const receipt: Receipt = {
    payment_id: 9,
    receipt_no: 'R-0009',
    kind: 'payment',
    amount_paise: 200_000,
    method: 'upi',
    reference: 'UTR123',
    note: null,
    created_at: '2026-05-20T05:00:00.000Z',
    customer: { id: 1, name: 'Ravi Kumar', mobile: '+919800000001', imei1: '356938035643809', device: 'Samsung A15' },
    retailer: { shop_name: 'Sharma Mobiles', name: 'Rahul Sharma', mobile: '+919876543210' },
    allocations: [
      // A payment recorded before payments were split: no parts.
      { instalment_number: 1, due_date: '2026-06-05', amount_paise: 100_000, parts: null },
      { instalment_number: 2, due_date: '2026-07-05', amount_paise: 100_000, parts: { penalty_paise: 0, interest_paise: 12_000, tax_paise: 0, principal_paise: 88_000 } },
    ],
    outstanding_after_paise: 1_000_000,
    loan_product: null,
  };
  const t = (key: string, vars: Record<string, string | number> = {}) => `${key.split('.').pop()}(${Object.values(vars).join('|')})`;

  it('lists the shop, receipt, customer, payment, each instalment and what is left, in India time', () => {
    expect(receiptText(receipt, t, 'UPI').split('\n')).toEqual([
      'heading(Sharma Mobiles)',
      'number(R-0009)',
      'date(20-05-2026 10:30 AM)',
      'customer(Ravi Kumar|+919800000001)',
      'device(Samsung A15|356938035643809)',
      'paid(₹2,000|UPI)',
      'reference(UTR123)',
      'allocation(1|05-06-2026|₹1,000)',
      'allocation(2|05-07-2026|₹1,000)',
      'interest(₹120) · principal(₹880)',
      'outstanding(₹10,000)',
    ]);
  });

  it("names the loan's product, when it has one, before the amount paid and its reference", () => {
    const lines = receiptText({ ...receipt, loan_product: 'No-cost EMI (GST on interest)' }, t, 'UPI').split('\n');
    expect(lines.slice(4, 8)).toEqual(['device(Samsung A15|356938035643809)', 'product(No-cost EMI (GST on interest))', 'paid(₹2,000|UPI)', 'reference(UTR123)']);
  });

  it('splits a share with a penalty and GST into all four parts, in the order they are settled', () => {
    const parts = { penalty_paise: 5_000, interest_paise: 10_000, tax_paise: 1_800, principal_paise: 83_200 };
    const text = receiptText({ ...receipt, allocations: [{ instalment_number: 3, due_date: '2026-08-05', amount_paise: 100_000, parts }] }, t, 'UPI');
    expect(text.split('\n')).toContain('penalty(₹50) · interest(₹100) · tax(₹18) · principal(₹832)');
  });

  it("says a foreclosure's payment closed the loan early, in words, and keeps a reversal's reason as written", () => {
    const closed = { ...receipt, note: 'foreclosure', reference: null };
    expect(receiptNote(closed, t)).toBe('receiptNote()');
    expect(receiptText(closed, t, 'UPI').split('\n').slice(-2)).toEqual(['receiptNote()', 'outstanding(₹10,000)']);
    expect(receiptNote({ note: 'Cheque bounced' }, t)).toBe('Cheque bounced');
    expect(receiptNote({ note: null }, t)).toBeNull();
  });

  it("offers Reverse on a payment, never on a reversal or a foreclosure's payment (the server keeps that final)", () => {
    expect(isReversible({ kind: 'payment', note: null })).toBe(true);
    expect(isReversible({ kind: 'payment', note: 'foreclosure' })).toBe(false);
    expect(isReversible({ kind: 'reversal', note: 'Cheque bounced' })).toBe(false);
  });

  it('says reversed for a reversal and falls back to the retailer name without a shop', () => {
    const text = receiptText({ ...receipt, kind: 'reversal', amount_paise: -200_000, reference: null, retailer: { ...receipt.retailer, shop_name: null } }, t, 'UPI');
    expect(text).toContain('heading(Rahul Sharma)');
    expect(text).toContain('reversed(-₹2,000|UPI)');
    expect(text).not.toContain('reference(');
  });
});
