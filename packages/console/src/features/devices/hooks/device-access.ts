/**
 * The user access and lock access switches each device action needs: the same table as the server's
 * accessFor (packages/server devices.service.ts), so the panel greys out what the server would refuse.
 */
import type { LockAccess, LockAccessKey, UserAccess, UserAccessKey } from '@kisht/domain/constants';

export interface AccessRequirement {
  userAccess?: UserAccessKey[];
  lockAccess?: LockAccessKey[];
}

/** Actions and the extra controls of the panel (offline codes, bypass, ouc, schedules use lock/unlock). */
export function accessFor(action: string): AccessRequirement {
  switch (action) {
    case 'lock':
      return { userAccess: ['lock_unlock'], lockAccess: ['lock'] };
    case 'unlock':
      return { userAccess: ['lock_unlock'], lockAccess: ['unlock'] };
    case 'uninstall':
    case 'uninstall_antitheft':
    case 'unclaim':
      return { userAccess: ['unistall'], lockAccess: ['uninstall'] };
    case 'fetch_location':
    case 'sim_info':
    case 'reboot':
    case 'emi_alert':
    case 'miui_permission':
      return { lockAccess: ['read'] };
    default:
      return { userAccess: ['feature_access'] };
  }
}

export interface AccessSwitches {
  userAccess: UserAccess;
  lockAccess: LockAccess;
}

export function isPermitted(requirement: AccessRequirement, switches: AccessSwitches): boolean {
  return (
    (requirement.userAccess ?? []).every((key) => switches.userAccess[key] === '1') &&
    (requirement.lockAccess ?? []).every((key) => switches.lockAccess[key] === '1')
  );
}

export const isActionPermitted = (action: string, switches: AccessSwitches) => isPermitted(accessFor(action), switches);
