/** Badges for a customer's install status, lock status, an instalment's payment status and a device command's state. */
import { useTranslation } from 'react-i18next';
import { INSTALL_STATUS_LABEL_KEYS, LOCK_STATUS_LABEL_KEYS, type InstallStatus, type LockStatus } from '@kisht/domain/customer-status';

export type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

/** Tone of each install status (badges and the dashboard's bars). */
export const INSTALL_TONE: Record<InstallStatus, Tone> = {
  0: 'neutral',
  1: 'success',
  2: 'warning',
  3: 'danger',
  4: 'danger',
  5: 'info',
  6: 'warning',
};

export type InstalmentStatus = 'paid' | 'partial' | 'due' | 'overdue';

const INSTALMENT_TONE: Record<InstalmentStatus, Tone> = { paid: 'success', partial: 'warning', due: 'info', overdue: 'danger' };

/** Translation keys of the instalment statuses. */
export const INSTALMENT_STATUS_LABEL_KEYS: Record<InstalmentStatus, string> = {
  paid: 'emi.status.paid',
  partial: 'emi.status.partial',
  due: 'emi.status.due',
  overdue: 'emi.status.overdue',
};

/**
 * Translation keys of a device command's states (queued -> sent -> delivered -> done | failed, or expired)
 * and of a batch item that was skipped.
 */
export const COMMAND_STATE_LABEL_KEYS: Record<string, string> = {
  queued: 'device.state.queued',
  sent: 'device.state.sent',
  delivered: 'device.state.delivered',
  done: 'device.state.done',
  failed: 'device.state.failed',
  expired: 'device.state.expired',
  skipped: 'device.state.skipped',
};

/** An EMI alert's status is the state of the device command that carried it, worded for an alert. */
export const EMI_ALERT_STATE_LABEL_KEYS: Record<string, string> = {
  queued: 'emiAlert.status.queued',
  sent: 'emiAlert.status.sent',
  delivered: 'emiAlert.status.delivered',
  done: 'emiAlert.status.done',
  failed: 'emiAlert.status.failed',
  expired: 'emiAlert.status.expired',
};

/** Badge tone of a command or batch item state: done is good, failed bad, expired or skipped a warning, anything under way info. */
export function commandStateTone(state: string): Tone {
  if (state === 'done') return 'success';
  if (state === 'failed') return 'danger';
  if (state === 'expired' || state === 'skipped') return 'warning';
  return 'info';
}

function Badge({ tone, children }: { tone: Tone; children: string }) {
  return <span className={`badge badge--${tone}`}>{children}</span>;
}

export function InstallStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation();
  const key = INSTALL_STATUS_LABEL_KEYS[status as InstallStatus];
  return <Badge tone={INSTALL_TONE[status as InstallStatus] ?? 'neutral'}>{key ? t(key) : String(status)}</Badge>;
}

export function LockStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation();
  const key = LOCK_STATUS_LABEL_KEYS[status as LockStatus];
  return <Badge tone={status === 1 ? 'danger' : 'success'}>{key ? t(key) : String(status)}</Badge>;
}

export function InstalmentStatusBadge({ status }: { status: InstalmentStatus }) {
  const { t } = useTranslation();
  return <Badge tone={INSTALMENT_TONE[status] ?? 'neutral'}>{t(INSTALMENT_STATUS_LABEL_KEYS[status] ?? status)}</Badge>;
}

/** A device command's (or batch item's, or EMI alert's) state; an unknown state shows as it came. */
export function CommandStateBadge({ state, labelKeys = COMMAND_STATE_LABEL_KEYS }: { state: string; labelKeys?: Record<string, string> }) {
  const { t } = useTranslation();
  const key = labelKeys[state];
  return <Badge tone={commandStateTone(state)}>{key ? t(key) : state}</Badge>;
}
