/** What a phone keeps across reboots: its credentials, what it has taken from the server, and what it shows. */
import type { CommandOutcomeRecord, FamilyRulesPayload, OfflineLogEntry, LockScreen, Location, Sim, ToggleAction } from '@kisht/protocol/messages';
import type { AppVerdict } from '@kisht/protocol/family-rules';
import { TOGGLE_ACTIONS } from '@kisht/protocol/messages';
import { initialCodeState, type OfflineCodeState } from '@kisht/protocol/offline-codes';

export const AGENT_VERSION = '1.0.0';

export interface Identity {
  imei1: string;
  imei2?: string;
  serial?: string;
}

export interface Credentials {
  deviceId: string;
  username: string;
  password: string;
  /** Where the phone's MQTT connection goes. */
  mqttUrl: string;
  commandTopic: string;
  eventTopic: string;
  offlineSecret: string;
}

export interface EmiAlert {
  message: string;
  amount_due: number;
  due_date: string | null;
  upi: string | null;
  language: string;
}

/**
 * An offer from the shop (revision 6) in the phone's "Offers" notification channel, with the command that brought
 * it: opening it finishes that command (`done` with `{ opened: true }`).
 */
export interface OfferNotification {
  commandId: string;
  seq: number;
  campaignId: number;
  title: string;
  text: string;
  /** An https link the offer opens, or null. */
  link: string | null;
  /** The picture's path on the phone's own server (fetched with the device credentials), or null. */
  image: string | null;
  /** When it was shown, and when the customer opened it (ms); null: not opened yet. */
  shownAt: number;
  openedAt: number | null;
}

/** What the customer sees and what the device policy enforces. */
export interface PhoneScreen {
  locked: boolean;
  /** The last lock screen the server sent; kept so a self-lock or lock code can show the retailer too. */
  lockScreen: LockScreen | null;
  toggles: Record<ToggleAction, boolean>;
  lostMode: { on: boolean; message: string | null; phone: string | null };
  wallpaper: { text: string; policy: 'alert' | 'wallpaper' } | null;
  /** Shown over the home screen until the customer dismisses it. */
  emiAlert: EmiAlert | null;
  pin: string | null;
  /** The alarm `ring` started plays until then (ms); absent or null: silent. */
  alarmUntil?: number | null;
  simTracking: { online: boolean; offline: boolean };
  location: Location | null;
  sims: Sim[];
  battery: number;
  appVersion: string;
}

/**
 * The anti-hacking security app's activation (decision 020): the plan the code was sold for and until when it
 * protects the phone. `state` is what the server said at the last check: revoked and expired switch it off.
 */
export interface Protection {
  planName: string;
  appType: number;
  activatedAt: string;
  expiresAt: string;
  state: 'active' | 'revoked' | 'expired';
  /** The code (kept to check it again) and the mobile it was sold to. */
  code: string;
  mobile: string;
  checkedAt: number;
}

/**
 * The child's use of apps (family care, revision 5): the app in the foreground and each app's foreground time per
 * India day, kept for the last few days so a usage report made offline still has its numbers.
 */
export interface AppsState {
  /** The app on screen; null: the home screen (or a screen saying why an app did not open). */
  foreground: string | null;
  /** Foreground time is counted up to this moment (ms, family time: see clockOffset). */
  countedTo: number;
  /**
   * What the phone adds to its clock for family care (ms): when the clock is set back (a child's way to a new day's
   * screen time), family time carries on from the latest moment it had reached instead. Absent: 0.
   */
  clockOffset?: number;
  /** Foreground milliseconds per India date (YYYY-MM-DD), per app. */
  usage: Record<string, Record<string, number>>;
  /** Per India date, the seconds per app the last usage report carried, and whether the finished day went once more. */
  reported: Record<string, { apps: Record<string, number>; final: boolean }>;
  /** When usage was last reported (ms), whichever day it was for. */
  lastReportAt: number | null;
  /** The app the rules last turned away (or closed), and why: on screen until the child goes home or opens another. */
  refused: { app: string; verdict: Extract<AppVerdict, { allowed: false }> } | null;
}

