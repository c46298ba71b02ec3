/**
 * The device protocol's messages, version 1 (docs/device-protocol.md). Commands travel server -> phone on
 * the device's `cmd` topic (and in check-in answers); events travel phone -> server on its `evt` topic.
 * Both are sealed (signing.ts) under the device's secret.
 */
import type { DeviceAction } from '@kisht/domain/device-actions';

/** Every command a phone may receive: the spec's device actions plus PIN change, release and ringing a lost phone. */
export type CommandType = DeviceAction | 'pin_change' | 'unclaim' | 'ring' | 'family_rules' | 'offer';

/**
 * An offer from the shop (revision 6): shown as a notification in the phone's "Offers" channel, never on or over
 * the lock screen. The phone acks `delivered` when it is shown and `done` with `{ opened: true }` when the customer
 * opens it; a phone that is locked, or whose customer opted out, reports `failed` with the reason and shows nothing.
 */
export interface OfferPayload {
  campaign_id: number;
  title: string;
  text: string;
  /** An https link the offer opens, or null. */
  link: string | null;
  /** Where the phone fetches the offer's picture (a path on the server, with the device's own credentials), or null. */
  image: string | null;
}

/** Why a phone did not show an offer. */
export const OFFER_REFUSALS = ['locked', 'opted_out'] as const;
export type OfferRefusal = (typeof OFFER_REFUSALS)[number];
/** The notification channel offers are shown in; EMI alerts have their own, which an offers opt-out never silences. */
export const OFFERS_CHANNEL = 'offers';

/** How long `ring` plays the alarm unless the command says otherwise (revision 4). */
export const RING_SECONDS = 60;
/** While lost mode is on the phone checks in (with its location) at least this often (revision 4). */
export const LOST_MODE_CHECK_IN_SECONDS = 300;

/**
 * Family care (revision 5): the rules a parent set for a child's phone, carried by the `family_rules` command. Times
 * are India time (UTC+05:30, no daylight saving), read on the phone's own clock, so the phone keeps to them offline.
 */
export interface FamilyRules {
  /** Minutes of screen time a day, Sunday first (7 entries); null is no limit. Apps always allowed do not count. */
  daily_limit_minutes: (number | null)[];
  /** Bedtime and downtime windows, every day: 'HH:MM' to 'HH:MM'; an end at or before the start runs past midnight. */
  downtime: { start: string; end: string }[];
  /** Package names usable whatever the time or the limit (besides the dialler and emergency apps, always allowed). */
  allowed_apps: string[];
  /** Package names never usable. */
  blocked_apps: string[];
  /** The phone stays locked (all but the always-allowed apps) until this moment; null: no such lock. */
  lock_until: string | null;
}

/** The `family_rules` payload: the whole rule set, numbered. The phone keeps the highest version and ignores a lower or equal one. */
export interface FamilyRulesPayload {
  version: number;
  rules: FamilyRules;
}

/** Apps the phone lets through whatever family care says: the dialler, the phone (calls) and emergency. */
export const ALWAYS_ALLOWED_APPS = ['com.android.dialer', 'com.google.android.dialer', 'com.android.phone', 'com.android.emergency'] as const;

/** Bounds the server and the phone both keep. */
export const FAMILY_LIMITS = { downtimeWindows: 4, apps: 50, appName: 150, usageApps: 100 } as const;

/** A phone with family care reports its usage of the day at least this often (and the last day's once more after midnight). */
export const USAGE_REPORT_SECONDS = 900;

/** An app's foreground time on one day. */
export interface AppUsage {
  app: string;
  seconds: number;
}

/** Actions switched on or off; `on: true` means the restriction or feature the action names is active. */
export const TOGGLE_ACTIONS = [
  'app_lock', 'camera_lock', 'usb_debugging', 'tracking', 'outgoing_call', 'bluetooth_lock_unlock', 'wifi_on_off',
  'airplane_mode_on_off', 'accessibility_on_off', 'app_hide_unhide', 'sim_lock_unlock', 'lost_mode', 'antitheft_lost_mode',
] as const satisfies readonly DeviceAction[];
export type ToggleAction = (typeof TOGGLE_ACTIONS)[number];

/** Actions that only ask the phone to do or report something once. */
export const ONE_SHOT_ACTIONS = ['fetch_location', 'reboot', 'sim_info', 'miui_permission', 'install_apple_onemodapp'] as const satisfies readonly DeviceAction[];

/** Actions that end management of the phone (the agent removes itself once it has reported). */
export const RELEASE_ACTIONS = ['uninstall', 'uninstall_antitheft', 'unclaim'] as const;

export interface Sim {
  slot: number;
  operator?: string;
  iccid?: string;
  number?: string;
}

export interface Location {
  latitude: number;
  longitude: number;
  /** Metres. */
  accuracy: number;
  at: string;
}

