/**
 * Which of a user's switches (user access and lock access configs) each device action needs. The server
 * refuses an action without them (403); the console greys out what the server would refuse.
 */
import type { LockAccess, LockAccessKey, UserAccess, UserAccessKey } from './constants.ts';

export interface AccessRequirement {
  userAccess?: UserAccessKey[];
  lockAccess?: LockAccessKey[];
}

/** For device actions and the panel's other controls (offline codes, bypass and schedules use lock/unlock). */
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
  userAccess: UserAccess | Record<string, string>;
  lockAccess: LockAccess | Record<string, string>;
}

/** Whether every switch the requirement names is on ("1"). */
export function isPermitted(requirement: AccessRequirement, switches: AccessSwitches): boolean {
  const user = switches.userAccess as Record<string, string>;
  const lock = switches.lockAccess as Record<string, string>;
  return (requirement.userAccess ?? []).every((key) => user[key] === '1') && (requirement.lockAccess ?? []).every((key) => lock[key] === '1');
}
