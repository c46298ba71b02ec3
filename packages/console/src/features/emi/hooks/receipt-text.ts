/** The text a receipt is shared or copied as (WhatsApp, SMS): plain lines, amounts in rupees. */
import type { Receipt } from '@kisht/contract/emi';
import { formatDate, formatDateTime } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { partLabels } from './ledger-words.ts';

export type Translate = (key: string, vars?: Record<string, string | number>) => string;

/** The server records a foreclosure's payment with the note `foreclosure`, a code, not words: said in the user's language. */
const FORECLOSURE_NOTE = 'foreclosure';

/** A payment that can be reversed: not a reversal, and not a foreclosure's (the server keeps that final). */
export function isReversible(receipt: Pick<Receipt, 'kind' | 'note'>): boolean {
  return receipt.kind === 'payment' && receipt.note !== FORECLOSURE_NOTE;
}

/** A receipt's note as shown: a reversal's reason as written, a foreclosure in words; null without one. */
export function receiptNote(receipt: Pick<Receipt, 'note'>, t: Translate): string | null {
  if (receipt.note === FORECLOSURE_NOTE) return t('ledger.foreclose.receiptNote');
  return receipt.note;
}

export function receiptText(receipt: Receipt, t: Translate, methodLabel: string): string {
  const shop = receipt.retailer.shop_name || receipt.retailer.name;
  const lines = [
    t('receipt.share.heading', { shop }),
    t('receipt.share.number', { number: receipt.receipt_no }),
    t('receipt.share.date', { date: formatDateTime(receipt.created_at) }),
    t('receipt.share.customer', { name: receipt.customer.name, mobile: receipt.customer.mobile }),
    t('receipt.share.device', { device: receipt.customer.device, imei: receipt.customer.imei1 }),
    ...(receipt.loan_product ? [t('kfs.text.product', { product: receipt.loan_product })] : []),
    t(receipt.kind === 'reversal' ? 'receipt.share.reversed' : 'receipt.share.paid', {
      amount: formatRupees(receipt.amount_paise),
      method: methodLabel,
    }),
    // Each instalment, then how its share splits (a payment recorded before payments were split has no split).
    ...receipt.allocations.flatMap((a) => [
      t('receipt.share.allocation', { number: a.instalment_number, date: formatDate(a.due_date), amount: formatRupees(a.amount_paise) }),
      ...(a.parts ? [partLabels(a.parts, t).join(' · ')] : []),
    ]),
    ...(receipt.note === FORECLOSURE_NOTE ? [t('ledger.foreclose.receiptNote')] : []),
    t('receipt.share.outstanding', { amount: formatRupees(receipt.outstanding_after_paise) }),
  ];
  // The reference goes right after the amount paid.
  if (receipt.reference) lines.splice(receipt.loan_product ? 7 : 6, 0, t('receipt.share.reference', { reference: receipt.reference }));
  return lines.join('\n');
}
