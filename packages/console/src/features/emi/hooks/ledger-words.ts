/**
 * The ledger in words: a payment's split by part, a statement line's label, a schedule change's before and
 * after, shared by the receipt (on screen and as shared text), the statement and the changes list.
 */
import type { InstalmentChange, LedgerParts, StatementLine } from '@kisht/contract/emi';
import { formatDate } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import type { Translate } from './receipt-text.ts';

/**
 * "Interest ₹120", "Principal ₹880", ...: interest and principal always (they say where the money went), the
 * penalty and GST only when there is one, so a plain EMI's split stays short on a small phone.
 */
export function partLabels(parts: LedgerParts, t: Translate): string[] {
  const labels: string[] = [];
  if (parts.penalty_paise !== 0) labels.push(t('ledger.parts.penalty', { amount: formatRupees(parts.penalty_paise) }));
  labels.push(t('ledger.parts.interest', { amount: formatRupees(parts.interest_paise) }));
  if (parts.tax_paise !== 0) labels.push(t('ledger.parts.tax', { amount: formatRupees(parts.tax_paise) }));
  labels.push(t('ledger.parts.principal', { amount: formatRupees(parts.principal_paise) }));
  return labels;
}

/** An amount that moves a balance: "+₹2,000" for what is added, "-₹1,000" for what is taken off. */
export function signedRupees(paise: number): string {
  return paise > 0 ? `+${formatRupees(paise)}` : formatRupees(paise);
}

/** Reasons the server records as codes, not words: said in the user's language. */
const REASON_CODES: Record<string, string> = { foreclosure_fee: 'ledger.foreclose.fee', foreclosure: 'ledger.foreclose.receiptNote' };

/** What a statement line is ("Payment"), what it is about ("Receipt R-0009", "Instalment 3"), and its reason, or nulls. */
export function statementLineWords(line: StatementLine, t: Translate): { kind: string; about: string | null; reason: string | null } {
  const kind = t(`ledger.statement.kind.${line.kind}`);
  const code = line.reason !== null ? REASON_CODES[line.reason] : undefined;
  const reason = code ? t(code) : line.reason;
  if ((line.kind === 'payment' || line.kind === 'reversal') && line.receipt_no) return { kind, about: t('ledger.statement.receipt', { number: line.receipt_no }), reason };
  if (line.instalment_number !== null) return { kind, about: t('ledger.statement.instalment', { number: line.instalment_number }), reason };
  return { kind, about: null, reason };
}

export type ChangedField = 'dueDate' | 'amount' | 'penalty';

export interface FieldChange {
  field: ChangedField;
  /** null for an instalment that was added (it had no before). */
  before: string | null;
  after: string;
}

/** The fields a schedule change moved, formatted; an added instalment lists its due date and amount (and any penalty). */
export function changedFields(change: InstalmentChange): FieldChange[] {
  const { before, after } = change;
  const date = (value: string | null) => (value ? formatDate(value) : '–');
  const rows: FieldChange[] = [];
  if (!before || before.due_date !== after.due_date) rows.push({ field: 'dueDate', before: before ? date(before.due_date) : null, after: date(after.due_date) });
  if (!before || before.amount_paise !== after.amount_paise) rows.push({ field: 'amount', before: before ? formatRupees(before.amount_paise) : null, after: formatRupees(after.amount_paise) });
  if (before ? before.penalty_paise !== after.penalty_paise : after.penalty_paise !== 0) {
    rows.push({ field: 'penalty', before: before ? formatRupees(before.penalty_paise) : null, after: formatRupees(after.penalty_paise) });
  }
  return rows;
}
