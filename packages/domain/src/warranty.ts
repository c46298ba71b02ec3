/**
 * Extended warranty plans sold with a phone (decision 021): whether a phone may be sold a plan, the period it
 * covers, whether a claim may be raised, the claim's states, and what a claim pays. Dates are calendar dates in
 * India ('YYYY-MM-DD'); money is integer paise; shares are integer basis points (10000 = 100 %). Every amount is
 * worked out with integer arithmetic (BigInt), so no float decides a paisa.
 */
import { addDays, addMonths, daysBetween, isIsoDate } from './calendar.ts';

/**
 * A repair plan the shop or the brand services itself (a service contract), or cover backed by an insurer.
 * Indian rules keep them apart: only an insurer may cover accidental or liquid damage.
 */
export const COVER_KINDS = ['service_contract', 'insurance'] as const;
export type CoverKind = (typeof COVER_KINDS)[number];

/** What went wrong with the phone, as the claim says. */
export const CLAIM_CAUSES = ['defect', 'accidental', 'liquid'] as const;
export type ClaimCause = (typeof CLAIM_CAUSES)[number];

export const CLAIM_STATES = ['intimated', 'documents', 'approved', 'rejected', 'repaired', 'replaced', 'settled'] as const;
export type ClaimState = (typeof CLAIM_STATES)[number];

/** Where a claim may go from each state; rejected and the three outcomes end it. */
export const CLAIM_MOVES: Readonly<Record<ClaimState, readonly ClaimState[]>> = {
  intimated: ['documents', 'rejected'],
  documents: ['approved', 'rejected'],
  approved: ['repaired', 'replaced', 'settled'],
  rejected: [],
  repaired: [],
  replaced: [],
  settled: [],
};

/** 10000 basis points: the whole amount. */
export const FULL_BPS = 10_000;
/** The highest invoice value a plan is sold on: ₹10,00,000, far above any phone. */
export const MAX_INVOICE_PAISE = 100_000_000;
/** Photos a claim carries. */
export const CLAIM_PHOTOS_MIN = 1;
export const CLAIM_PHOTOS_MAX = 5;

/**
 * A share taken off a claim by the phone's age: from `from_months` (inclusive) to `to_months` (exclusive; null:
 * no end) of completed months since the invoice date.
 */
export interface DeductibleBand {
  from_months: number;
  to_months: number | null;
  bps: number;
}

/** A plan's rules, as its product sets them and as a sale keeps them. */
export interface WarrantyRules {
  cover_kind: CoverKind;
  /** The insurer behind insurance-backed cover; null for a service contract. */
  insurer_name: string | null;
  /** Days after the invoice date in which the plan may still be sold. */
  purchase_window_days: number;
  /** Days after the sale before the cover starts. */
  waiting_days: number;
  /** Months from the invoice date to the end of the cover. */
  term_months: number;
  /** Months of the brand's own warranty: a manufacturing defect is covered only after them. */
  brand_warranty_months: number;
  covers_defects: boolean;
  covers_accidental: boolean;
  covers_liquid: boolean;
  deductible_bands: DeductibleBand[];
  /** Claims that may be raised over the plan's life (rejected ones do not count). */
  max_claims: number;
  /** The most a claim pays, as a share of the invoice value (10000: the invoice value). */
  cover_limit_bps: number;
}

const isCount = (n: unknown, max: number): n is number => Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= max;

/** What is wrong with a set of deductible bands, or null: they must start at 0, follow each other and end open. */
export function bandsProblem(bands: readonly DeductibleBand[]): string | null {
  if (bands.length === 0) return 'no bands';
  let from = 0;
  for (const [i, band] of bands.entries()) {
    if (band.from_months !== from) return `band ${i + 1} starts at ${band.from_months}, not ${from}`;
    if (!isCount(band.bps, FULL_BPS)) return `band ${i + 1}: bps must be an integer from 0 to ${FULL_BPS}`;
    const last = i === bands.length - 1;
    if (last) {
      if (band.to_months !== null) return 'the last band must have no end';
    } else {
      if (band.to_months === null || !isCount(band.to_months, 1200) || band.to_months <= band.from_months) return `band ${i + 1} must end after it starts`;
      from = band.to_months;
    }
  }
  return null;
}

