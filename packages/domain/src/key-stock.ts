/**
 * Key (license) stock as the dashboard colours it: green with 6 or more keys of a product type, amber with
 * 1 to 5 (time to ask for more), red at 0 (no enrolment of that type is possible).
 */
export const KEY_STOCK_LOW_MAX = 5;

export type KeyStockLevel = 'ok' | 'low' | 'empty';

export function keyStockLevel(balance: number): KeyStockLevel {
  if (balance <= 0) return 'empty';
  return balance <= KEY_STOCK_LOW_MAX ? 'low' : 'ok';
}
