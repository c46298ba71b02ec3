/**
 * How an activity row reads: the translation key of its action (device commands reuse the device
 * channel's action names), its outcome from the HTTP status, and the filter groups the screen offers.
 */
import type { Tone } from '../../../shared/ui/status-badges.tsx';

/** Filter choices: every entry, or one group of actions (a trailing dot matches the whole group). */
export const ACTIVITY_FILTERS = [
  { value: '', label: 'audit.filter.all' },
  { value: 'auth.', label: 'audit.filter.signIns' },
  { value: 'device.', label: 'audit.filter.devices' },
  { value: 'emi.pay', label: 'audit.filter.payments' },
  { value: 'emi.reverse', label: 'audit.filter.reversals' },
  { value: 'customer.enrol', label: 'audit.filter.enrolments' },
  { value: 'access.refused', label: 'audit.filter.refusals' },
  { value: 'operator.', label: 'audit.filter.operator' },
] as const;

/** Actions named by the audit log itself; `device.<action>` rows borrow the device channel's names. */
export const AUDIT_ACTIONS = [
  'auth.otp_request', 'auth.sign_in', 'auth.otp_resend', 'auth.forgot_mpin', 'auth.reset_mpin', 'auth.customer_otp', 'auth.set_mpin',
  'auth.verify_mpin', 'auth.logout', 'session.end', 'session.refused', 'access.refused', 'customer.enrol', 'customer.edit_registration', 'customer.cancel',
  'emi.pay', 'emi.reverse', 'emi.penalty', 'emi.edit_instalment', 'emi.add_instalment', 'emi.waive_penalty', 'emi.foreclose', 'emi.alert', 'device.enrolment_qr',
  'device.enrolment_link', 'device.offline_code', 'device.ouc_code', 'device.bypass_code', 'device.schedule_lock_unlock',
  'device.schedule_cancel', 'device.multiple_lock_unlock', 'device.multiple_lock_unlock.retry', 'apple.sync', 'apple.link',
  'apple.disable_activation_lock', 'amapi.signup', 'operator.access', 'operator.feature', 'operator.device_policy', 'operator.upi',
  'operator.signup_approve', 'operator.signup_reject', 'network.add', 'network.update', 'network.image', 'keys.transfer', 'keys.decide', 'keys.scheme', 'keys.export', 'operator.keys_topup',
  'payments.claim_decide', 'payments.customer_order', 'payments.key_order', 'payments.held_resolved', 'antihacking.issue', 'antihacking.revoke',
  'antihacking.activate', 'antihacking.activated', 'antihacking.activation_refused', 'operator.product', 'operator.plan_add', 'operator.plan_set',
  'operator.loan_product_add', 'operator.loan_product_set',
  'operator.warranty_rules', 'warranty.sell', 'warranty.revoke', 'warranty.photo', 'warranty.claim', 'warranty.claim_transition', 'antitheft.settings', 'antitheft.renew',
  'ads.creative', 'ads.campaign', 'ads.cancel', 'operator.announce', 'operator.announce_off', 'operator.offer_caps',
] as const;
const OWN_ACTIONS = new Set<string>(AUDIT_ACTIONS);

/** The translation key of an action, or null when the console does not know it (the raw name is shown). */
export function actionLabelKey(action: string): string | null {
  if (OWN_ACTIONS.has(action)) return `audit.action.${action.replaceAll('.', '_')}`;
  if (action.startsWith('device.') && /^[a-z_]+$/.test(action.slice(7))) return `device.action.${action.slice(7)}`;
  return null;
}

export type Outcome = 'done' | 'refused' | 'failed' | 'automatic';

/** Done (2xx), refused (401, 403, 511: the caller was not allowed), failed (any other answer), or automatic (no request). */
export function outcomeOf(status: number | null): Outcome {
  if (status === null) return 'automatic';
  if (status < 300) return 'done';
  if (status === 401 || status === 403 || status === 511) return 'refused';
  return 'failed';
}

export const OUTCOME_TONE: Record<Outcome, Tone> = { done: 'success', refused: 'danger', failed: 'warning', automatic: 'info' };

/** A date field's value is sent only when it is a whole YYYY-MM-DD day. */
export const isoDayOrUndefined = (value: string) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined);
