/** The dashboard's numbers from the stats: card values, the collections series and the status bars. */
import type { DashboardStats } from '@kisht/contract/dashboard';
import { INSTALL_STATUS } from '@kisht/domain/constants';
import { abbreviateNumber, formatDate } from '@kisht/domain/format';

/** Rupees from paise, abbreviated the Indian way: ₹1.25L. */
export function shortRupees(paise: number): string {
  return `₹${abbreviateNumber(paise / 100)}`;
}

export function countOfStatus(stats: DashboardStats, status: number): number {
  return stats.customers_by_status.find((s) => s.install_status === status)?.count ?? 0;
}

export function installedCount(stats: DashboardStats): number {
  return countOfStatus(stats, INSTALL_STATUS.install);
}

export function keysLeftTotal(stats: DashboardStats): number {
  return stats.keys_left.reduce((sum, k) => sum + k.balance, 0);
}

/** One point per day (oldest first), labelled DD-MM, valued in rupees. */
export function collectionPoints(stats: DashboardStats): { label: string; value: number }[] {
  return stats.collections.map((c) => ({ label: formatDate(c.date).slice(0, 5), value: c.amount_paise / 100 }));
}

export function collectedTotal(stats: DashboardStats): number {
  return stats.collections.reduce((sum, c) => sum + c.amount_paise, 0);
}
