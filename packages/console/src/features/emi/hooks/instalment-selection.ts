/** Which instalments can be paid, and what a selection of them adds up to. */
import type { InstalmentView } from '@kisht/contract/emi';

export function isPayable(instalment: InstalmentView): boolean {
  return instalment.status !== 'paid' && instalment.outstanding_paise > 0;
}

/** The selected ids that are still payable, in instalment order (a refetch may have paid some). */
export function payableSelection(instalments: readonly InstalmentView[], selected: ReadonlySet<number>): InstalmentView[] {
  return instalments.filter((i) => selected.has(i.id) && isPayable(i)).sort((a, b) => a.number - b.number);
}

export function totalOutstanding(instalments: readonly InstalmentView[]): number {
  return instalments.reduce((sum, i) => sum + i.outstanding_paise, 0);
}

export function toggleId(selected: ReadonlySet<number>, id: number): Set<number> {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** Select every payable instalment, or none when they are all selected already. */
export function toggleAll(instalments: readonly InstalmentView[], selected: ReadonlySet<number>): Set<number> {
  const payable = instalments.filter(isPayable);
  const allSelected = payable.length > 0 && payable.every((i) => selected.has(i.id));
  return allSelected ? new Set() : new Set(payable.map((i) => i.id));
}
