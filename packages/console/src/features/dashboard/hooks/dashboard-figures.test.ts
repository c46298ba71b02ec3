import { describe, expect, it } from 'vitest';
import type { DashboardStats } from '@kisht/contract/dashboard';
import { collectedTotal, collectionPoints, countOfStatus, installedCount, keysLeftTotal, shortRupees } from './dashboard-figures.ts';

const stats: DashboardStats = {
  total_customers: 12,
  customers_by_status: [
    { install_status: 0, count: 3 },
    { install_status: 1, count: 7 },
    { install_status: 5, count: 2 },
  ],
  lock: { locked: 2, unlocked: 10 },
  keys_left: [
    { product_type: 0, balance: 25 },
    { product_type: 2, balance: 5 },
  ],
  emis: { due_today: 1, due_today_paise: 150_000, overdue: 2, overdue_paise: 12_345_600 },
  collections: [
    { date: '2026-05-19', amount_paise: 0 },
    { date: '2026-05-20', amount_paise: 250_050 },
  ],
};

describe('dashboard figures', () => {
  it('reads the counts of the cards', () => {
    expect(installedCount(stats)).toBe(7);
    expect(countOfStatus(stats, 3)).toBe(0);
    expect(keysLeftTotal(stats)).toBe(30);
  });

  it('abbreviates rupee amounts with K, L and Cr', () => {
    expect(shortRupees(12_345_600)).toBe('₹1.23L');
    expect(shortRupees(150_000)).toBe('₹1.50K');
    expect(shortRupees(5_000)).toBe('₹50');
  });

  it('makes one chart point per day in rupees, labelled DD-MM in India time', () => {
    expect(collectionPoints(stats)).toEqual([
      { label: '19-05', value: 0 },
      { label: '20-05', value: 2500.5 },
    ]);
    expect(collectedTotal(stats)).toBe(250_050);
  });
});
