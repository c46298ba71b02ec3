import { describe, expect, it } from 'vitest';
import type { InstalmentView } from '@kisht/contract/emi';
import { checkInstalmentEdit, checkNewInstalment, checkPenalty, checkWaiver, isEditable, placeServerDetails, unpaidPenaltyAtMost } from './instalment-edit.ts';

const base: InstalmentView = {
  id: 11,
  number: 2,
  due_date: '2025-03-05',
  principal_paise: 90000,
  interest_paise: 10000,
  tax_paise: 0,
  amount_paise: 100000,
  penalty_paise: 0,
  unpaid_penalty_paise: 0,
  paid_paise: 40000,
  outstanding_paise: 60000,
  status: 'partial',
  days_past_due: 0,
  advance: false,
  paid_at: null,
};

describe('instalment edit', () => {
  it('only instalments not fully paid are editable', () => {
    expect(isEditable(base)).toBe(true);
    expect(isEditable({ ...base, status: 'paid' })).toBe(false);
  });

  it('sends the changed fields in paise', () => {
    expect(checkInstalmentEdit(3, base, { dueDate: '2025-03-10', amount: '1000', reason: '' })).toEqual({ ok: true, body: { customer_id: 3, instalment_id: 11, due_date: '2025-03-10' } });
    expect(checkInstalmentEdit(3, base, { dueDate: '2025-03-05', amount: '1200.50', reason: '' })).toEqual({ ok: true, body: { customer_id: 3, instalment_id: 11, amount_paise: 120050 } });
  });

  it('refuses an amount below what was paid, bad amounts and missing dates', () => {
    const below = checkInstalmentEdit(3, base, { dueDate: '2025-03-05', amount: '399', reason: '' });
    expect(below.ok).toBe(false);
    if (!below.ok) expect(below.errors.amount?.key).toBe('emiEdit.belowPaid');
    const bad = checkInstalmentEdit(3, base, { dueDate: '', amount: 'abc', reason: '' });
    expect(bad).toEqual({ ok: false, errors: { dueDate: { key: 'common.required' }, amount: { key: 'addCustomer.errors.amount' } } });
  });

  it('sends a reason when one is given, and refuses one too short', () => {
    expect(checkInstalmentEdit(3, base, { dueDate: '2025-03-12', amount: '1000', reason: ' Customer asked ' })).toEqual({
      ok: true,
      body: { customer_id: 3, instalment_id: 11, due_date: '2025-03-12', reason: 'Customer asked' },
    });
    expect(checkNewInstalment(3, { dueDate: '2026-01-01', amount: '500', reason: 'Screen repair' })).toEqual({
      ok: true,
      body: { customer_id: 3, due_date: '2026-01-01', amount_paise: 50000, reason: 'Screen repair' },
    });
    const short = checkNewInstalment(3, { dueDate: '2026-01-01', amount: '500', reason: 'ok' });
    expect(short.ok).toBe(false);
    if (!short.ok) expect(short.errors.reason?.key).toBe('receipt.reasonTooShort');
  });

  it('adds an instalment', () => {
    expect(checkNewInstalment(3, { dueDate: '2026-01-01', amount: '₹ 1,500', reason: '' })).toEqual({ ok: true, body: { customer_id: 3, due_date: '2026-01-01', amount_paise: 150000 } });
    expect(checkNewInstalment(3, { dueDate: '2026-01-01', amount: '0', reason: '' }).ok).toBe(false);
  });
});

describe('penalty', () => {
  it('needs a positive amount and a 3-200 character reason', () => {
    expect(checkPenalty(3, base, { amount: '250', reason: ' Late ' })).toEqual({ ok: true, body: { customer_id: 3, instalment_id: 11, amount_paise: 25000, reason: 'Late' } });
    const short = checkPenalty(3, base, { amount: '', reason: 'ab' });
    expect(short.ok).toBe(false);
    if (!short.ok) expect(Object.keys(short.errors).sort()).toEqual(['amount', 'reason']);
    const big = checkPenalty(3, base, { amount: '100001', reason: 'Late payment' });
    expect(big.ok).toBe(false);
  });
});

describe('server details', () => {
  it('places VALIDATION_FAILED details on the form fields', () => {
    expect(placeServerDetails([{ field: 'body.amount_paise', message: 'too small' }, { field: 'other', message: 'x' }], { amount_paise: 'amount' })).toEqual({ amount: 'too small' });
  });
});

describe('waiver', () => {
  // Rs 1,000 due with a Rs 200 penalty, none of it paid yet.
  const late: InstalmentView = { ...base, penalty_paise: 20000, unpaid_penalty_paise: 20000, outstanding_paise: 80000 };

  it("can waive what the server says is unpaid of the penalty, and nothing when it is paid", () => {
    expect(unpaidPenaltyAtMost(late)).toBe(20000);
    expect(unpaidPenaltyAtMost({ ...late, unpaid_penalty_paise: 5000 })).toBe(5000);
    expect(unpaidPenaltyAtMost(base)).toBe(0);
  });

  it('leaves the amount out for the whole penalty, so the server waives all that is unpaid', () => {
    expect(checkWaiver(3, late, { amount: '200', reason: ' Paid late because of floods ' })).toEqual({
      ok: true,
      body: { customer_id: 3, instalment_id: 11, reason: 'Paid late because of floods' },
    });
  });

  it('sends a part waiver in paise', () => {
    expect(checkWaiver(3, late, { amount: '50.50', reason: 'Goodwill' })).toEqual({
      ok: true,
      body: { customer_id: 3, instalment_id: 11, amount_paise: 5050, reason: 'Goodwill' },
    });
  });

  it('refuses more than the penalty, no amount and a missing reason', () => {
    const over = checkWaiver(3, late, { amount: '201', reason: 'Goodwill' });
    expect(over).toEqual({ ok: false, errors: { amount: { key: 'ledger.waive.tooLarge', vars: { amount: '₹200' } } } });
    const empty = checkWaiver(3, late, { amount: ' ', reason: '' });
    expect(empty).toEqual({ ok: false, errors: { amount: { key: 'common.required' }, reason: { key: 'common.required' } } });
  });
});
