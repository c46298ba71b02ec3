/**
 * What tapping a customer in the list does (specification, section 2): an inactive customer (status 0)
 * opens customer navigate, except that organisations 35, 36 and 46 get the warning "Customer is
 * Inactive" instead; every other status opens customer details.
 */
import { INACTIVE_WARNING_ORG_IDS, INSTALL_STATUS } from './constants.ts';

export type CustomerClick = 'navigate' | 'warnInactive' | 'details';

export function customerClickAction(installStatus: number, orgId: number | null | undefined): CustomerClick {
  if (installStatus !== INSTALL_STATUS.inactive) return 'details';
  const warns = orgId !== null && orgId !== undefined && (INACTIVE_WARNING_ORG_IDS as readonly number[]).includes(orgId);
  return warns ? 'warnInactive' : 'navigate';
}
