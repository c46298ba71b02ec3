/**
 * Which device actions the console offers and the server accepts, from the specification's section 6:
 * by provisioning type (DPC, AMAPI, LINKFL, APPLE) and lock state, with an optional per-customer
 * allow-list. Actions come in two groups: main actions (controls) and info actions.
 *
 * Reading of the specification, where it is terse:
 * - "lock" is the lock control: when the phone is locked the same control unlocks it (the server turns
 *   it into an unlock command), so "unlock" is allowed exactly when the phone is locked and "lock" is.
 * - The allow-list applies to the main actions of an unlocked phone ("only listed actions shown");
 *   a locked phone always offers its unlock control, so a retailer can never strand a locked phone.
 * - Actions tied to a plan or a platform (anti-theft lost mode and uninstall, Apple one-app mode,
 *   SIM lock) are not in the section's matrix; they are offered by their own plan rules elsewhere.
 */
import { PRODUCT_TYPE, PROVISIONING_TYPE } from './constants.ts';

export const DEVICE_ACTIONS = [
  'lock', 'app_lock', 'wallpaper', 'camera_lock', 'usb_debugging', 'tracking', 'sim_tracking_online', 'sim_tracking_offline',
  'fetch_location', 'reboot', 'sim_info', 'lost_mode', 'emi_alert', 'uninstall', 'outgoing_call', 'bluetooth_lock_unlock',
  'wifi_on_off', 'airplane_mode_on_off', 'accessibility_on_off', 'miui_permission', 'unlock', 'app_hide_unhide',
  'uninstall_antitheft', 'antitheft_lost_mode', 'install_apple_onemodapp', 'sim_lock_unlock',
] as const;
export type DeviceAction = (typeof DEVICE_ACTIONS)[number];

export const SIM_TRACKING_COMMANDS = {
  sim_tracking_online: { on: 'SIMTRACKINGON', off: 'SIMTRACKINGOFF' },
  sim_tracking_offline: { on: 'SIMTRACKINGOFFLINEON', off: 'SIMTRACKINGOFFLINEOFF' },
} as const;

export type ProvisioningType = (typeof PROVISIONING_TYPE)[keyof typeof PROVISIONING_TYPE];

const MAIN_BASE: DeviceAction[] = [
  'lock', 'app_lock', 'wallpaper', 'camera_lock', 'usb_debugging', 'tracking', 'sim_tracking_online', 'sim_tracking_offline',
  'lost_mode', 'outgoing_call', 'bluetooth_lock_unlock', 'wifi_on_off', 'airplane_mode_on_off', 'accessibility_on_off', 'app_hide_unhide',
];
const INFO_BASE: DeviceAction[] = ['fetch_location', 'sim_info', 'reboot', 'emi_alert', 'uninstall', 'miui_permission'];

const without = (list: DeviceAction[], drop: DeviceAction[]) => list.filter((a) => !drop.includes(a));
const only = (list: DeviceAction[], keep: DeviceAction[]) => list.filter((a) => keep.includes(a));

function unlockedMain(type: ProvisioningType): DeviceAction[] {
  switch (type) {
    case PROVISIONING_TYPE.DPC:
      return without(MAIN_BASE, ['lost_mode', 'accessibility_on_off']);
    case PROVISIONING_TYPE.AMAPI:
      return without(MAIN_BASE, [
        'lost_mode', 'accessibility_on_off', 'tracking', 'app_hide_unhide', 'bluetooth_lock_unlock', 'wifi_on_off',
        'airplane_mode_on_off', 'sim_tracking_online', 'sim_tracking_offline', 'outgoing_call',
      ]);
    case PROVISIONING_TYPE.LINKFL:
      return only(MAIN_BASE, ['lock', 'tracking', 'accessibility_on_off']);
    case PROVISIONING_TYPE.APPLE:
      return only(MAIN_BASE, ['lock', 'lost_mode', 'usb_debugging', 'camera_lock', 'app_lock']);
  }
}