/** What is wrong with a plan's rules, or null. The database holds the same checks. */
export function rulesProblem(rules: WarrantyRules): string | null {
  if (!COVER_KINDS.includes(rules.cover_kind)) return 'unknown cover kind';
  if ((rules.cover_kind === 'insurance') !== (rules.insurer_name !== null && rules.insurer_name.trim() !== '')) return 'an insurer is named for insurance-backed cover, and only for it';
  if (rules.cover_kind === 'service_contract' && (rules.covers_accidental || rules.covers_liquid)) return 'only insurance-backed cover may cover accidental or liquid damage';
  if (!rules.covers_defects && !rules.covers_accidental && !rules.covers_liquid) return 'the plan covers nothing';
  if (!isCount(rules.purchase_window_days, 365) || !isCount(rules.waiting_days, 365)) return 'day counts must be integers from 0 to 365';
  if (!isCount(rules.term_months, 120) || rules.term_months < 1 || !isCount(rules.brand_warranty_months, 60)) return 'month counts out of range';
  if (rules.covers_defects && rules.brand_warranty_months >= rules.term_months) return 'the term must end after the brand warranty';
  if (!isCount(rules.max_claims, 20) || rules.max_claims < 1) return 'max_claims must be from 1 to 20';
  if (!isCount(rules.cover_limit_bps, FULL_BPS) || rules.cover_limit_bps < 1) return `cover_limit_bps must be from 1 to ${FULL_BPS}`;
  return bandsProblem(rules.deductible_bands);
}

/** Why a phone may not be sold a plan. */
export type SaleRefusal = 'invoice_date_invalid' | 'invoice_in_future' | 'invoice_value' | 'window_closed';

/**
 * Whether the phone may be sold this plan today: its invoice date is a real date not after today, its value is
 * above nothing and at most MAX_INVOICE_PAISE, today is within the purchase window after the invoice date, and the
 * cover it would get is not over before it starts.
 */
export function saleRefusal(rules: WarrantyRules, phone: { invoice_date: string; invoice_value_paise: number }, today: string): SaleRefusal | null {
  if (!isIsoDate(phone.invoice_date)) return 'invoice_date_invalid';
  if (daysBetween(today, phone.invoice_date) > 0) return 'invoice_in_future';
  if (!Number.isSafeInteger(phone.invoice_value_paise) || phone.invoice_value_paise <= 0 || phone.invoice_value_paise > MAX_INVOICE_PAISE) return 'invoice_value';
  if (daysBetween(phone.invoice_date, today) > rules.purchase_window_days) return 'window_closed';
  const cover = coverPeriod(rules, phone.invoice_date, today);
  if (cover.start > cover.end) return 'window_closed';
  return null;
}

/**
 * The days a sale covers, both included: from the sale date plus the waiting period (damage already done when the
 * plan was bought is not covered) to the day before the invoice date plus the term.
 */
export function coverPeriod(rules: Pick<WarrantyRules, 'waiting_days' | 'term_months'>, invoiceDate: string, saleDate: string): { start: string; end: string } {
  return { start: addDays(saleDate, rules.waiting_days), end: addDays(addMonths(invoiceDate, rules.term_months), -1) };
}

/**
 * Completed months from the invoice date to `onDate`: 0 until the first monthly anniversary (a month-end invoice's
 * anniversary in a shorter month is that month's last day). A date on or before the invoice date is 0.
 */
export function ageInMonths(invoiceDate: string, onDate: string): number {
  if (daysBetween(invoiceDate, onDate) <= 0) return 0;
  const [y0, m0] = invoiceDate.split('-').map(Number) as [number, number];
  const [y1, m1] = onDate.split('-').map(Number) as [number, number];
  let months = (y1 - y0) * 12 + (m1 - m0);
  while (months > 0 && addMonths(invoiceDate, months) > onDate) months--;
  return months;
}

/** The sale as a claim is checked against it. */
export interface ClaimableSale {
  rules: WarrantyRules;
  invoice_date: string;
  cover_start: string;
  cover_end: string;
  imei: string;
  revoked: boolean;
  /** Claims raised so far that were not rejected. */
  claims_so_far: number;
}

/** Why a claim may not be raised. */
export type ClaimRefusal = 'revoked' | 'not_started' | 'ended' | 'imei_mismatch' | 'cause_not_covered' | 'brand_warranty' | 'claim_limit';

/**
 * Whether a claim may be raised on `date`: the plan is not revoked, its cover has started and not ended, the phone
 * is the one sold (its IMEI), the plan covers the cause (a defect only once the brand warranty is over), and the
 * plan has claims left.
 */
