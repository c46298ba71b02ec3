/** Customer install status (0-6) and lock status, with the slugs the API filters by and the console's label keys. */
import type { LOCK_STATUS } from './constants.ts';
import { INSTALL_STATUS } from './constants.ts';

export type InstallStatusSlug = keyof typeof INSTALL_STATUS;
export type InstallStatus = (typeof INSTALL_STATUS)[InstallStatusSlug];

/** The customer list's status filter: every slug, or "all". */
export const CUSTOMER_STATUS_FILTERS = ['all', ...(Object.keys(INSTALL_STATUS) as InstallStatusSlug[])] as const;
export type CustomerStatusFilter = (typeof CUSTOMER_STATUS_FILTERS)[number];

export const INSTALL_STATUS_LABEL_KEYS: Record<InstallStatus, string> = {
  0: 'customerStatus.inactive',
  1: 'customerStatus.install',
  2: 'customerStatus.deactivate',
  3: 'customerStatus.uninstall',
  4: 'customerStatus.appleRemoved',
  5: 'customerStatus.emisCompleted',
  6: 'customerStatus.emisMaturing',
};

export function installStatusOf(slug: string): InstallStatus | null {
  return slug in INSTALL_STATUS ? INSTALL_STATUS[slug as InstallStatusSlug] : null;
}

export function slugOfInstallStatus(code: number): InstallStatusSlug | null {
  const entry = Object.entries(INSTALL_STATUS).find(([, value]) => value === code);
  return entry ? (entry[0] as InstallStatusSlug) : null;
}

export type LockStatus = (typeof LOCK_STATUS)[keyof typeof LOCK_STATUS];
export const LOCK_STATUS_LABEL_KEYS: Record<LockStatus, string> = { 0: 'lockStatus.unlocked', 1: 'lockStatus.locked' };

/** A loan is active (its IMEIs are taken) unless it was completed or the agent was uninstalled. */
export function isActiveLoan(status: number): boolean {
  return status !== INSTALL_STATUS.uninstall && status !== INSTALL_STATUS.emis_completed;
}
