/**
 * From a device action the panel offers to the request that carries it out: which dialog asks for its
 * input (its kind) and which endpoint and body the server expects (packages/server devices.routes.ts).
 */
import { SIM_TRACKING_COMMANDS, type DeviceAction } from '@kisht/domain/device-actions';
import type {
  CommandBody, EmiAlertBody, LockBody, LostModeBody, PinChangeBody, SimTrackingBody, ToggleBody, UninstallBody, WallpaperBody,
} from '@kisht/contract/devices';
import type { RetailerLocation } from './geolocation.ts';

/** Switched on or off with `{ on }` at /api/device/<action>. */
export const TOGGLE_ACTIONS = [
  'app_lock', 'camera_lock', 'usb_debugging', 'tracking', 'outgoing_call', 'bluetooth_lock_unlock', 'wifi_on_off',
  'airplane_mode_on_off', 'accessibility_on_off', 'app_hide_unhide', 'sim_lock_unlock',
] as const satisfies readonly DeviceAction[];
export type ToggleAction = (typeof TOGGLE_ACTIONS)[number];

/** On or off with a message and a number to call. */
export const LOST_MODE_ACTIONS = ['lost_mode', 'antitheft_lost_mode'] as const satisfies readonly DeviceAction[];
export type LostModeAction = (typeof LOST_MODE_ACTIONS)[number];

export const SIM_TRACKING_ACTIONS = ['sim_tracking_online', 'sim_tracking_offline'] as const satisfies readonly DeviceAction[];
export type SimTrackingAction = (typeof SIM_TRACKING_ACTIONS)[number];

/** Ask the phone to do or report something once (unclaim: release a phone whose loan is closed). */
export const ONCE_ACTIONS = ['fetch_location', 'reboot', 'sim_info', 'miui_permission', 'install_apple_onemodapp', 'unclaim'] as const satisfies readonly (DeviceAction | 'unclaim')[];
export type OnceAction = (typeof ONCE_ACTIONS)[number];

export const UNINSTALL_ACTIONS = ['uninstall', 'uninstall_antitheft'] as const satisfies readonly DeviceAction[];
export type UninstallAction = (typeof UNINSTALL_ACTIONS)[number];

export type WallpaperPolicy = WallpaperBody['policy'];

export type ActionKind = 'lock' | 'toggle' | 'lost_mode' | 'sim_tracking' | 'wallpaper' | 'emi_alert' | 'once' | 'pin_change' | 'uninstall';

const has = <T extends string>(list: readonly T[], value: string): value is T => (list as readonly string[]).includes(value);

/** Which input an offered action needs, or null for a name this console does not know (not shown). */
export function actionKind(action: string): ActionKind | null {
  if (action === 'lock' || action === 'unlock') return 'lock';
  if (has(TOGGLE_ACTIONS, action)) return 'toggle';
  if (has(LOST_MODE_ACTIONS, action)) return 'lost_mode';
  if (has(SIM_TRACKING_ACTIONS, action)) return 'sim_tracking';
  if (has(ONCE_ACTIONS, action)) return 'once';
  if (has(UNINSTALL_ACTIONS, action)) return 'uninstall';
  if (action === 'wallpaper') return 'wallpaper';
  if (action === 'emi_alert') return 'emi_alert';
  if (action === 'pin_change') return 'pin_change';
  return null;
}

/** What the retailer chose or typed, per kind. */
export type DeviceActionInput =
  | { kind: 'lock'; locked: boolean; message?: string }
  | { kind: 'toggle'; action: ToggleAction; on: boolean }
  | { kind: 'lost_mode'; action: LostModeAction; on: boolean; message?: string; phone?: string }
  | { kind: 'sim_tracking'; action: SimTrackingAction; on: boolean }
  | { kind: 'wallpaper'; text: string; policy: WallpaperPolicy }
  | { kind: 'emi_alert'; message?: string }
  | { kind: 'once'; action: OnceAction }
  | { kind: 'pin_change'; pin: string }
  | { kind: 'uninstall'; action: UninstallAction; requestId: string; otp: string; location: RetailerLocation };

/** The contract's SimTrackingBody builds its union from a mapped list, so its static type is empty; spelled out here. */
type SimTrackingCommand = (typeof SIM_TRACKING_COMMANDS)[SimTrackingAction]['on' | 'off'];
type SimTrackingRequestBody = Omit<SimTrackingBody, 'command'> & { command: SimTrackingCommand };

export type DeviceRequestBody =
  | CommandBody | LockBody | ToggleBody | LostModeBody | SimTrackingRequestBody | WallpaperBody | EmiAlertBody | PinChangeBody | UninstallBody;

export interface DeviceRequest {
  url: string;
  body: DeviceRequestBody;
}

/** The lock control's command: it locks an unlocked phone and unlocks a locked one. */
export function lockControlAction(locked: boolean): 'lock' | 'unlock' {
  return locked ? 'unlock' : 'lock';
}

const trimmed = (text: string | undefined) => {
  const value = text?.trim();
  return value ? value : undefined;
};

export function deviceRequest(customerId: number, input: DeviceActionInput): DeviceRequest {
  const customer_id = customerId;
  switch (input.kind) {
    case 'lock': {
      const action = lockControlAction(input.locked);
      const message = trimmed(input.message);
      return { url: `/api/device/${action}`, body: action === 'lock' && message ? { customer_id, message } : { customer_id } };
    }
    case 'toggle':
      return { url: `/api/device/${input.action}`, body: { customer_id, on: input.on } };
    case 'lost_mode': {
      const message = trimmed(input.message);
      const phone = trimmed(input.phone);
      return { url: `/api/device/${input.action}`, body: { customer_id, on: input.on, ...(message ? { message } : {}), ...(phone ? { phone } : {}) } };
    }
    case 'sim_tracking':
      return { url: '/api/device/sim_tracking', body: { customer_id, command: SIM_TRACKING_COMMANDS[input.action][input.on ? 'on' : 'off'] } };
    case 'wallpaper':
      return { url: '/api/device/wallpaper', body: { customer_id, text: input.text.trim(), policy: input.policy } };
    case 'emi_alert': {
      const message = trimmed(input.message);
      return { url: '/api/device/emi_alert', body: message ? { customer_id, message } : { customer_id } };
    }
    case 'once':
      return { url: `/api/device/${input.action}`, body: { customer_id } };
    case 'pin_change':
      return { url: '/api/device/pin_change', body: { customer_id, pin: input.pin } };
    case 'uninstall':
      return {
        url: `/api/device/${input.action}`,
        body: { customer_id, request_id: input.requestId, otp: input.otp, latitude: input.location.latitude, longitude: input.location.longitude },
      };
  }
}

/** A new screen PIN: 4 to 8 digits. */
export const isValidPin = (pin: string) => /^[0-9]{4,8}$/.test(pin);
/** A customer OTP: 6 digits. */
export const isValidOtp = (otp: string) => /^[0-9]{6}$/.test(otp);
/** A number to call on a lost phone: 10 to 13 digits, optionally after a +. */
export const isValidLostModePhone = (phone: string) => phone.trim() === '' || /^\+?[0-9]{10,13}$/.test(phone.trim());
