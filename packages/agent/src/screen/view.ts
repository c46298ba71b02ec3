/** What the virtual phone page shows, built from the agent's state: amounts formatted, UPI links as QR images. */
import QRCode from 'qrcode';
import { formatRupees } from '@kisht/domain/money';
import { formatDate, formatDateTime } from '@kisht/domain/format';
import { alwaysAllowed, type BlockReason } from '@kisht/protocol/family-rules';
import type { CodeResult, DeviceAgent, ProtectionProblem } from '../agent.ts';
import { formatActivationCode } from '@kisht/domain/activation-code';
import type { PayOrder } from '../device-api.ts';
import type { FamilyCareView } from '../family-care.ts';
import { lockScreenUp } from '../offers.ts';
import type { PhoneState } from '../state.ts';

/** Why a payment button could not do its work, as the phone words it (phone.pay.problem.<reason>; nothingDue: phone.lock.nothingDue). */
export type PaymentProblem = 'offline' | 'unavailable' | 'nothingDue' | 'tooSoon' | 'badReference' | 'failed';

/** What the lock screen's payment buttons have done since the phone was locked. */
export interface PaymentPanel {
  /** The order "Pay now" fetched. */
  order: PayOrder | null;
  /** "I paid" reached the shop. */
  claimSent: boolean;
  problem: PaymentProblem | null;
}
export const NO_PAYMENT: PaymentPanel = { order: null, claimSent: false, problem: null };

/**
 * The pretend apps a child can open on the virtual phone, with the key of their name (phone.family.app.<key>).
 * Real package names, so a parent's rules written for real phones work here too; the dialler always opens.
 */
export const PRETEND_APPS = [
  { app: 'com.example.game', key: 'game' },
  { app: 'com.google.android.youtube', key: 'video' },
  { app: 'org.khanacademy.android', key: 'study' },
  { app: 'com.android.dialer', key: 'dialler' },
] as const;

/** Family care as the child's screen shows it; times are India time, written out. */
export interface FamilyScreen {
  version: number;
  /** Screen time left today in minutes (rounded up), or null when today has no limit. */
  minutesLeft: number | null;
  limitMinutes: number | null;
  /** What closes every app but the always-allowed ones now; `until` is a time today, or a date and time. */
  block: { reason: BlockReason; until: string } | null;
  foreground: string | null;
  /** The foreground app's time counts as screen time (false for the dialler and the parent's allowed apps). */
  foregroundCounts: boolean;
  /** The app last turned away or closed by the rules, and why; until is null for a blocked app. */
  refused: { app: string; reason: 'blocked' | BlockReason; until: string | null } | null;
  /** Today's use per app, most first, in minutes (rounded down). */
  usage: Array<{ app: string; minutes: number }>;
  /** The pretend apps, and whether each would open now. */
  apps: Array<{ app: string; key: string; opens: boolean }>;
}

/** An offer in the "Offers" channel as the screen shows it; the picture comes through the screen server (offer-image). */
export interface OfferItem {
  commandId: string;
  campaignId: number;
  title: string;
  text: string;
  link: string | null;
  /** Where the page loads the picture from, or null when the offer has none. */
  image: string | null;
  opened: boolean;
}

export interface PhoneView {
  now: number;
  lng: string;
  org: string;
  status: 'new' | 'enrolled' | 'released';
  online: boolean;
  connected: boolean;
  battery: number;
  locked: boolean;
  selfLocked: boolean;
  offlineLockDays: number;
  offlineWarning: boolean;
  /** amountDue is null when nothing is due: the phone says so instead of showing Rs 0. */
  lockScreen: {
    amountDue: string | null; upi: string | null; upiQr: string | null; retailerName: string; retailerMobile: string; message: string | null;
    /** The organisation's gateway is on: the screen offers "Pay now". */
    payNow: boolean;
    /** What became of the customer's latest "I paid", as the server last said (amount formatted). */
    claim: { status: 'open' | 'confirmed' | 'rejected'; amount: string | null; reason: string | null } | null;
  } | null;
  /** "Pay now" and "I paid": the order's QR and link, whether the claim was sent, or what went wrong. */
  payment: { order: { amount: string; upiLink: string | null; upiQr: string | null; shortUrl: string | null } | null; claimSent: boolean; problem: PaymentProblem | null };
  emiAlert: { message: string; amountDue: string | null; dueDate: string | null; upiQr: string | null } | null;
  lostMode: { on: boolean; message: string | null; phone: string | null };
  /** The alarm a `ring` started is playing. */
  ringing: boolean;
  wallpaper: { text: string; policy: 'alert' | 'wallpaper' } | null;
  sims: Array<{ slot: number; operator?: string; iccid?: string }>;
  code: { lockedUntil: number | null; last: CodeResult | null };
  deviceId: string | null;
  lastCheckIn: number | null;
  lastSeq: number;
  toggles: Record<string, boolean>;
  /** The anti-hacking security app: its activation (none yet, active, or switched off) and the last refusal. */
  protection: {
    state: 'none' | 'active' | 'revoked' | 'expired';
    planName: string | null;
    expiresOn: string | null;
    code: string | null;
    problem: ProtectionProblem | null;
  };
  /** The child's view: null when no parent has sent rules. */
  family: FamilyScreen | null;
  /**
   * The shop's offers, newest first, and the "Shop offers" switch (off: `optedOut`). No offer is listed while the
   * lock screen or lost mode is up: offers never show on or over it.
   */
  offers: { optedOut: boolean; items: OfferItem[] };
}

