/**
 * Our device commands as Apple MDM protocol commands (XML plists), and the device's answers back as our
 * results. Each MDM command carries CommandUUID = our command id, so the answer finds its command.
 */
import { randomUUID } from 'node:crypto';
import { formatRupees } from '@kisht/domain/money';
import { FALLBACK_LANGUAGE, isLanguage, type Language } from '@kisht/domain/constants';
import type { LockScreen, Sim } from '@kisht/protocol/messages';
import { asDict, PlistData, toPlist, type PlistValue } from './plist.ts';
import { translate } from '../../shared/messages.ts';

export interface MdmSettings {
  /** Prefix of our profile identifiers (the enrolment profile and the restriction profiles). */
  profilePrefix: string;
  /** The one-mode app: an App Store id or the manifest URL of an in-house build. */
  oneModeApp: { itunesStoreId: number | null; manifestUrl: string | null };
}

export interface MdmDeviceState {
  /** From TokenUpdate; needed to clear the passcode. */
  unlockToken: Buffer | null;
}

export type MdmBuild = { requestType: string; plist: string } | { error: 'unsupported_on_apple' };

/** What DeviceInformation asks for: enough for the SIM report and to recognise the phone. */
export const INFORMATION_QUERIES = ['ServiceSubscriptions', 'IMEI', 'SerialNumber', 'ModelName', 'OSVersion', 'IsActivationLockEnabled'];

export const enrolmentProfileId = (s: MdmSettings) => `${s.profilePrefix}.mdm`;
const restrictionProfileId = (s: MdmSettings, action: string) => `${s.profilePrefix}.restrictions.${action}`;

/** The restrictions (com.apple.applicationaccess keys) each of our toggles puts in place while on. */
const RESTRICTIONS: Record<string, Record<string, boolean>> = {
  camera_lock: { allowCamera: false },
  app_lock: { allowAppInstallation: false, allowAppRemoval: false, allowInAppPurchases: false },
  // The closest Apple has to USB debugging: no pairing with a computer (supervised phones).
  usb_debugging: { allowHostPairing: false },
};

export const commandPlist = (commandId: string, command: Record<string, PlistValue | undefined>) =>
  toPlist({ CommandUUID: commandId, Command: command });

/** The language of a lock screen: the customer's when the retailer set one, else English. */
export function screenLanguage(screen: LockScreen | undefined): Language {
  const lng = screen?.language;
  return isLanguage(lng) ? lng : FALLBACK_LANGUAGE;
}

/** The lock screen's words: the retailer's message, or what is due and whom to pay, in the screen's language. */
export function lockMessage(screen: LockScreen | undefined): string {
  if (!screen) return translate(FALLBACK_LANGUAGE, 'deviceLock.lockedByFinancier', 'This phone is locked by its financier.');
  if (screen.message) return screen.message;
  const vars = { amount: formatRupees(screen.amount_due), retailer: screen.retailer_name };
  return screen.amount_due > 0
    ? translate(screenLanguage(screen), 'deviceLock.dueContactRetailer', 'EMI due {{amount}}. Please contact {{retailer}} to unlock this phone.', vars)
    : translate(screenLanguage(screen), 'deviceLock.contactRetailer', 'Please contact {{retailer}} to unlock this phone.', vars);
}

function restrictionsProfile(settings: MdmSettings, action: string): Buffer {
  const id = restrictionProfileId(settings, action);
  return Buffer.from(toPlist({
    PayloadType: 'Configuration', PayloadVersion: 1, PayloadIdentifier: id, PayloadUUID: randomUUID().toUpperCase(),
    PayloadDisplayName: `Restrictions (${action.replaceAll('_', ' ')})`, PayloadRemovalDisallowed: true,
    PayloadContent: [{
      PayloadType: 'com.apple.applicationaccess', PayloadVersion: 1, PayloadIdentifier: `${id}.payload`, PayloadUUID: randomUUID().toUpperCase(),
      ...RESTRICTIONS[action],
    }],
  }));
}

