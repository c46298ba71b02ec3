/**
 * The EMI add/edit screen's forms as data: which instalments can change, and the checks and request
 * bodies for editing one (due date, amount, why), adding one, charging a penalty and waiving one. Amounts
 * are typed in rupees and sent in paise.
 */
import type { AddInstalmentBody, EditInstalmentBody, InstalmentView, PenaltyBody, WaiveBody } from '@kisht/contract/emi';
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
  /** Why the schedule changes: optional, kept with the change when given. */
  reason: string;
}

/** A reason that may be left empty; when given it is 3 to 200 characters, like every reason the ledger keeps. */
function checkReason(text: string, required: boolean): FormError | null {
  const reason = text.trim();
  if (!reason) return required ? REQUIRED : null;
  if (reason.length < REASON_MIN) return { key: 'receipt.reasonTooShort', vars: { count: REASON_MIN } };
  if (reason.length > REASON_MAX) return { key: 'addCustomer.errors.tooLong', vars: { count: REASON_MAX } };
  return null;
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
  const reasonError = checkReason(d.reason, false);
  if (reasonError) errors.reason = reasonError;
  if (Object.keys(errors).length > 0 || paise === null) return { ok: false, errors };
  const body: EditInstalmentBody = { customer_id: customerId, instalment_id: i.id };
  if (d.dueDate !== i.due_date) body.due_date = d.dueDate;
  if (paise !== i.amount_paise) body.amount_paise = paise;
  if (d.reason.trim()) body.reason = d.reason.trim();
  return { ok: true, body };
}

export function checkNewInstalment(customerId: number, d: InstalmentDraft): Checked<keyof InstalmentDraft, AddInstalmentBody> {
  const errors: Partial<Record<keyof InstalmentDraft, FormError>> = {};
  if (!d.dueDate) errors.dueDate = REQUIRED;
  else if (!isIsoDate(d.dueDate)) errors.dueDate = { key: 'emiEdit.dateInvalid' };
  const paise = d.amount.trim() ? parseRupeesToPaise(d.amount) : null;
  if (!d.amount.trim()) errors.amount = REQUIRED;
  else if (paise === null || paise <= 0) errors.amount = AMOUNT;
  const reasonError = checkReason(d.reason, false);
  if (reasonError) errors.reason = reasonError;
  if (Object.keys(errors).length > 0 || paise === null) return { ok: false, errors };
  const body: AddInstalmentBody = { customer_id: customerId, due_date: d.dueDate, amount_paise: paise };
  if (d.reason.trim()) body.reason = d.reason.trim();
  return { ok: true, body };
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
  const reasonError = checkReason(d.reason, true);
  if (reasonError) errors.reason = reasonError;
  if (Object.keys(errors).length > 0 || paise === null) return { ok: false, errors };
  return { ok: true, body: { customer_id: customerId, instalment_id: i.id, amount_paise: paise, reason: d.reason.trim() } };
}

/** What of an instalment's penalty is still unpaid (the server's figure): the most a waiver can take off. */
export function unpaidPenaltyAtMost(i: InstalmentView): number {
  return Math.max(0, i.unpaid_penalty_paise);
}

export type WaiveDraft = PenaltyDraft;

/**
 * A waiver: the amount as typed, up to the unpaid penalty, and a 3-200 character reason. An amount left at the
 * whole unpaid penalty is not sent, so the server waives all of it, whatever part of it was paid meanwhile.
 */
export function checkWaiver(customerId: number, i: InstalmentView, d: WaiveDraft): Checked<keyof WaiveDraft, WaiveBody> {
  const errors: Partial<Record<keyof WaiveDraft, FormError>> = {};
  const most = unpaidPenaltyAtMost(i);
  const paise = d.amount.trim() ? parseRupeesToPaise(d.amount) : null;
  if (!d.amount.trim()) errors.amount = REQUIRED;
  else if (paise === null || paise <= 0) errors.amount = AMOUNT;
  else if (paise > most) errors.amount = { key: 'ledger.waive.tooLarge', vars: { amount: formatRupees(most) } };
  const reasonError = checkReason(d.reason, true);
  if (reasonError) errors.reason = reasonError;
  if (Object.keys(errors).length > 0 || paise === null) return { ok: false, errors };
  const body: WaiveBody = { customer_id: customerId, instalment_id: i.id, reason: d.reason.trim() };
  if (paise < most) body.amount_paise = paise;
  return { ok: true, body };
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
