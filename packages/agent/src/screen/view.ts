/** What the virtual phone page shows, built from the agent's state: amounts formatted, UPI links as QR images. */
import QRCode from 'qrcode';
import { formatRupees } from '@kisht/domain/money';
import { formatDate } from '@kisht/domain/format';
import type { CodeResult, DeviceAgent } from '../agent.ts';

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
  lockScreen: { amountDue: string | null; upi: string | null; upiQr: string | null; retailerName: string; retailerMobile: string; message: string | null } | null;
  emiAlert: { message: string; amountDue: string | null; dueDate: string | null; upiQr: string | null } | null;
  lostMode: { on: boolean; message: string | null; phone: string | null };
  wallpaper: { text: string; policy: 'alert' | 'wallpaper' } | null;
  sims: Array<{ slot: number; operator?: string; iccid?: string }>;
  code: { lockedUntil: number | null; last: CodeResult | null };
  deviceId: string | null;
  lastCheckIn: number | null;
  lastSeq: number;
  toggles: Record<string, boolean>;
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

export async function buildView(agent: DeviceAgent, org: string | undefined, lastCode: CodeResult | null): Promise<PhoneView> {
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
      ? { amountDue: amountDueText(lock.amount_due), upi: lock.upi, upiQr: await qrImage(lock.upi), retailerName: lock.retailer_name, retailerMobile: lock.retailer_mobile, message: lock.message }
      : null,
    emiAlert: alert
      ? { message: alert.message, amountDue: amountDueText(alert.amount_due), dueDate: alert.due_date ? formatDate(alert.due_date) : null, upiQr: await qrImage(alert.upi) }
      : null,
    lostMode: screen.lostMode,
    wallpaper: screen.wallpaper,
    sims: screen.sims,
    code: { lockedUntil: s.codeLockedUntil, last: lastCode },
    deviceId: s.credentials?.deviceId ?? null,
    lastCheckIn: s.lastCheckIn,
    lastSeq: s.lastSeq,
    toggles: screen.toggles,
  };
}
