/**
 * A plan's rules (decision 021) in plain words for the retailer choosing one: service contract or insurance (with
 * its insurer), what it covers, the waiting period, the term, the deductible by the phone's age, the claims allowed,
 * the most a claim pays and the purchase window. Sentences come from the dictionary; the certificate uses the same
 * words for the cover and the deductible (warranty.certificate.*).
 */
import type { DeductibleBand, WarrantyRules } from '@kisht/domain/warranty';
import { bpsToPercentText } from '@kisht/domain/money-input';

export type Translate = (key: string, vars?: Record<string, string | number>) => string;

/** Basis points as a percentage, exactly: 1000 is "10%", 1250 "12.5%", 0 "0%". */
export const percentOf = (bps: number) => `${bpsToPercentText(bps)}%`;

/** One deductible band as a sentence: "Phone 6 to 12 months old: deductible 10% of the claim". */
export function deductibleLine(band: DeductibleBand, t: Translate): string {
  const age = band.to_months === null
    ? t('warranty.certificate.ageFrom', { from: band.from_months })
    : t('warranty.certificate.ageRange', { from: band.from_months, to: band.to_months });
  return t('warranty.certificate.deductible', { age, percent: percentOf(band.bps) });
}

export interface RulesInWords {
  /** Service contract (not insurance), or insurance from its insurer. */
  kind: string;
  covers: string[];
  deductibles: string[];
  /** Waiting period, term, claims, cover limit, purchase window. */
  facts: string[];
}

export function rulesInWords(rules: WarrantyRules, t: Translate): RulesInWords {
  const covers = [
    ...(rules.covers_defects ? [t('warranty.certificate.covers.defects', { months: rules.brand_warranty_months })] : []),
    ...(rules.covers_accidental ? [t('warranty.certificate.covers.accidental')] : []),
    ...(rules.covers_liquid ? [t('warranty.certificate.covers.liquid')] : []),
  ];
  return {
    kind: rules.cover_kind === 'insurance' ? t('warranty.rules.insurance', { insurer: rules.insurer_name ?? '' }) : t('warranty.rules.serviceContract'),
    covers,
    deductibles: rules.deductible_bands.map((band) => deductibleLine(band, t)),
    facts: [
      rules.waiting_days > 0 ? t('warranty.rules.waiting', { days: rules.waiting_days }) : t('warranty.rules.noWaiting'),
      t('warranty.rules.term', { months: rules.term_months }),
      t('warranty.rules.claims', { count: rules.max_claims }),
      t('warranty.rules.coverLimit', { percent: percentOf(rules.cover_limit_bps) }),
      t('warranty.rules.window', { days: rules.purchase_window_days }),
    ],
  };
}
