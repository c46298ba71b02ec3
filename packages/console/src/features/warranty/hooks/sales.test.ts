/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WARRANTY_STATES } from '@kisht/contract/warranty';
import { canClaim, canRevoke, isStateFilter, SALE_STATE_LABEL_KEYS, saleDateLine, salesListArg, STATE_FILTERS } from './sales.ts';

const EN = JSON.parse(readFileSync(new URL('../../../../../locales/en.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const lookup = (key: string) => key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), EN);

describe('the warranty list query', () => {
  it('sends only the filters that narrow the list, the search tidied and cut to 60 characters', () => {
    expect(salesListArg('', 'all')).toEqual({});
    expect(salesListArg('  kw-2026-abcd   efgh ', 'in_cover')).toEqual({ search: 'kw-2026-abcd efgh', state: 'in_cover' });
    expect(salesListArg('9'.repeat(80), 'all').search).toHaveLength(60);
  });

  it('filters by every state the contract has, and takes only those from the address', () => {
    expect([...STATE_FILTERS].sort()).toEqual(['all', ...WARRANTY_STATES].sort());
    expect(isStateFilter('waiting')).toBe(true);
    expect(isStateFilter('lost')).toBe(false);
    expect(isStateFilter(null)).toBe(false);
  });
});

describe('a sale', () => {
  it('has a label for every state in en.json', () => {
    for (const state of WARRANTY_STATES) expect(typeof lookup(SALE_STATE_LABEL_KEYS[state]), state).toBe('string');
  });

  it('takes claims only in cover, and can be cancelled until its cover ends', () => {
    expect(WARRANTY_STATES.filter((state) => canClaim({ state }))).toEqual(['in_cover']);
    expect(WARRANTY_STATES.filter((state) => canRevoke({ state }))).toEqual(['waiting', 'in_cover']);
  });

  it('says when its cover starts, ends, ended or was cancelled', () => {
    const sale = { cover_start: '2026-03-17', cover_end: '2027-03-09', revoked_at: null };
    expect(saleDateLine({ ...sale, state: 'waiting' })).toEqual({ key: 'warranty.list.startsOn', date: '2026-03-17' });
    expect(saleDateLine({ ...sale, state: 'in_cover' })).toEqual({ key: 'warranty.list.coveredUntil', date: '2027-03-09' });
    expect(saleDateLine({ ...sale, state: 'expired' })).toEqual({ key: 'warranty.list.expiredOn', date: '2027-03-09' });
    expect(saleDateLine({ ...sale, state: 'revoked', revoked_at: '2026-03-12T05:00:00.000Z' })).toEqual({ key: 'warranty.list.cancelledOn', date: '2026-03-12T05:00:00.000Z' });
    for (const key of ['warranty.list.startsOn', 'warranty.list.coveredUntil', 'warranty.list.expiredOn', 'warranty.list.cancelledOn']) expect(typeof lookup(key)).toBe('string');
  });
});