/** What the lock screen shows: filled by the server from the customer's loan. */
export interface LockScreen {
  /** Paise. */
  amount_due: number;
  /** A UPI payment link (upi://pay?...) the phone shows as a QR code, or null. */
  upi: string | null;
  retailer_name: string;
  retailer_mobile: string;
  message: string | null;
  /** The customer's language when the retailer set one; otherwise the phone's own. */
  language: string | null;
  /**
   * The organisation takes payments through its gateway: the phone offers "Pay now" (POST /api/device/pay_order).
   * Absent in lock screens written before it existed (queued commands, a phone's stored screen): no button.
   */
  pay_now?: boolean;
  /**
   * What became of the customer's latest "I paid" (of the last 7 days), so the phone can say whether the shop has
   * it, confirmed it, or could not confirm it and why. Absent in lock screens written before it existed; null
   * when there is none.
   */
  claim?: LockScreenClaim | null;
}

/** A customer's "I paid" as the lock screen tells of it. */
export interface LockScreenClaim {
  status: 'open' | 'confirmed' | 'rejected';
  /** Paise: as claimed, or as the shop recorded it on confirmation; null when the customer gave no amount. */
  amount_paise: number | null;
  /** The shop's reason, for a rejected claim (null when it gave none). */
  reason: string | null;
  /** When the claim last changed: pressed again, or decided. */
  at: string;
}

export type CommandPayload =
  | { lock_screen: LockScreen } // lock
  | { on: boolean; message?: string | null; phone?: string | null } // toggles (lost modes carry a message and phone)
  | { command: 'SIMTRACKINGON' | 'SIMTRACKINGOFF' | 'SIMTRACKINGOFFLINEON' | 'SIMTRACKINGOFFLINEOFF' }
  | { text: string; policy: 'alert' | 'wallpaper' } // wallpaper
  | { message: string; amount_due: number; due_date: string | null; upi: string | null; language: string | null } // emi_alert
  | { pin: string } // pin_change
  | { seconds: number } // ring
  | FamilyRulesPayload // family_rules
  | OfferPayload // offer
  | Record<string, never>;

export interface CommandMessage {
  v: 1;
  id: string;
  /** Per device, increasing; the phone ignores any seq not above the last one it has taken. */
  seq: number;
  type: CommandType;
  payload: CommandPayload;
  issued_at: string;
  expires_at: string;
}

export type CommandState = 'queued' | 'sent' | 'delivered' | 'done' | 'failed' | 'expired';

/** Results a phone reports with `done`. */
export type CommandResult =
  | { location: Location } // fetch_location
  | { sims: Sim[] } // sim_info
  | { error: string } // failed
  | Record<string, unknown>;

interface EventBase {
  v: 1;
  /** Per device, increasing across the phone's life; the server ignores any n not above the last it took. */
  n: number;
  at: string;
}

export type DeviceEvent =
  | (EventBase & { kind: 'ack'; id: string; state: 'delivered' | 'done' | 'failed'; result?: CommandResult })
  | (EventBase & { kind: 'sim_change'; old: Sim[]; new: Sim[]; location?: Location | null })
  /** Family care (revision 5): the day's usage so far (India date), per app; a later report of the same day replaces it. */
  | (EventBase & { kind: 'usage'; day: string; apps: AppUsage[] })
  /** Offers (revision 6): the customer switched the shop's offers off (true) or on again (false) on the phone. */
  | (EventBase & { kind: 'offers_opt_out'; opted_out: boolean });

/** One thing the phone did while it could not reach the server. */
export interface OfflineLogEntry {
  /** Per device, increasing; the server ignores entries it has already taken. */
  n: number;
  at: string;
  kind: 'code_unlock' | 'code_lock' | 'code_bypass' | 'code_ouc' | 'code_rejected' | 'self_lock' | 'offline_warning' | 'command';
  /** The HOTP counter or TOTP step of an accepted code, or the command id for `command`. */
  ref?: string | number;
}

/** POST /api/device/check-in (device credentials), over HTTPS. */
export interface CheckInBody {
  v: 1;
  locked: boolean;
  battery?: number;
  sims?: Sim[];
  app_version?: string;
  location?: Location | null;
  /** The highest command seq the phone has taken. */
  last_seq: number;
  /** What the phone did offline, oldest first. */
  log?: OfflineLogEntry[];
  /** The outcomes of the last commands the phone carried out, oldest first: a report lost on the way is taken from here. */
  recent?: CommandOutcomeRecord[];
  /** The lock screen is up because the phone locked itself (offline too long), not because the server asked. */
  self_locked?: boolean;
  /** Offers (revision 6): whether the customer has switched the shop's offers off on the phone. */
  offers_opt_out?: boolean;
  /** The phone's push token (Firebase Cloud Messaging), so the server can wake it; null when it has none. */
  push_token?: string | null;
}

/** What the phone recorded of a command it took: the outcome it reports again when the command comes back. */
export interface CommandOutcomeRecord {
  id: string;
  seq: number;
  state: 'done' | 'failed';
  result?: CommandResult;
}

/** How many outcomes the phone keeps and sends with its check-in. */
export const RECENT_OUTCOMES = 32;

export interface CheckInReply {
  /** What the server wants the phone to be. */
  desired: { locked: boolean; lock_screen: LockScreen | null };
  /** Sealed commands not yet finished, in seq order, above the phone's last_seq. */
  commands: string[];
  next_check_in_seconds: number;
  /** The phone locks itself after this many days without a check-in (0: never). */
  offline_lock_days: number;
  /** The organisation's name, for "Protected by ..." on the phone. */
  org_name: string;
  server_time: string;
  /** Set when the server wants a location with the next check-in. */
  want_location: boolean;
}