export function initialApps(now: number): AppsState {
  return { foreground: null, countedTo: now, usage: {}, reported: {}, lastReportAt: null, refused: null };
}

export interface PhoneState {
  v: 1;
  /** new: not enrolled yet; enrolled: managed; released: the agent removed itself. */
  status: 'new' | 'enrolled' | 'released';
  /**
   * A release command (uninstall, unclaim) was carried out and its `done` waits to reach the server: stored with that
   * event, so a power cut before the credentials are dropped ends the release on the next start instead of leaving a
   * paid-off phone managed. Meanwhile the phone is open and never locks itself.
   */
  releasing?: boolean;
  identity: Identity;
  server: string | null;
  credentials: Credentials | null;
  /** The highest command seq taken. */
  lastSeq: number;
  /** The outcomes of the last commands carried out, oldest first (RECENT_OUTCOMES of them): answered again when a command comes back. */
  outcomes: CommandOutcomeRecord[];
  /** The last event `n` used. */
  lastEventN: number;
  /** Sealed events the broker has not confirmed yet, oldest first. */
  outbox: string[];
  /** The last offline log `n` used, and the entries the server has not taken yet. */
  lastLogN: number;
  log: OfflineLogEntry[];
  codes: OfflineCodeState;
  /** Wrong codes in a row, lockouts so far, and the end of the current lockout (ms). */
  codeFailures: number;
  codeLockouts: number;
  codeLockedUntil: number | null;
  /** Last successful check-in (ms), and the server's answers that steer the phone. */
  lastCheckIn: number | null;
  checkInSeconds: number;
  offlineLockDays: number;
  /** The organisation's name from the last check-in. */
  orgName?: string;
  /** A bypass code pauses the self-lock until the next successful check-in. */
  bypass: boolean;
  selfLocked: boolean;
  /** Set when a code unlocks a self-locked phone: its offline days count again from then. */
  selfLockAnchor: number | null;
  offlineWarning: boolean;
  screen: PhoneScreen;
  /** This installation's id, made on first use: the server binds an activated code to it. */
  installId?: string;
  protection?: Protection | null;
  /** Family care (revision 5): the parent's rules with the highest version taken; absent or null: none yet. */
  family?: FamilyRulesPayload | null;
  /** The child's apps; absent in state saved before family care. */
  apps?: AppsState;
  /** The "Offers" notification channel (revision 6), newest first (OFFERS_KEPT at most); absent in state saved before offers. */
  offers?: OfferNotification[];
  /** The customer switched the shop's offers off; absent: on. EMI alerts are another channel and always show. */
  offersOptOut?: boolean;
  /** The phone's push token (Firebase Cloud Messaging), sent with every check-in; absent or null: none. */
  pushToken?: string | null;
}

export function initialState(identity: Identity, sims: Sim[] = []): PhoneState {
  return {
    v: 1,
    status: 'new',
    identity,
    server: null,
    credentials: null,
    lastSeq: 0,
    outcomes: [],
    lastEventN: 0,
    outbox: [],
    lastLogN: 0,
    log: [],
    codes: initialCodeState(),
    codeFailures: 0,
    codeLockouts: 0,
    codeLockedUntil: null,
    lastCheckIn: null,
    checkInSeconds: 900,
    offlineLockDays: 0,
    bypass: false,
    selfLocked: false,
    selfLockAnchor: null,
    offlineWarning: false,
    screen: {
      locked: false,
      lockScreen: null,
      toggles: Object.fromEntries(TOGGLE_ACTIONS.map((a) => [a, false])) as Record<ToggleAction, boolean>,
      lostMode: { on: false, message: null, phone: null },
      wallpaper: null,
      emiAlert: null,
      pin: null,
      simTracking: { online: false, offline: false },
      location: null,
      sims,
      battery: 80,
      appVersion: AGENT_VERSION,
    },
  };
}
