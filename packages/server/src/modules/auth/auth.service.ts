/**
 * Sign-in rules: OTP requests and checks (LOGIN, FORGOT_PASSWORD, UNINSTALL, BYPASS_CODE), MPIN, sessions.
 * An OTP is six digits, lives limits.otpTtlSeconds (ten minutes by default), works once, belongs to one request
 * and one purpose, and dies after five wrong tries (resends do not reset that count). Known and unknown numbers
 * get the same answer. The SMS is in the language of whoever asks for it.
 */
import { randomUUID } from 'node:crypto';
import type { Language, OtpPurpose } from '@kisht/domain/constants';
import type { Database, Queryable } from '../../db/database.ts';
import type { Limits } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { translate } from '../../shared/messages.ts';
import type { SmsQueue } from '../sms-queue/sms-queue.worker.ts';
import type { OtpRepository, OtpRow } from './otp.repository.ts';
import type { UsersRepository, UserRow } from '../users/users.repository.ts';
import type { ClientDetails, SessionsRepository } from '../sessions/sessions.repository.ts';
import { checkMpin, generateOtp, hashMpin, hashOtp, isWeakMpin, sameHash, signAccessToken } from './secrets.ts';
import type { OtpRequested, SignedIn, UserProfile } from '@kisht/contract/auth';

export interface AuthServiceDeps {
  db: Database;
  users: UsersRepository;
  otps: OtpRepository;
  sessions: SessionsRepository;
  /** OTP messages are queued in the request's transaction and sent by the queue's worker. */
  sms: Pick<SmsQueue, 'enqueue' | 'afterEnqueue'>;
  limits: Limits;
  otpKey: Buffer;
  tokenKey: Buffer;
  sessionTtlDays: number;
  /** The app organisation's name: the SMS of a number with no account names it. */
  appName: string;
  /** An organisation's display name (null: the app's), so each SMS names the organisation of the account it is for. */
  orgName?: (orgId: number | null) => Promise<string | undefined>;
}

/** The OTP message in `lng` (locales sms.<PURPOSE>), with the lifetime the code really has. */
const SMS_FALLBACK: Record<OtpPurpose, string> = {
  LOGIN: '{{code}} is your {{app}} sign-in OTP. It is valid for {{minutes}} minutes. Do not share it with anyone.',
  FORGOT_PASSWORD: '{{code}} is your {{app}} OTP to reset your MPIN. Valid for {{minutes}} minutes. Do not share it.',
  UNINSTALL: '{{code}} is the OTP to remove the {{app}} app from your phone. Share it only with your retailer, in person.',
  BYPASS_CODE: '{{code}} is the OTP for a {{app}} device bypass code. Share it only with your retailer.',
};

function smsText(purpose: OtpPurpose, lng: Language, code: string, app: string, ttlSeconds: number): string {
  return translate(lng, `sms.${purpose}`, SMS_FALLBACK[purpose], { code, app, minutes: Math.max(1, Math.ceil(ttlSeconds / 60)) });
}

export function toProfile(user: UserRow): UserProfile {
  return {
    id: user.id,
    account_id: user.account_id ?? user.id,
    org_id: user.org_id,
    user_type: user.user_type,
    first_name: user.first_name,
    last_name: user.last_name,
    mobile: user.mobile,
    email: user.email,
    shop_name: user.shop_name,
    birthday: user.birthday,
    mpin_set: user.mpin_hash !== null,
  };
}

type CheckOutcome = { ok: true; row: OtpRow } | { ok: false; error: AppError };

