import { describe, expect, it } from 'vitest';
import { KEY_STOCK_LOW_MAX, keyStockLevel } from './key-stock.ts';

describe('keyStockLevel', () => {
  it('is red at 0, amber from 1 to 5, green from 6', () => {
    expect([0, 1, 5, 6, 250].map(keyStockLevel)).toEqual(['empty', 'low', 'low', 'ok', 'ok']);
    expect(keyStockLevel(KEY_STOCK_LOW_MAX + 1)).toBe('ok');
  });
  it('never reads a negative balance as stock', () => {
    expect(keyStockLevel(-3)).toBe('empty');
  });
});
