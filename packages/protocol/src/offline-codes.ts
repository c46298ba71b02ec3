/**
 * Offline codes (docs/device-protocol.md, "Offline codes"): values the server gives a retailer and the phone
 * checks alone, with no network. Each purpose has its own key, derived from the device's 32-byte secret, so
 * an unlock code can never be read as a lock or bypass code.
 *
 * - unlock, lock, bypass: HOTP (RFC 4226). The server counts the codes it has issued per purpose; the phone
 *   remembers the highest counter it has accepted and looks ahead a few counters, so codes issued but never
 *   used do not block later ones. A code works once: accepting counter c retires every counter up to c.
 * - ouc (one-time unlock code): TOTP (RFC 6238) with a 10-minute step, read to a customer over the phone.
 *   It is accepted in the current and previous step, once per step.
 */
import { createHmac } from 'node:crypto';

export const OFFLINE_PURPOSES = ['unlock', 'lock', 'bypass'] as const;
export type OfflinePurpose = (typeof OFFLINE_PURPOSES)[number];
export type CodePurpose = OfflinePurpose | 'ouc';

export const CODE_DIGITS = 8;
export const HOTP_LOOK_AHEAD = 20;
export const OUC_STEP_SECONDS = 600;

/** HOTP value (RFC 4226 section 5.3) of `counter` under `key`, `digits` long. */
export function hotp(key: Buffer, counter: number, digits = CODE_DIGITS, algorithm: 'sha1' | 'sha256' = 'sha1'): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** TOTP value (RFC 6238) at `timeMs` with a step of `stepSeconds`. */
export function totp(key: Buffer, timeMs: number, stepSeconds: number, digits = CODE_DIGITS, algorithm: 'sha1' | 'sha256' = 'sha1'): string {
  return hotp(key, Math.floor(timeMs / 1000 / stepSeconds), digits, algorithm);
}

export function purposeKey(secret: string, purpose: CodePurpose): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'base64url')).update(`kisht/offline/v1/${purpose}`).digest();
}

/** The code the server issues for `purpose` at `counter` (its count of codes issued for that purpose). */
export function offlineCode(secret: string, purpose: OfflinePurpose, counter: number): string {
  return hotp(purposeKey(secret, purpose), counter);
}

export function oucStep(timeMs: number): number {
  return Math.floor(timeMs / 1000 / OUC_STEP_SECONDS);
}

export function oucCode(secret: string, timeMs: number): string {
  return hotp(purposeKey(secret, 'ouc'), oucStep(timeMs));
}

/** What the phone remembers between codes. */
export interface OfflineCodeState {
  /** Highest HOTP counter accepted per purpose (0: none yet; counters start at 1). */
  used: Record<OfflinePurpose, number>;
  /** TOTP steps already used for an ouc code. */
  oucSteps: number[];
}

export const initialCodeState = (): OfflineCodeState => ({ used: { unlock: 0, lock: 0, bypass: 0 }, oucSteps: [] });

export interface AcceptedCode {
  purpose: CodePurpose;
  counter: number;
  state: OfflineCodeState;
}

/** Checks a code the customer typed; on success returns the new state that retires it. */
export function acceptOfflineCode(secret: string, code: string, state: OfflineCodeState, nowMs: number): AcceptedCode | null {
  if (!new RegExp(`^[0-9]{${CODE_DIGITS}}$`).test(code)) return null;
  for (const purpose of OFFLINE_PURPOSES) {
    const key = purposeKey(secret, purpose);
    for (let counter = state.used[purpose] + 1; counter <= state.used[purpose] + HOTP_LOOK_AHEAD; counter++) {
      if (hotp(key, counter) === code) {
        return { purpose, counter, state: { ...state, used: { ...state.used, [purpose]: counter } } };
      }
    }
  }
  const key = purposeKey(secret, 'ouc');
  const now = oucStep(nowMs);
  for (const step of [now, now - 1].filter((s) => s >= 0)) {
    if (!state.oucSteps.includes(step) && hotp(key, step) === code) {
      return { purpose: 'ouc', counter: step, state: { ...state, oucSteps: [...state.oucSteps.filter((s) => s >= now - 1), step] } };
    }
  }
  return null;
}

/** Wrong tries the phone allows before it stops accepting codes for a while; each lockout doubles. */
export const CODE_ATTEMPTS = 5;
export const CODE_LOCKOUT_SECONDS = 15 * 60;

export function lockoutSeconds(lockouts: number): number {
  return CODE_LOCKOUT_SECONDS * 2 ** Math.min(lockouts, 6);
}
