/**
 * The EMI add/edit screen's forms as data: which instalments can change, and the checks and request
 * bodies for editing one (due date, amount), adding one and charging a penalty. Amounts are typed in
 * rupees and sent in paise.
 */
import type { AddInstalmentBody, EditInstalmentBody, InstalmentView, PenaltyBody } from '@kisht/contract/emi';
import { isIsoDate } from '@kisht/domain/calendar';
import { formatRupees } from '@kisht/domain/money';
import { parseRupeesToPaise } from '@kisht/domain/money-input';

export interface FormError {
  key: string;
  vars?: Record<string, string | number>;
}

export type Checked<Field extends string, Body> = { ok: true; body: Body } | { ok: false; errors: Partial<Record<Field, FormError>> };

export const PENALTY_MAX_PAISE = 10_000_000;
export const REASON_MIN = 3;
export const REASON_MAX = 200;

const REQUIRED: FormError = { key: 'common.required' };
const AMOUNT: FormError = { key: 'addCustomer.errors.amount' };

/** Only instalments that are not fully paid can be edited or charged a penalty. */
export function isEditable(i: InstalmentView): boolean {
  return i.status !== 'paid';
}

export interface InstalmentDraft {
  dueDate: string;
  amount: string;
}

/** An edited instalment: its changed fields, never below what was already paid; null body fields when unchanged. */
export function checkInstalmentEdit(customerId: number, i: InstalmentView, d: InstalmentDraft): Checked<keyof InstalmentDraft, EditInstalmentBody> {
  const errors: Partial<Record<keyof InstalmentDraft, FormError>> = {};
  if (!d.dueDate) errors.dueDate = REQUIRED;
  else if (!isIsoDate(d.dueDate)) errors.dueDate = { key: 'emiEdit.dateInvalid' };
  const paise = d.amount.trim() ? parseRupeesToPaise(d.amount) : null;
  if (!d.amount.trim()) errors.amount = REQUIRED;
  else if (paise === null || paise <= 0) errors.amount = AMOUNT;
  else if (paise < i.paid_paise) errors.amount = { key: 'emiEdit.belowPaid', vars: { amount: formatRupees(i.paid_paise) } };
  if (Object.keys(errors).length > 0 || paise === null) return { ok: false, errors };
  const body: EditInstalmentBody = { customer_id: customerId, instalment_id: i.id };
  if (d.dueDate !== i.due_date) body.due_date = d.dueDate;
  if (paise !== i.amount_paise) body.amount_paise = paise;
  return { ok: true, body };
}

export function checkNewInstalment(customerId: number, d: InstalmentDraft): Checked<keyof InstalmentDraft, AddInstalmentBody> {
  const errors: Partial<Record<keyof InstalmentDraft, FormError>> = {};
  if (!d.dueDate) errors.dueDate = REQUIRED;
  else if (!isIsoDate(d.dueDate)) errors.dueDate = { key: 'emiEdit.dateInvalid' };
  const paise = d.amount.trim() ? parseRupeesToPaise(d.amount) : null;
  if (!d.amount.trim()) errors.amount = REQUIRED;
  else if (paise === null || paise <= 0) errors.amount = AMOUNT;
  if (Object.keys(errors).length > 0 || paise === null) return { ok: false, errors };
  return { ok: true, body: { customer_id: customerId, due_date: d.dueDate, amount_paise: paise } };
}

export interface PenaltyDraft {
  amount: string;
  reason: string;
}

export function checkPenalty(customerId: number, i: InstalmentView, d: PenaltyDraft): Checked<keyof PenaltyDraft, PenaltyBody> {
  const errors: Partial<Record<keyof PenaltyDraft, FormError>> = {};
  const paise = d.amount.trim() ? parseRupeesToPaise(d.amount) : null;
  if (!d.amount.trim()) errors.amount = REQUIRED;
  else if (paise === null || paise <= 0) errors.amount = AMOUNT;
  else if (paise > PENALTY_MAX_PAISE) errors.amount = { key: 'emi.pay.amountTooLarge', vars: { amount: formatRupees(PENALTY_MAX_PAISE) } };
  const reason = d.reason.trim();
  if (!reason) errors.reason = REQUIRED;
  else if (reason.length < REASON_MIN) errors.reason = { key: 'receipt.reasonTooShort', vars: { count: REASON_MIN } };
  else if (reason.length > REASON_MAX) errors.reason = { key: 'addCustomer.errors.tooLong', vars: { count: REASON_MAX } };
  if (Object.keys(errors).length > 0 || paise === null) return { ok: false, errors };
  return { ok: true, body: { customer_id: customerId, instalment_id: i.id, amount_paise: paise, reason } };
}

/** Server VALIDATION_FAILED details placed on a form's fields by the request field names. */
export function placeServerDetails<Field extends string>(
  details: readonly { field: string; message: string }[],
  fields: Record<string, Field>,
): Partial<Record<Field, string>> {
  const placed: Partial<Record<Field, string>> = {};
  for (const { field, message } of details) {
    const target = fields[field.replace(/^body\./, '')];
    if (target && !placed[target]) placed[target] = message;
  }
  return placed;
}
