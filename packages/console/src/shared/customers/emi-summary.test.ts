import { describe, expect, it } from 'vitest';
import type { EmiDetails, InstalmentView } from '@kisht/contract/emi';
import { summariseEmis } from './emi-summary.ts';

const instalment = (number: number, status: InstalmentView['status'], outstanding: number): InstalmentView => ({
  id: number * 10,
  number,
  due_date: `2026-0${number}-05`,
  principal_paise: 0,
  interest_paise: 0,
  tax_paise: 0,
  amount_paise: 1000,
  penalty_paise: 0,
  unpaid_penalty_paise: 0,
  paid_paise: 1000 - outstanding,
  outstanding_paise: outstanding,
  status,
  days_past_due: status === 'overdue' ? 3 : 0,
  advance: false,
  paid_at: null,
});

describe('summariseEmis', () => {
  it('finds the oldest unpaid instalment and counts the overdue ones', () => {
    const details: EmiDetails = {
      customer_id: 1,
      emi_paise: 1000,
      loan_terms: null,
      instalments: [instalment(3, 'due', 1000), instalment(1, 'paid', 0), instalment(2, 'overdue', 400)],
      totals: { payable_paise: 3000, paid_paise: 1600, outstanding_paise: 1400, overdue_paise: 400 },
    };
    const summary = summariseEmis(details);
    expect(summary.next?.number).toBe(2);
    expect(summary).toMatchObject({ outstandingPaise: 1400, overduePaise: 400, overdueCount: 1, paidCount: 1, count: 3 });
  });

  it('has no next instalment once everything is paid', () => {
    const details: EmiDetails = {
      customer_id: 1,
      emi_paise: 1000,
      loan_terms: null,
      instalments: [instalment(1, 'paid', 0)],
      totals: { payable_paise: 1000, paid_paise: 1000, outstanding_paise: 0, overdue_paise: 0 },
    };
    expect(summariseEmis(details).next).toBeNull();
  });
});
