import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCK_ACCESS, DEFAULT_USER_ACCESS } from './constants.ts';
import { accessFor, isPermitted, type AccessSwitches } from './device-access.ts';

const isActionPermitted = (action: string, s: AccessSwitches) => isPermitted(accessFor(action), s);

const switches = (user: Partial<AccessSwitches['userAccess']> = {}, lock: Partial<AccessSwitches['lockAccess']> = {}): AccessSwitches => ({
  userAccess: { ...DEFAULT_USER_ACCESS, ...user },
  lockAccess: { ...DEFAULT_LOCK_ACCESS, ...lock },
});

describe('device access', () => {
  it('allows everything with the default switches', () => {
    for (const action of ['lock', 'unlock', 'uninstall', 'fetch_location', 'camera_lock', 'pin_change']) expect(isActionPermitted(action, switches()), action).toBe(true);
  });

  it('needs lock_unlock and the lock or unlock switch for the lock control', () => {
    expect(isActionPermitted('lock', switches({ lock_unlock: '0' }))).toBe(false);
    expect(isActionPermitted('lock', switches({}, { lock: '0' }))).toBe(false);
    expect(isActionPermitted('unlock', switches({}, { lock: '0' }))).toBe(true);
    expect(isActionPermitted('unlock', switches({}, { unlock: '0' }))).toBe(false);
  });

  it('needs the uninstall switches for uninstall, read for reports, feature access for the rest', () => {
    expect(isActionPermitted('uninstall_antitheft', switches({ unistall: '0' }))).toBe(false);
    expect(isActionPermitted('uninstall', switches({}, { uninstall: '0' }))).toBe(false);
    expect(isActionPermitted('sim_info', switches({ feature_access: '0' }))).toBe(true);
    expect(isActionPermitted('sim_info', switches({}, { read: '0' }))).toBe(false);
    expect(isActionPermitted('wallpaper', switches({ feature_access: '0' }))).toBe(false);
    // Ringing a lost phone is part of anti-theft: the same switch as its lost mode.
    expect(accessFor('ring')).toEqual(accessFor('antitheft_lost_mode'));
    expect(isActionPermitted('sim_tracking_online', switches({ feature_access: '0' }))).toBe(false);
  });
});
