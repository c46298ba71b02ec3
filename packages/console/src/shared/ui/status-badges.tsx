/** Badges for a customer's install status, lock status and an instalment's payment status. */
import { useTranslation } from 'react-i18next';
import { INSTALL_STATUS_LABEL_KEYS, LOCK_STATUS_LABEL_KEYS, type InstallStatus, type LockStatus } from '@kisht/domain/customer-status';

type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

const INSTALL_TONE: Record<InstallStatus, Tone> = {
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