export function claimRefusal(sale: ClaimableSale, claim: { imei: string; cause: ClaimCause; date: string }): ClaimRefusal | null {
  if (sale.revoked) return 'revoked';
  if (claim.date < sale.cover_start) return 'not_started';
  if (claim.date > sale.cover_end) return 'ended';
  if (claim.imei !== sale.imei) return 'imei_mismatch';
  const { rules } = sale;
  const covered = claim.cause === 'defect' ? rules.covers_defects : claim.cause === 'accidental' ? rules.covers_accidental : rules.covers_liquid;
  if (!covered) return 'cause_not_covered';
  if (claim.cause === 'defect' && claim.date < addMonths(sale.invoice_date, rules.brand_warranty_months)) return 'brand_warranty';
  if (sale.claims_so_far >= rules.max_claims) return 'claim_limit';
  return null;
}

export function canMoveClaim(from: ClaimState, to: ClaimState): boolean {
  return CLAIM_MOVES[from].includes(to);
}

export function isFinalClaimState(state: ClaimState): boolean {
  return CLAIM_MOVES[state].length === 0;
}

/** The deductible share for a phone this many completed months old (the band it falls in). */
export function deductibleBps(bands: readonly DeductibleBand[], ageMonths: number): number {
  const band = bands.find((b) => ageMonths >= b.from_months && (b.to_months === null || ageMonths < b.to_months));
  if (!band) throw new RangeError(`no deductible band for ${ageMonths} months`);
  return band.bps;
}

/** `amount` × `bps` / 10000, rounded to the nearest paisa, halves up; exact for any safe integers. */
export function shareOf(amount: number, bps: number): number {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`amount must be whole paise, got ${amount}`);
  if (!Number.isSafeInteger(bps) || bps < 0 || bps > FULL_BPS) throw new RangeError(`bps must be an integer from 0 to ${FULL_BPS}, got ${bps}`);
  const scaled = BigInt(amount) * BigInt(bps);
  return Number((scaled * 2n + BigInt(FULL_BPS)) / (2n * BigInt(FULL_BPS)));
}

export interface ClaimPayout {
  /** The most a claim pays: the cover limit's share of the invoice value. */
  cover_limit_paise: number;
  /** The assessed cost, capped at the cover limit. */
  base_paise: number;
  device_age_months: number;
  deductible_bps: number;
  deductible_paise: number;
  payable_paise: number;
}

/**
 * What an approved claim pays: the assessed repair cost, at most the cover limit (the plan's share of the invoice
 * value), less the deductible for the phone's age at the claim date (a share of that amount). Each share is rounded
 * to the nearest paisa, halves up; the result is never below 0.
 */
export function claimPayout(
  rules: Pick<WarrantyRules, 'cover_limit_bps' | 'deductible_bands'>,
  claim: { invoice_value_paise: number; assessed_cost_paise: number; invoice_date: string; claim_date: string },
): ClaimPayout {
  if (!Number.isSafeInteger(claim.assessed_cost_paise) || claim.assessed_cost_paise < 0) throw new RangeError('the assessed cost must be whole paise, not below 0');
  const cover_limit_paise = shareOf(claim.invoice_value_paise, rules.cover_limit_bps);
  const base_paise = Math.min(claim.assessed_cost_paise, cover_limit_paise);
  const device_age_months = ageInMonths(claim.invoice_date, claim.claim_date);
  const deductible_bps = deductibleBps(rules.deductible_bands, device_age_months);
  const deductible_paise = shareOf(base_paise, deductible_bps);
  return { cover_limit_paise, base_paise, device_age_months, deductible_bps, deductible_paise, payable_paise: Math.max(0, base_paise - deductible_paise) };
}

/** Letters and digits that cannot be mistaken for each other (no I, O, 0 or 1) when a number is read aloud. */
const CERTIFICATE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CERTIFICATE = /^KW-(\d{4})-([A-HJ-NP-Z2-9]{4})-([A-HJ-NP-Z2-9]{4})$/;

/** A certificate number: KW, the sale's year and eight random characters in two groups (KW-2026-7QMX-4KDP). */
export function newCertificateNumber(year: number, randomIndex: (size: number) => number): string {
  const chars = Array.from({ length: 8 }, () => CERTIFICATE_ALPHABET[randomIndex(CERTIFICATE_ALPHABET.length)]!);
  return `KW-${String(year).padStart(4, '0')}-${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

/** A certificate number as typed (any case, spaces or dashes between the groups, or none), or null. */
export function parseCertificateNumber(text: string): string | null {
  const compact = text.trim().toUpperCase().replace(/[\s-]/g, '');
  const match = /^KW(\d{4})([A-Z0-9]{4})([A-Z0-9]{4})$/.exec(compact);
  if (!match) return null;
  const canonical = `KW-${match[1]}-${match[2]}-${match[3]}`;
  return CERTIFICATE.test(canonical) ? canonical : null;
}