/** The MDM command for one of ours, or the reason it has none on Apple. */
export function buildMdmCommand(command: { id: string; type: string; payload: Record<string, unknown> }, settings: MdmSettings, device: MdmDeviceState): MdmBuild {
  const payload = command.payload as { on?: boolean; message?: string | null; phone?: string | null; lock_screen?: LockScreen };
  const build = (requestType: string, fields: Record<string, PlistValue | undefined> = {}): MdmBuild =>
    ({ requestType, plist: commandPlist(command.id, { RequestType: requestType, ...fields }) });
  switch (command.type) {
    case 'lock':
      return build('DeviceLock', { Message: lockMessage(payload.lock_screen), PhoneNumber: payload.lock_screen?.retailer_mobile });
    case 'unlock':
      // A passcode lock is lifted by the owner's passcode; clearing it needs the token the phone gave at enrolment.
      return device.unlockToken ? build('ClearPasscode', { UnlockToken: new PlistData(device.unlockToken) }) : { error: 'unsupported_on_apple' };
    case 'lost_mode':
    case 'antitheft_lost_mode':
      return payload.on
        ? build('EnableLostMode', { Message: payload.message ?? lockMessage(undefined), PhoneNumber: payload.phone ?? undefined })
        : build('DisableLostMode');
    case 'fetch_location':
      return build('DeviceLocation');
    case 'reboot':
      return build('RestartDevice');
    case 'sim_info':
      return build('DeviceInformation', { Queries: INFORMATION_QUERIES });
    case 'install_apple_onemodapp': {
      const app = settings.oneModeApp;
      if (app.itunesStoreId) return build('InstallApplication', { iTunesStoreID: app.itunesStoreId, ManagementFlags: 1 });
      if (app.manifestUrl) return build('InstallApplication', { ManifestURL: app.manifestUrl, ManagementFlags: 1 });
      return { error: 'unsupported_on_apple' };
    }
    case 'camera_lock':
    case 'app_lock':
    case 'usb_debugging':
      return payload.on
        ? build('InstallProfile', { Payload: new PlistData(restrictionsProfile(settings, command.type)) })
        : build('RemoveProfile', { Identifier: restrictionProfileId(settings, command.type) });
    case 'uninstall':
    case 'uninstall_antitheft':
    case 'unclaim':
      // Removing the enrolment profile ends management (the phone checks out).
      return build('RemoveProfile', { Identifier: enrolmentProfileId(settings) });
    default:
      return { error: 'unsupported_on_apple' };
  }
}

const SLOTS: Record<string, number> = { CTSubscriptionSlotOne: 0, CTSubscriptionSlotTwo: 1 };

/** Our `done` result from the device's Acknowledged answer. */
export function resultOf(type: string, answer: Record<string, PlistValue>): Record<string, unknown> {
  if (type === 'fetch_location') {
    const lat = answer.Latitude;
    const lng = answer.Longitude;
    if (typeof lat !== 'number' || typeof lng !== 'number') return {};
    const at = answer.Timestamp instanceof Date ? answer.Timestamp : new Date();
    return { location: { latitude: lat, longitude: lng, accuracy: typeof answer.HorizontalAccuracy === 'number' ? answer.HorizontalAccuracy : 0, at: at.toISOString() } };
  }
  if (type === 'sim_info') {
    const info = asDict(answer.QueryResponses) ?? {};
    const subscriptions = Array.isArray(info.ServiceSubscriptions) ? info.ServiceSubscriptions : [];
    const sims: Sim[] = subscriptions.map((s, index) => {
      const sub = asDict(s) ?? {};
      const str = (v: PlistValue | undefined) => (typeof v === 'string' && v !== '' ? v : undefined);
      const operator = str(sub.CurrentCarrierNetwork) ?? str(sub.CarrierName);
      const iccid = str(sub.ICCID)?.replace(/\s+/g, '');
      const number = str(sub.PhoneNumber);
      return { slot: typeof sub.Slot === 'string' && sub.Slot in SLOTS ? SLOTS[sub.Slot]! : index, ...(operator ? { operator } : {}), ...(iccid ? { iccid } : {}), ...(number ? { number } : {}) };
    }).filter((s) => s.iccid || s.number || s.operator);
    return {
      sims,
      ...(typeof info.IMEI === 'string' ? { imei: info.IMEI.replace(/\s+/g, '') } : {}),
      ...(typeof info.SerialNumber === 'string' ? { serial_number: info.SerialNumber } : {}),
    };
  }
  return {};
}

/** Our `failed` result from an Error answer: the first error's words when the phone gave some. */
export function errorOf(answer: Record<string, PlistValue>): { error: string; message?: string } {
  const first = Array.isArray(answer.ErrorChain) ? asDict(answer.ErrorChain[0]) : null;
  const message = first && typeof first.LocalizedDescription === 'string' ? first.LocalizedDescription : undefined;
  return { error: answer.Status === 'CommandFormatError' ? 'mdm_format_error' : 'mdm_error', ...(message ? { message } : {}) };
}
