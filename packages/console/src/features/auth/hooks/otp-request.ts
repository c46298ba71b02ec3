/**
 * The OTP request in progress (sign-in or MPIN reset). Kept in sessionStorage so reloading the OTP
 * screen keeps it; the OTP typed for an MPIN reset is held in memory only until the new MPIN is sent.
 */
import type { OtpRequested } from '@kisht/contract/auth';

export type OtpFlowPurpose = 'LOGIN' | 'FORGOT_PASSWORD';

export interface PendingOtp extends OtpRequested {
  purpose: OtpFlowPurpose;
  mobile: string;
  /** When the OTP was (re)sent, ms since the epoch; the resend countdown starts here. */
  requestedAt: number;
}

const KEY = 'kisht.pendingOtp';

export function savePendingOtp(pending: PendingOtp): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(pending));
  } catch {
    /* storage unavailable: the flow still works until a reload */
  }
}

export function readPendingOtp(): PendingOtp | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    const value = raw ? (JSON.parse(raw) as Partial<PendingOtp>) : null;
    if (!value || typeof value.request_id !== 'string' || typeof value.mobile !== 'string') return null;
    if (value.purpose !== 'LOGIN' && value.purpose !== 'FORGOT_PASSWORD') return null;
    return value as PendingOtp;
  } catch {
    return null;
  }
}

export function clearPendingOtp(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    /* storage unavailable */
  }
}

let resetCode: { request_id: string; otp: string } | null = null;

export function holdResetCode(code: { request_id: string; otp: string }): void {
  resetCode = code;
}

export function heldResetCode(): { request_id: string; otp: string } | null {
  return resetCode;
}

export function dropResetCode(): void {
  resetCode = null;
}