export function createAuthService(deps: AuthServiceDeps) {
  const { db, users, otps, sessions, sms, limits } = deps;

  const requested = (id: string): OtpRequested => ({
    request_id: id,
    expires_in_seconds: limits.otpTtlSeconds,
    resend_after_seconds: limits.otpResendAfterSeconds,
  });

  /** Inside the sending transaction, after lockSender: refuses a send over the per-number or per-address limit. */
  async function enforceSendLimits(mobile: string, ip: string | null, tx: Queryable) {
    await otps.lockSender(mobile, ip, tx);
    const recent = await otps.recentSends(mobile, ip, tx);
    const overMobile = recent.by_mobile >= limits.otpSendsPerMobilePerHour;
    const overIp = ip !== null && recent.by_ip >= limits.otpSendsPerIpPerHour;
    if (overMobile || overIp) {
      const oldest = (overMobile ? recent.oldest_mobile : recent.oldest_ip) ?? new Date();
      const retry = Math.max(1, Math.ceil((oldest.getTime() + 3_600_000 - Date.now()) / 1000));
      throw new AppError('RATE_LIMITED', { retry_after_seconds: retry });
    }
  }

  /**
   * Creates an OTP request. `recipient` is the account the code belongs to; for an unknown number it is
   * null and no message goes out, but the request, its limits and the answer look exactly the same, and so
   * does the work: the message is written and queued the same way, only with nothing stored to send.
   */
  async function issue(purpose: OtpPurpose, mobile: string, recipient: UserRow | null, ip: string | null, requestedBy: number | null, lng: Language) {
    const id = randomUUID();
    const code = generateOtp();
    const message = { to: mobile, body: smsText(purpose, lng, code, await smsAppName(recipient?.org_id ?? null, requestedBy), limits.otpTtlSeconds), purpose, discardAfterSeconds: limits.otpTtlSeconds };
    await db.transaction(async (tx) => {
      await enforceSendLimits(mobile, ip, tx);
      await otps.create({ id, purpose, mobile, user_id: recipient?.id ?? null, requested_by: requestedBy, code_hash: hashOtp(deps.otpKey, id, code), ip, ttlSeconds: limits.otpTtlSeconds }, tx);
      await otps.recordSend(id, mobile, ip, tx);
      await sms.enqueue(message, recipient !== null || requestedBy !== null, tx);
    });
    await sms.afterEnqueue();
    return requested(id);
  }

  /**
   * The organisation an OTP's SMS names: the account holder's, else (a customer's OTP) the asking retailer's,
   * else the app's. One look-up either way, so an unknown number costs the same as a known one.
   */
  async function smsAppName(orgId: number | null, requestedBy: number | null): Promise<string> {
    if (!deps.orgName) return deps.appName;
    const owner = orgId ?? (requestedBy !== null ? ((await users.findById(requestedBy))?.org_id ?? null) : null);
    return (await deps.orgName(owner)) ?? deps.appName;
  }

  /** Checks a code. Wrong tries are committed before the error is raised, so rolling back cannot undo them. */
  async function check(requestId: string, code: string, purpose: OtpPurpose, requestedBy: number | null): Promise<OtpRow> {
    const outcome = await db.transaction(async (tx): Promise<CheckOutcome> => {
      const row = await otps.findForUpdate(requestId, tx);
      if (!row || row.purpose !== purpose || (requestedBy !== null && row.requested_by !== requestedBy)) {
        return { ok: false, error: new AppError('OTP_EXPIRED') };
      }
      if (row.consumed_at || row.expires_at <= row.now) return { ok: false, error: new AppError('OTP_EXPIRED') };
      if (row.attempts >= limits.otpMaxAttempts) return { ok: false, error: new AppError('OTP_ATTEMPTS_EXCEEDED') };
      const owned = row.user_id !== null || row.requested_by !== null;
      if (!owned || !sameHash(row.code_hash, hashOtp(deps.otpKey, row.id, code))) {
        const attempts = await otps.recordFailure(row.id, tx);
        const left = limits.otpMaxAttempts - attempts;
        return { ok: false, error: left <= 0 ? new AppError('OTP_ATTEMPTS_EXCEEDED') : new AppError('OTP_INVALID', { attempts_left: left }) };
      }
      await otps.consume(row.id, tx);
      return { ok: true, row };
    });
    if (!outcome.ok) throw outcome.error;
    return outcome.row;
  }

  async function activeUser(mobile: string): Promise<UserRow | null> {
    const user = await users.findByMobile(mobile);
    return user && user.active ? user : null;
  }

  return {
    /** `lng` is the caller's language (the console's choice); the SMS is written in it. */
    async requestLoginOtp(mobile: string, ip: string | null, lng: Language) {
      return issue('LOGIN', mobile, await activeUser(mobile), ip, null, lng);
    },

    async requestForgotOtp(mobile: string, ip: string | null, lng: Language) {
      return issue('FORGOT_PASSWORD', mobile, await activeUser(mobile), ip, null, lng);
    },

    /**
     * An OTP to a customer's phone for an uninstall or a bypass code; only the retailer who asked can check it.
     * Only the mobile is known here, so the SMS is in the requesting retailer's language (`lng`), who hands
     * the phone over in person.
     */
    async requestCustomerOtp(purpose: 'UNINSTALL' | 'BYPASS_CODE', mobile: string, ip: string | null, requestedBy: number, lng: Language) {
      return issue(purpose, mobile, null, ip, requestedBy, lng);
    },

    /** A new code for the same request, in the asker's language (`lng`). A customer OTP can be resent only by the retailer who asked for it. */
    async resend(requestId: string, ip: string | null, callerId: number | null, lng: Language): Promise<OtpRequested> {
      const code = generateOtp();
      // Named before the transaction: PGlite has one connection, so no other query may run inside it.
      const pending = await otps.findForUpdate(requestId, db);
      const app = await smsAppName(pending?.user_id ? ((await users.findById(pending.user_id))?.org_id ?? null) : null, pending?.requested_by ?? null);
      // As in issue(): a resend for an unknown number queues nothing, at the same cost.
      const row = await db.transaction(async (tx) => {
        const found = await otps.findForUpdate(requestId, tx);
        if (!found || found.consumed_at || found.attempts >= limits.otpMaxAttempts) throw new AppError('OTP_EXPIRED');
        if (found.requested_by !== null && found.requested_by !== callerId) throw new AppError('OTP_EXPIRED');
        const wait = Math.ceil((found.last_sent_at.getTime() + limits.otpResendAfterSeconds * 1000 - found.now.getTime()) / 1000);
        if (wait > 0) throw new AppError('OTP_RESEND_TOO_SOON', { retry_after_seconds: wait });
        if (found.resends >= limits.otpMaxResends) throw new AppError('OTP_RESEND_LIMIT');
        await enforceSendLimits(found.mobile, ip, tx);
        await otps.replaceCode(found.id, hashOtp(deps.otpKey, found.id, code), limits.otpTtlSeconds, tx);
        await otps.recordSend(found.id, found.mobile, ip, tx);
        const message = { to: found.mobile, body: smsText(found.purpose, lng, code, app, limits.otpTtlSeconds), purpose: found.purpose, discardAfterSeconds: limits.otpTtlSeconds };
        await sms.enqueue(message, found.user_id !== null || found.requested_by !== null, tx);
        return found;
      });
      await sms.afterEnqueue();
      return requested(row.id);
    },

    async verifyLogin(requestId: string, code: string, client: ClientDetails): Promise<SignedIn> {
      const row = await check(requestId, code, 'LOGIN', null);
      const user = row.user_id === null ? undefined : await users.findById(row.user_id);
      if (!user || !user.active) throw new AppError('OTP_INVALID');
      const sessionId = randomUUID();
      const { expires_at } = await db.transaction(async (tx) => {
        // A fresh OTP sign-in proves the phone; earlier wrong MPINs no longer count against it.
        await users.clearMpinFailures(user.id, tx);
        return sessions.create(sessionId, user.id, deps.sessionTtlDays, client, tx);
      });
      const token = await signAccessToken(deps.tokenKey, { sub: String(user.id), sid: sessionId, org: user.org_id, acc: user.account_id ?? user.id }, expires_at);
      return { token, session_id: sessionId, user: toProfile({ ...user, mpin_failed: 0 }) };
    },

    /** Checks a customer OTP (UNINSTALL, BYPASS_CODE) for the retailer who requested it. */
    async consumeCustomerOtp(requestId: string, code: string, purpose: 'UNINSTALL' | 'BYPASS_CODE', requestedBy: number) {
      const row = await check(requestId, code, purpose, requestedBy);
      return { mobile: row.mobile };
    },

    async resetMpin(requestId: string, code: string, mpin: string): Promise<void> {
      if (isWeakMpin(mpin)) throw new AppError('MPIN_WEAK');
      const row = await check(requestId, code, 'FORGOT_PASSWORD', null);
      if (row.user_id === null) throw new AppError('OTP_INVALID');
      await users.setMpin(row.user_id, await hashMpin(mpin));
    },

    async setMpin(userId: number, mpin: string): Promise<void> {
      const user = await users.findById(userId);
      if (!user) throw new AppError('SESSION_INVALID');
      if (user.mpin_hash) throw new AppError('MPIN_ALREADY_SET');
      if (isWeakMpin(mpin)) throw new AppError('MPIN_WEAK');
      await users.setMpin(userId, await hashMpin(mpin));
    },

    /** A wrong MPIN counts; at the limit every session of the user ends and only an OTP sign-in gets back in. */
    async verifyMpin(userId: number, mpin: string): Promise<void> {
      const user = await users.findById(userId);
      if (!user) throw new AppError('SESSION_INVALID');
      if (!user.mpin_hash) throw new AppError('MPIN_NOT_SET');
      const used = await users.takeMpinTry(userId, limits.mpinMaxAttempts);
      if (used !== null && (await checkMpin(mpin, user.mpin_hash))) {
        await users.clearMpinFailures(userId);
        return;
      }
      const left = used === null ? 0 : limits.mpinMaxAttempts - used;
      if (left <= 0) {
        await sessions.endAllExcept(userId, null, 'mpin_locked');
        throw new AppError('MPIN_LOCKED');
      }
      throw new AppError('MPIN_INVALID', { attempts_left: left });
    },

    async logout(userId: number, sessionId: string): Promise<void> {
      await sessions.end(sessionId, userId, 'logout');
    },

    async profile(userId: number): Promise<UserProfile> {
      const user = await users.findById(userId);
      if (!user) throw new AppError('SESSION_INVALID');
      return toProfile(user);
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
