/** What a customer owes at a glance: outstanding, overdue and the next instalment to pay. */
import type { EmiDetails, InstalmentView } from '@kisht/contract/emi';

export interface EmiSummary {
  outstandingPaise: number;
  overduePaise: number;
  overdueCount: number;
  /** The oldest instalment not fully paid, if any. */
  next: InstalmentView | null;
  paidCount: number;
  count: number;
}

export function summariseEmis(details: EmiDetails): EmiSummary {
  const unpaid = details.instalments.filter((i) => i.status !== 'paid').sort((a, b) => a.number - b.number);
  return {
    outstandingPaise: details.totals.outstanding_paise,
    overduePaise: details.totals.overdue_paise,
    overdueCount: unpaid.filter((i) => i.status === 'overdue').length,
    next: unpaid[0] ?? null,
    paidCount: details.instalments.length - unpaid.length,
    count: details.instalments.length,
  };
}
