/** How a line of the key history reads: its label, its sign, and the CSV file's name. */
import type { HistoryEntry } from '@kisht/contract/network';

export const HISTORY_KINDS = ['received', 'sent', 'requested', 'returned', 'consumed', 'released', 'topup', 'rejected'] as const;

/** The translation key of a line's kind; an unknown kind (a newer server) reads as a movement. */
export const historyKindKey = (entry: Pick<HistoryEntry, 'kind'>) =>
  (HISTORY_KINDS as readonly string[]).includes(entry.kind) ? `network.history.kind.${entry.kind}` : 'network.history.kind.other';

/** +5, -1, or 0 for a request that moved nothing yet. */
export const signedChange = (change: number) => (change > 0 ? `+${change}` : String(change));

/** key-history-<who>-<from>-<to>.csv, with only the parts the filter has. */
export function exportFileName(filter: { user_id?: number; from?: string; to?: string }): string {
  return ['key-history', filter.user_id, filter.from, filter.to].filter((part) => part !== undefined && part !== '').join('-') + '.csv';
}
