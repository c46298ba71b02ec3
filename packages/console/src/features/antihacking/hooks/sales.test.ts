/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANTIHACKING_STATES } from '@kisht/contract/plans';
import { canRevoke, isStateFilter, SALE_STATE_LABEL_KEYS, saleDateLine, salesListArg } from './sales.ts';

const EN = JSON.parse(readFileSync(new URL('../../../../../locales/en.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const lookup = (key: string) => key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), EN);

describe('the sales list query', () => {
  it('sends only the filters that narrow the list, the search tidied and cut to 60 characters', () => {
    expect(salesListArg('', 'all')).toEqual({});
    expect(salesListArg('  asha   rao ', 'revoked')).toEqual({ search: 'asha rao', state: 'revoked' });
    expect(salesListArg('9'.repeat(80), 'all').search).toHaveLength(60);
  });

  it('takes only known states from the address', () => {
    expect(isStateFilter('issued')).toBe(true);
    expect(isStateFilter('all')).toBe(true);
    expect(isStateFilter('lost')).toBe(false);
    expect(isStateFilter(null)).toBe(false);
  });
});

describe('a sale as a row', () => {
  it('has a label for every code state in en.json ("Cancelled" for a revoked sale)', () => {
    for (const state of ANTIHACKING_STATES) expect(typeof lookup(SALE_STATE_LABEL_KEYS[state]), state).toBe('string');
    expect(lookup(SALE_STATE_LABEL_KEYS.revoked)).toBe('Cancelled');
  });

  it('can be cancelled only while its code works', () => {
    expect(canRevoke({ state: 'issued' })).toBe(true);
    expect(canRevoke({ state: 'activated' })).toBe(true);
    expect(canRevoke({ state: 'expired' })).toBe(false);
    expect(canRevoke({ state: 'revoked' })).toBe(false);
  });

  it('says when it ends, ended or was cancelled', () => {
    const sale = { expires_at: '2027-01-01T00:00:00Z', revoked_at: null };
    expect(saleDateLine({ ...sale, state: 'issued' })).toEqual({ key: 'antihacking.list.expires', date: sale.expires_at });
    expect(saleDateLine({ ...sale, state: 'expired' }).key).toBe('antihacking.list.expired');
    expect(saleDateLine({ ...sale, state: 'revoked', revoked_at: '2026-03-01T10:00:00Z' })).toEqual({ key: 'antihacking.list.cancelled', date: '2026-03-01T10:00:00Z' });
    for (const key of ['antihacking.list.expires', 'antihacking.list.expired', 'antihacking.list.cancelled']) expect(typeof lookup(key)).toBe('string');
  });
});
