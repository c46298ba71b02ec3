import { describe, expect, it } from 'vitest';
import { PRODUCT_TYPE, PROVISIONING_TYPE } from './constants.ts';
import { DEVICE_ACTIONS, PLAN_ACTIONS, isActionAllowed, isDeviceActionAllowed, offeredActions, type DeviceAction, type ProvisioningType } from './device-actions.ts';

const { DPC, AMAPI, LINKFL, APPLE } = PROVISIONING_TYPE;
const TYPES: ProvisioningType[] = [DPC, AMAPI, LINKFL, APPLE];

describe('offered device actions (spec section 6)', () => {
  it("when locked: only the lock control and tracking (Apple only the lock control), with each type's info actions", () => {
    expect(offeredActions({ provisioningType: DPC, locked: true })).toEqual({ main: ['lock', 'tracking'], info: ['fetch_location', 'sim_info', 'reboot'] });
    expect(offeredActions({ provisioningType: AMAPI, locked: true })).toEqual({ main: ['lock', 'tracking'], info: ['fetch_location', 'sim_info', 'reboot'] });
    expect(offeredActions({ provisioningType: LINKFL, locked: true })).toEqual({ main: ['lock', 'tracking'], info: ['sim_info', 'fetch_location'] });
    expect(offeredActions({ provisioningType: APPLE, locked: true })).toEqual({ main: ['lock'], info: ['reboot', 'sim_info'] });
  });

  it('when unlocked: DPC and AMAPI drop lost mode and accessibility; outgoing call only for DPC', () => {
    const dpc = offeredActions({ provisioningType: DPC, locked: false }).main;
    const amapi = offeredActions({ provisioningType: AMAPI, locked: false }).main;
    for (const main of [dpc, amapi]) {
      expect(main).not.toContain('lost_mode');
      expect(main).not.toContain('accessibility_on_off');
    }
    expect(dpc).toContain('outgoing_call');
    for (const type of [AMAPI, LINKFL, APPLE]) expect(offeredActions({ provisioningType: type, locked: false }).main).not.toContain('outgoing_call');
    expect(dpc).toEqual(['lock', 'app_lock', 'wallpaper', 'camera_lock', 'usb_debugging', 'tracking', 'sim_tracking_online', 'sim_tracking_offline', 'outgoing_call', 'bluetooth_lock_unlock', 'wifi_on_off', 'airplane_mode_on_off', 'app_hide_unhide']);
  });

  it('AMAPI also drops tracking, app hide, bluetooth, wifi, airplane mode and both SIM tracking actions', () => {
    expect(offeredActions({ provisioningType: AMAPI, locked: false }).main).toEqual(['lock', 'app_lock', 'wallpaper', 'camera_lock', 'usb_debugging']);
    expect(offeredActions({ provisioningType: AMAPI, locked: false }).info).toEqual(['fetch_location', 'sim_info', 'reboot', 'emi_alert', 'uninstall']);
  });

  it('LINKFL gets only lock, tracking, accessibility; Apple only lock, lost mode, USB debugging, camera lock, app lock', () => {
    expect(offeredActions({ provisioningType: LINKFL, locked: false })).toEqual({ main: ['lock', 'tracking', 'accessibility_on_off'], info: ['fetch_location', 'sim_info', 'emi_alert', 'uninstall'] });
    expect(offeredActions({ provisioningType: APPLE, locked: false })).toEqual({ main: ['lock', 'app_lock', 'camera_lock', 'usb_debugging', 'lost_mode'], info: ['fetch_location', 'sim_info', 'reboot', 'uninstall'] });
  });

  it('an allow-list shows only the listed main actions of an unlocked phone, never more than the type allows', () => {
    const allowList = ['lock', 'wallpaper', 'lost_mode'];
    expect(offeredActions({ provisioningType: DPC, locked: false, allowList }).main).toEqual(['lock', 'wallpaper']);
    expect(offeredActions({ provisioningType: APPLE, locked: false, allowList }).main).toEqual(['lock', 'lost_mode']);
    // A locked phone always keeps its unlock control.
    expect(offeredActions({ provisioningType: DPC, locked: true, allowList: ['wallpaper'] }).main).toEqual(['lock', 'tracking']);
  });

  it('holds for every combination of type, lock state, action and allow-list', () => {
    const lists: Array<readonly string[] | null> = [null, [], ['lock'], ['tracking', 'reboot', 'wallpaper'], DEVICE_ACTIONS];
    for (const provisioningType of TYPES) {
      for (const locked of [false, true]) {
        for (const allowList of lists) {
          const offered = offeredActions({ provisioningType, locked, allowList });
          const everything = offeredActions({ provisioningType, locked });
          // An allow-list only ever removes main actions.
          expect(offered.main.every((a) => everything.main.includes(a))).toBe(true);
          expect(offered.info).toEqual(everything.info);
          for (const action of DEVICE_ACTIONS) {
            const allowed = isActionAllowed(action as DeviceAction, { provisioningType, locked, allowList });
            const expected = action === 'unlock' ? locked : action === 'lock' ? !locked && offered.main.includes('lock') : offered.main.includes(action) || offered.info.includes(action);
            expect(allowed, `${provisioningType}/${locked}/${action}/${JSON.stringify(allowList)}`).toBe(expected);
          }
        }
      }
    }
  });

  it('never allows plan- or platform-specific actions by this rule', () => {
    for (const provisioningType of TYPES) {
      for (const locked of [false, true]) {
        for (const action of ['uninstall_antitheft', 'antitheft_lost_mode', 'install_apple_onemodapp', 'sim_lock_unlock'] as const) {
          expect(isActionAllowed(action, { provisioningType, locked })).toBe(false);
        }
      }
    }
  });
});

describe('the plan rule', () => {
  const base = { locked: false, allowList: null };
  it('offers the anti-theft actions only on anti-theft plans, locked or not', () => {
    for (const productType of Object.values(PRODUCT_TYPE)) {
      for (const locked of [false, true]) {
        const context = { ...base, locked, provisioningType: PROVISIONING_TYPE.DPC, productType };
        const antiTheft = productType === PRODUCT_TYPE.ANTI_THEFT || productType === PRODUCT_TYPE.DPC_ANTITHEFT;
        expect(isDeviceActionAllowed('antitheft_lost_mode', context)).toBe(antiTheft);
        expect(isDeviceActionAllowed('uninstall_antitheft', context)).toBe(antiTheft);
      }
    }
  });

  it('offers one-app mode to unlocked Apple phones and SIM lock to unlocked DPC phones', () => {
    for (const provisioningType of Object.values(PROVISIONING_TYPE)) {
      for (const locked of [false, true]) {
        const context = { ...base, locked, provisioningType, productType: PRODUCT_TYPE.DPC };
        expect(isDeviceActionAllowed('install_apple_onemodapp', context)).toBe(!locked && provisioningType === PROVISIONING_TYPE.APPLE);
        expect(isDeviceActionAllowed('sim_lock_unlock', context)).toBe(!locked && provisioningType === PROVISIONING_TYPE.DPC);
      }
    }
  });

  it('leaves the section 6 actions to the matrix', () => {
    const context = { ...base, provisioningType: PROVISIONING_TYPE.LINKFL, productType: PRODUCT_TYPE.LINKFL };
    for (const action of DEVICE_ACTIONS.filter((a) => !(PLAN_ACTIONS as readonly string[]).includes(a))) {
      expect(isDeviceActionAllowed(action, context)).toBe(isActionAllowed(action, context));
    }
  });
});
