/** What the virtual phone page shows, built from the agent's state: amounts formatted, UPI links as QR images. */
import QRCode from 'qrcode';
import { formatRupees } from '@kisht/domain/money';
import { formatDate } from '@kisht/domain/format';
import type { CodeResult, DeviceAgent, ProtectionProblem } from '../agent.ts';
import { formatActivationCode } from '@kisht/domain/activation-code';
import type { PayOrder } from '../device-api.ts';

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
  };
}
