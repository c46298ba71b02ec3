/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { WarrantyRules } from '@kisht/contract/warranty';
import { percentOf, rulesInWords, type Translate } from './rules.ts';

const EN = JSON.parse(readFileSync(new URL('../../../../../locales/en.json', import.meta.url), 'utf8')) as Record<string, unknown>;
/** en.json with i18next's {{placeholders}} filled, so the sentences read as the retailer sees them. */
const t: Translate = (key, vars = {}) => {
  const text = key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), EN);
  if (typeof text !== 'string') throw new Error(`no en text for ${key}`);
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));
};

const contract: WarrantyRules = {
  cover_kind: 'service_contract', insurer_name: null, purchase_window_days: 15, waiting_days: 0, term_months: 24, brand_warranty_months: 12,
  covers_defects: true, covers_accidental: false, covers_liquid: false,
  deductible_bands: [{ from_months: 0, to_months: 18, bps: 0 }, { from_months: 18, to_months: null, bps: 1000 }], max_claims: 3, cover_limit_bps: 10000,
};
const insurance: WarrantyRules = {
  ...contract, cover_kind: 'insurance', insurer_name: 'Suraksha General', waiting_days: 7, term_months: 12, covers_defects: false, covers_accidental: true, covers_liquid: true,
  deductible_bands: [{ from_months: 0, to_months: 6, bps: 0 }, { from_months: 6, to_months: 12, bps: 1250 }, { from_months: 12, to_months: null, bps: 2000 }], max_claims: 2, cover_limit_bps: 8000,
};

describe("a plan's rules in words", () => {
  it('says a service contract is not insurance, and covers defects after the brand warranty', () => {
    const words = rulesInWords(contract, t);
    expect(words.kind).toMatch(/not insurance/);
    expect(words.covers).toEqual([expect.stringContaining('12 months')]);
    expect(words.deductibles).toEqual(['Phone 0 to 18 months old: deductible 0% of the claim', 'Phone 18 months old or more: deductible 10% of the claim']);
    expect(words.facts[0]).toBe(t('warranty.rules.noWaiting'));
  });

  it('names the insurer, every cover, the waiting period, the term, the claims, the limit and the purchase window', () => {
    const words = rulesInWords(insurance, t);
    expect(words.kind).toContain('Suraksha General');
    expect(words.covers).toHaveLength(2);
    expect(words.deductibles[1]).toContain('12.5%');
    expect(words.facts).toEqual([
      t('warranty.rules.waiting', { days: 7 }), t('warranty.rules.term', { months: 12 }), t('warranty.rules.claims', { count: 2 }),
      t('warranty.rules.coverLimit', { percent: '80%' }), t('warranty.rules.window', { days: 15 }),
    ]);
  });

  it('writes basis points as exact percentages', () => {
    expect([percentOf(0), percentOf(1000), percentOf(1250), percentOf(5), percentOf(10000)]).toEqual(['0%', '10%', '12.5%', '0.05%', '100%']);
  });
});
