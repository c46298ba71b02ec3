import { describe, expect, it } from 'vitest';
import { canToggle, memberPath, historyPath, newTransferId } from './member.ts';

describe('canToggle', () => {
  it('lets a granter turn off any switch, and turn on only one it holds', () => {
    expect(canToggle(true, false)).toBe(true);
    expect(canToggle(false, true)).toBe(true);
    expect(canToggle(false, false)).toBe(false);
  });
});

describe('paths', () => {
  it('puts the member id in the query, and leaves it out for the caller itself', () => {
    expect(memberPath(42)).toBe('/retailer-profile?user_id=42');
    expect(memberPath()).toBe('/retailer-profile');
    expect(historyPath(7)).toBe('/top-up-history?user_id=7');
  });
});

describe('newTransferId', () => {
  it('is a version 4 UUID as the server requires', () => {
    const ids = new Set(Array.from({ length: 50 }, () => newTransferId()));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newTransferId((b) => b.fill(255))).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
  });
});
