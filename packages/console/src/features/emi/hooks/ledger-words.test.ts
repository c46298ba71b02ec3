import { describe, expect, it } from 'vitest';
import type { InstalmentChange, StatementLine } from '@kisht/contract/emi';
import { changedFields, partLabels, signedRupees, statementLineWords } from './ledger-words.ts';

const t = (key: string, vars: Record<string, string | number> = {}) => `${key.split('.').slice(-2).join('.')}(${Object.values(vars).join('|')})`;

describe('a payment split by part', () => {
  it('always names interest and principal, the penalty and GST only when there are any', () => {
    expect(partLabels({ penalty_paise: 0, interest_paise: 12_000, tax_paise: 0, principal_paise: 88_000 }, t)).toEqual(['parts.interest(₹120)', 'parts.principal(₹880)']);
    expect(partLabels({ penalty_paise: 5_000, interest_paise: 10_000, tax_paise: 1_800, principal_paise: 83_200 }, t)).toEqual([
      'parts.penalty(₹50)',
      'parts.interest(₹100)',
      'parts.tax(₹18)',
      'parts.principal(₹832)',
    ]);
  });

  it("shows a reversal's negated parts", () => {
    expect(partLabels({ penalty_paise: 0, interest_paise: -12_000, tax_paise: 0, principal_paise: -88_000 }, t)).toEqual(['parts.interest(-₹120)', 'parts.principal(-₹880)']);
  });
});

describe('statement lines', () => {
  const line = (over: Partial<StatementLine>): StatementLine => ({
    date: '2026-06-05',
    kind: 'due',
    delta_paise: 200_000,
    balance_after_paise: 200_000,
    instalment_number: 1,
    payment_id: null,
    receipt_no: null,
    reason: null,
    parts: null,
    ...over,
  });

  it('signs what is added and what is taken off', () => {
    expect(signedRupees(200_000)).toBe('+₹2,000');
    expect(signedRupees(-50_050)).toBe('-₹500.50');
    expect(signedRupees(0)).toBe('₹0');
  });

  it('names a payment by its receipt and anything else by its instalment', () => {
    expect(statementLineWords(line({}), t)).toEqual({ kind: 'kind.due()', about: 'statement.instalment(1)', reason: null });
    expect(statementLineWords(line({ kind: 'payment', delta_paise: -100_000, instalment_number: null, payment_id: 9, receipt_no: 'R-0009' }), t)).toEqual({
      kind: 'kind.payment()',
      about: 'statement.receipt(R-0009)',
      reason: null,
    });
    expect(statementLineWords(line({ kind: 'waiver', instalment_number: 2, reason: 'Hospital stay' }), t)).toEqual({ kind: 'kind.waiver()', about: 'statement.instalment(2)', reason: 'Hospital stay' });
    expect(statementLineWords(line({ kind: 'edit', instalment_number: null }), t)).toEqual({ kind: 'kind.edit()', about: null, reason: null });
  });

  it("words the server's reason codes in the user's language, and keeps a retailer's reason as written", () => {
    expect(statementLineWords(line({ kind: 'penalty', reason: 'foreclosure_fee' }), t).reason).toBe('foreclose.fee()');
    expect(statementLineWords(line({ kind: 'penalty', reason: 'Paid late' }), t).reason).toBe('Paid late');
  });
});

describe('schedule changes', () => {
  const change = (over: Partial<InstalmentChange>): InstalmentChange => ({
    id: 1,
    kind: 'edit',
    instalment_number: 3,
    before: { due_date: '2026-08-05', amount_paise: 200_000, penalty_paise: 0 },
    after: { due_date: '2026-08-05', amount_paise: 250_000, penalty_paise: 0 },
    reason: null,
    by: 'Ravi Sharma',
    at: '2026-07-01T05:00:00.000Z',
    ...over,
  });

  it('lists only the fields that moved, before and after', () => {
    expect(changedFields(change({}))).toEqual([{ field: 'amount', before: '₹2,000', after: '₹2,500' }]);
    expect(
      changedFields(change({ kind: 'waiver', before: { due_date: '2026-08-05', amount_paise: 200_000, penalty_paise: 50_000 }, after: { due_date: '2026-08-05', amount_paise: 200_000, penalty_paise: 20_000 } })),
    ).toEqual([{ field: 'penalty', before: '₹500', after: '₹200' }]);
    expect(changedFields(change({ after: { due_date: '2026-08-20', amount_paise: 200_000, penalty_paise: 0 } }))).toEqual([{ field: 'dueDate', before: '05-08-2026', after: '20-08-2026' }]);
  });

  it('lists an added instalment by its due date and amount', () => {
    expect(changedFields(change({ kind: 'add', before: null, after: { due_date: '2026-12-05', amount_paise: 150_000, penalty_paise: 0 } }))).toEqual([
      { field: 'dueDate', before: null, after: '05-12-2026' },
      { field: 'amount', before: null, after: '₹1,500' },
    ]);
  });
});