/** The "Offers" channel as the screen shows it now. */
export function offersView(state: PhoneState): PhoneView['offers'] {
  const optedOut = state.offersOptOut === true;
  if (optedOut || lockScreenUp(state)) return { optedOut, items: [] };
  return {
    optedOut,
    items: (state.offers ?? []).map((o) => ({
      commandId: o.commandId, campaignId: o.campaignId, title: o.title, text: o.text, link: o.link,
      image: o.image ? `/offer-image?campaign_id=${o.campaignId}` : null, opened: o.openedAt !== null,
    })),
  };
}

/**
 * A moment as the child reads it: the time alone within the next 24 hours (each clock time comes once in them, so
 * "until 07:00 AM" at bedtime is tomorrow morning), else the date too.
 */
export function untilText(until: number, now: number): string {
  const full = formatDateTime(until);
  return until - now < 86_400_000 ? full.slice(11) : full;
}

function familyScreen(agent: DeviceAgent, family: FamilyCareView | null | undefined): FamilyScreen | null {
  if (!family) return null;
  const now = agent.now();
  const refused = family.refused;
  const openNow = (app: string) => alwaysAllowed(family.rules, app) || (!family.rules.blocked_apps.includes(app) && family.block === null);
  return {
    version: family.version,
    minutesLeft: family.secondsLeft === null ? null : Math.ceil(family.secondsLeft / 60),
    limitMinutes: family.limitMinutes,
    block: family.block ? { reason: family.block.reason, until: untilText(family.block.until, now) } : null,
    foreground: family.foreground,
    foregroundCounts: family.foreground !== null && !alwaysAllowed(family.rules, family.foreground),
    refused: refused
      ? { app: refused.app, reason: refused.verdict.reason, until: refused.verdict.until === null ? null : untilText(refused.verdict.until, now) }
      : null,
    usage: family.usage.map((u) => ({ app: u.app, minutes: Math.floor(u.seconds / 60) })),
    apps: PRETEND_APPS.map((p) => ({ app: p.app, key: p.key, opens: openNow(p.app) })),
  };
}

/** The amount line's text, or null when nothing is due (a lock screen never says "Amount due Rs 0"). */
export function amountDueText(paise: number): string | null {
  return paise > 0 ? formatRupees(paise) : null;
}

const qrCache = new Map<string, string>();

async function qrImage(text: string | null | undefined): Promise<string | null> {
  if (!text) return null;
  const cached = qrCache.get(text);
  if (cached) return cached;
  const image = await QRCode.toDataURL(text, { margin: 1, width: 220 });
  if (qrCache.size > 100) qrCache.clear();
  qrCache.set(text, image);
  return image;
}

export async function buildView(
  agent: DeviceAgent, org: string | undefined, lastCode: CodeResult | null, payment: PaymentPanel = NO_PAYMENT, protectionProblem: ProtectionProblem | null = null,
): Promise<PhoneView> {
  const s = agent.snapshot();
  const screen = s.screen;
  const lock = screen.lockScreen;
  const alert = screen.emiAlert;
  return {
    now: agent.now(),
    lng: lock?.language ?? alert?.language ?? 'en',
    // An organisation named on the command line wins over the one the server gives.
    org: org ?? s.orgName ?? 'Kisht',
    status: s.status,
    online: agent.isOnline,
    connected: agent.isConnected,
    battery: screen.battery,
    locked: screen.locked,
    selfLocked: s.selfLocked,
    offlineLockDays: s.offlineLockDays,
    offlineWarning: s.offlineWarning,
    lockScreen: lock
      ? {
        amountDue: amountDueText(lock.amount_due), upi: lock.upi, upiQr: await qrImage(lock.upi), retailerName: lock.retailer_name, retailerMobile: lock.retailer_mobile, message: lock.message,
        payNow: lock.pay_now === true,
        claim: lock.claim
          ? { status: lock.claim.status, amount: lock.claim.amount_paise !== null ? formatRupees(lock.claim.amount_paise) : null, reason: lock.claim.reason }
          : null,
      }
      : null,
    payment: {
      order: payment.order
        ? { amount: formatRupees(payment.order.amount_paise), upiLink: payment.order.upi_link, upiQr: await qrImage(payment.order.upi_link), shortUrl: payment.order.short_url }
        : null,
      claimSent: payment.claimSent,
      problem: payment.problem,
    },
    emiAlert: alert
      ? { message: alert.message, amountDue: amountDueText(alert.amount_due), dueDate: alert.due_date ? formatDate(alert.due_date) : null, upiQr: await qrImage(alert.upi) }
      : null,
    lostMode: screen.lostMode,
    ringing: (screen.alarmUntil ?? 0) > agent.now(),
    wallpaper: screen.wallpaper,
    sims: screen.sims,
    code: { lockedUntil: s.codeLockedUntil, last: lastCode },
    deviceId: s.credentials?.deviceId ?? null,
    lastCheckIn: s.lastCheckIn,
    lastSeq: s.lastSeq,
    toggles: screen.toggles,
    protection: (() => {
      const p = s.protection;
      if (!p) return { state: 'none' as const, planName: null, expiresOn: null, code: null, problem: protectionProblem };
      // The phone's own clock ends it too: an expired plan stops protecting without waiting for the server.
      const state = p.state === 'active' && Date.parse(p.expiresAt) <= agent.now() ? 'expired' as const : p.state;
      return { state, planName: p.planName, expiresOn: formatDate(p.expiresAt), code: formatActivationCode(p.code), problem: protectionProblem };
    })(),
    family: familyScreen(agent, s.familyCare),
    offers: offersView(s),
  };
}
