import { describe, expect, it } from 'vitest';
import { exportFileName, historyKindKey, signedChange } from './history.ts';

describe('key history lines', () => {
  it('label each kind the server sends, and an unknown one as a movement', () => {
    expect(historyKindKey({ kind: 'consumed' })).toBe('network.history.kind.consumed');
    expect(historyKindKey({ kind: 'settled' })).toBe('network.history.kind.other');
  });
  it('show the change with its sign', () => {
    expect([5, -1, 0].map(signedChange)).toEqual(['+5', '-1', '0']);
  });
  it('name the export after the filter', () => {
    expect(exportFileName({})).toBe('key-history.csv');
    expect(exportFileName({ user_id: 12, from: '2026-11-01', to: '2026-11-25' })).toBe('key-history-12-2026-11-01-2026-11-25.csv');
  });
});
