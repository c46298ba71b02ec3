/**
 * The extended warranty certificate's content in one language: labels and sentences from packages/locales
 * (warranty.certificate.*), dates as DD-MM-YYYY and amounts in rupees as the console shows them. The console draws
 * it (an image or a PDF the customer is sent); the server words it, so every copy reads the same.
 */
import type { Language } from '@kisht/domain/constants';
import { todayInIndia } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { shareOf, type DeductibleBand } from '@kisht/domain/warranty';
import type { WarrantyCertificate, WarrantySale } from '@kisht/contract/warranty';
import { translate } from '../../shared/messages.ts';

/** A calendar date (YYYY-MM-DD) as DD-MM-YYYY. */
const dayText = (isoDate: string) => isoDate.split('-').reverse().join('-');

/** Basis points as a percentage, exactly: 1000 is 10%, 1250 is 12.5%, 5 is 0.05%. */
export function percentText(bps: number): string {
  const whole = Math.floor(bps / 100);
  const rest = String(bps % 100).padStart(2, '0').replace(/0+$/, '');
  return `${whole}${rest ? `.${rest}` : ''}%`;
}

export function certificateOf(row: { terms: string | null }, sale: WarrantySale, lng: Language): WarrantyCertificate {
  const t = (key: string, fallback: string, vars: Record<string, string | number> = {}) => translate(lng, `warranty.certificate.${key}`, fallback, vars);
  const { rules } = sale;
  const line = (key: string, label: string, value: string) => ({ key, label, value });
  const lines = [
    line('certificate_no', t('number', 'Certificate no.'), sale.certificate_no),
    line('plan', t('plan', 'Plan'), sale.plan_name),
    line('cover_kind', t('coverKind', 'Type of cover'), t(`kind.${sale.cover_kind}`, sale.cover_kind)),
    ...(sale.insurer_name ? [line('insurer', t('insurer', 'Insurer'), sale.insurer_name)] : []),
    line('customer', t('customer', 'Customer'), `${sale.first_name} ${sale.last_name}`),
    line('mobile', t('mobile', 'Mobile'), sale.mobile),
    line('device', t('device', 'Phone'), `${sale.brand} ${sale.model}`),
    line('imei', t('imei', 'IMEI'), sale.imei),
    line('invoice_date', t('invoiceDate', 'Invoice date'), dayText(sale.invoice_date)),
    line('invoice_value', t('invoiceValue', 'Invoice value'), formatRupees(sale.invoice_value_paise)),
    line('sale_date', t('saleDate', 'Date of sale'), dayText(sale.sale_date)),
    line('cover_from', t('coverFrom', 'Cover from'), dayText(sale.cover_start)),
    line('cover_until', t('coverUntil', 'Cover until'), dayText(sale.cover_end)),
    line('max_claims', t('maxClaims', 'Claims allowed'), String(rules.max_claims)),
    line('cover_limit', t('coverLimit', 'Most paid per claim'), formatRupees(shareOf(sale.invoice_value_paise, rules.cover_limit_bps))),
    ...(sale.retailer_name ? [line('sold_by', t('soldBy', 'Sold by'), sale.retailer_name)] : []),
  ];
  const covers = [
    ...(rules.covers_defects ? [t('covers.defects', "Manufacturing defects, once the brand's warranty of {{months}} months has ended", { months: rules.brand_warranty_months })] : []),
    ...(rules.covers_accidental ? [t('covers.accidental', 'Accidental damage, such as a broken screen')] : []),
    ...(rules.covers_liquid ? [t('covers.liquid', 'Liquid damage')] : []),
  ];
  const age = (band: DeductibleBand) => (band.to_months === null
    ? t('ageFrom', '{{from}} months old or more', { from: band.from_months })
    : t('ageRange', '{{from}} to {{to}} months old', { from: band.from_months, to: band.to_months }));
  const deductibles = rules.deductible_bands.map((band) => t('deductible', 'Phone {{age}}: deductible {{percent}} of the claim', { age: age(band), percent: percentText(band.bps) }));
  const notes = [
    ...(sale.revoked_at ? [t('notes.revoked', 'This plan was cancelled on {{date}}.', { date: dayText(todayInIndia(new Date(sale.revoked_at))) })] : []),
    sale.cover_kind === 'insurance'
      ? t('notes.insurance', "This cover is insurance from {{insurer}}, arranged by the seller. The insurer's policy terms apply.", { insurer: sale.insurer_name ?? '' })
      : t('notes.serviceContract', 'This is a service contract: the seller or the brand arranges the repairs. It is not insurance.'),
    ...(rules.waiting_days > 0 ? [t('notes.waiting', 'Cover starts {{days}} days after the date of sale.', { days: rules.waiting_days })] : []),
    t('notes.howToClaim', 'To claim, bring the phone and this certificate to the shop that sold the plan.'),
  ];
  return { lng, title: t('title', 'Extended warranty certificate'), certificate_no: sale.certificate_no, lines, covers, deductibles, notes, terms: row.terms, sale };
}