function unlockedInfo(type: ProvisioningType): DeviceAction[] {
  switch (type) {
    case PROVISIONING_TYPE.DPC:
      return INFO_BASE;
    case PROVISIONING_TYPE.AMAPI:
      return without(INFO_BASE, ['miui_permission']);
    case PROVISIONING_TYPE.LINKFL:
      return only(INFO_BASE, ['sim_info', 'fetch_location', 'emi_alert', 'uninstall']);
    case PROVISIONING_TYPE.APPLE:
      return only(INFO_BASE, ['fetch_location', 'reboot', 'uninstall', 'sim_info']);
  }
}

function lockedInfo(type: ProvisioningType): DeviceAction[] {
  switch (type) {
    case PROVISIONING_TYPE.DPC:
    case PROVISIONING_TYPE.AMAPI:
      return ['fetch_location', 'sim_info', 'reboot'];
    case PROVISIONING_TYPE.LINKFL:
      return ['sim_info', 'fetch_location'];
    case PROVISIONING_TYPE.APPLE:
      return ['reboot', 'sim_info'];
  }
}

export interface ActionContext {
  provisioningType: ProvisioningType;
  locked: boolean;
  /** The customer's allow-list of action names, or null/undefined for the default rule. */
  allowList?: readonly string[] | null;
}

export interface OfferedActions {
  main: DeviceAction[];
  info: DeviceAction[];
}

export function offeredActions(context: ActionContext): OfferedActions {
  const type = context.provisioningType;
  if (context.locked) {
    // Only the lock control (which unlocks) and tracking; Apple only the lock control.
    return { main: type === PROVISIONING_TYPE.APPLE ? ['lock'] : ['lock', 'tracking'], info: lockedInfo(type) };
  }
  const main = unlockedMain(type);
  return {
    main: context.allowList ? main.filter((a) => context.allowList!.includes(a)) : main,
    info: unlockedInfo(type),
  };
}

/** Whether the server may carry out `action` for a device in this context ("unlock" needs a locked phone). */
export function isActionAllowed(action: DeviceAction, context: ActionContext): boolean {
  const offered = offeredActions(context);
  if (action === 'unlock') return context.locked && offered.main.includes('lock');
  if (action === 'lock' && context.locked) return false;
  return offered.main.includes(action) || offered.info.includes(action);
}

/** Actions outside the section 6 matrix, offered by plan and platform. */
export const PLAN_ACTIONS = ['uninstall_antitheft', 'antitheft_lost_mode', 'install_apple_onemodapp', 'sim_lock_unlock'] as const satisfies readonly DeviceAction[];

export interface PlanContext extends ActionContext {
  productType: number;
}

const ANTI_THEFT_PRODUCTS: number[] = [PRODUCT_TYPE.ANTI_THEFT, PRODUCT_TYPE.DPC_ANTITHEFT];

/** Whether a customer's product carries anti-theft (alone, or with the EMI locker). */
export function isAntiTheftProduct(productType: number): boolean {
  return ANTI_THEFT_PRODUCTS.includes(productType);
}

/**
 * The plan rule: anti-theft lost mode and anti-theft uninstall for anti-theft plans; the Apple one-app
 * mode for Apple phones that are not locked; SIM lock for DPC phones that are not locked.
 */
export function offeredPlanActions(context: PlanContext): DeviceAction[] {
  const offered: DeviceAction[] = [];
  if (isAntiTheftProduct(context.productType)) offered.push('antitheft_lost_mode', 'uninstall_antitheft');
  if (!context.locked && context.provisioningType === PROVISIONING_TYPE.APPLE) offered.push('install_apple_onemodapp');
  if (!context.locked && context.provisioningType === PROVISIONING_TYPE.DPC) offered.push('sim_lock_unlock');
  return offered;
}

/** Section 6 plus the plan rule: whether the server may carry out `action` now. */
export function isDeviceActionAllowed(action: DeviceAction, context: PlanContext): boolean {
  if ((PLAN_ACTIONS as readonly string[]).includes(action)) return offeredPlanActions(context).includes(action);
  return isActionAllowed(action, context);
}
