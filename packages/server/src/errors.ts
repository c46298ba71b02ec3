/** Every error the API answers with: a stable code (also the console's translation key) and an HTTP status. */
import type { ErrorCode } from '@kisht/contract/envelope';
import { HTTP_SESSION_INVALID } from '@kisht/domain/constants';
import { translate, type ValidationRule } from './shared/messages.ts';

/** HTTP status of each code. The words are in packages/locales (errors.<CODE>), English as the fallback. */
const STATUS: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  INVALID_MOBILE: 400,
  OTP_INVALID: 400,
  OTP_EXPIRED: 400,
  OTP_ATTEMPTS_EXCEEDED: 429,
  OTP_RESEND_TOO_SOON: 429,
  OTP_RESEND_LIMIT: 429,
  RATE_LIMITED: 429,
  SESSION_INVALID: HTTP_SESSION_INVALID,
  MPIN_NOT_SET: 400,
  MPIN_ALREADY_SET: 400,
  MPIN_INVALID: 400,
  MPIN_LOCKED: HTTP_SESSION_INVALID,
  MPIN_WEAK: 400,
  EMM_AUTH_MISSING: 401,
  EMM_AUTH_INVALID: 401,
  EMM_AUTH_REPLAYED: 401,
  ACCESS_DENIED: 403,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  NO_LICENSE_KEY: 409,
  IMEI_IN_USE: 409,
  NOTHING_DUE: 409,
  PAYMENT_TOO_LARGE: 400,
  ALREADY_REVERSED: 409,
  QUOTE_CHANGED: 409,
  FORECLOSURE_FINAL: 409,
  CAMPAIGN_FINISHED: 409,
  FEATURE_OFF: 403,
  UNSUPPORTED_FILE: 415,
  /** Starts like a JPEG or PNG but does not decode as one (a disguised or broken file). */
  IMAGE_INVALID: 400,
  /** Declares more pixels than an upload may have (a decompression bomb, or a huge scan). */
  IMAGE_TOO_LARGE: 400,
  ENROLMENT_INVALID: 400,
  ACTION_NOT_ALLOWED: 409,
  DEVICE_NOT_ENROLLED: 409,
  DEVICE_CREDENTIALS_INVALID: 401,
  LOAN_OPEN: 409,
  WRONG_ENROLMENT_CHANNEL: 409,
  ENROLMENT_CLOSED: 409,
  VENDOR_FAILED: 502,
  ACTIVATION_LOCK_NO_CODE: 409,
  AMAPI_NOT_LINKED: 409,
  MOBILE_TAKEN: 409,
  NOT_ENOUGH_KEYS: 409,
  ACCESS_NOT_HELD: 403,
  TRANSFER_ID_REUSED: 409,
  /** An enrolment whose phone enrolled, or on which something was paid or charged, cannot be cancelled. */
  ENROLMENT_STARTED: 409,
  /** A payment QR image with no readable QR code, or one that is not a UPI payment link. */
  QR_NOT_UPI: 400,
  PRICE_UNAVAILABLE: 409,
  GATEWAY_NOT_CONFIGURED: 409,
  SIGNATURE_INVALID: 401,
  CLAIM_DECIDED: 409,
  ORDER_KEY_REUSED: 409,
  /** A held gateway order already resolved (recorded or refunded), or one that was never held. */
  ORDER_NOT_HELD: 409,
  /** A plan that is not of this kind, not of the organisation, switched off, or sent with another app type. */
  PLAN_NOT_AVAILABLE: 400,
  /** Not 16 digits passing the check digit: a typo, refused before any lookup. */
  ACTIVATION_CODE_INVALID: 400,
  /** No such code sold to this mobile (the same answer for both, so a code's mobile cannot be probed). */
  ACTIVATION_CODE_UNKNOWN: 404,
  /** Activated on another phone. */
  ACTIVATION_CODE_USED: 409,
  ACTIVATION_CODE_EXPIRED: 410,
  ACTIVATION_CODE_REVOKED: 410,
  /** The phone's invoice date is further back than the plan's purchase window. */
  WARRANTY_PURCHASE_WINDOW_CLOSED: 409,
  /** The plan's cover has not started (waiting period), has ended, or the plan was revoked. */
  WARRANTY_NOT_IN_COVER: 409,
  /** The phone brought in is not the one the plan was sold for. */
  WARRANTY_IMEI_MISMATCH: 400,
  /** The plan does not cover this cause, or a defect still under the brand's own warranty. */
  WARRANTY_NOT_COVERED: 409,
  WARRANTY_CLAIM_LIMIT: 409,
  /** A claim cannot move from its state to the one asked for. */
  WARRANTY_CLAIM_STATE: 409,
  /** Too many photos wait for a claim on this plan. */
  WARRANTY_PHOTO_LIMIT: 409,
  /** The customer's product has no anti-theft (anti-theft settings are for ANTI_THEFT and DPC_ANTITHEFT phones). */
  NOT_ANTITHEFT: 409,
  /** The customer's phone is on a plan alone (anti-theft or family care): it has no loan, no EMIs (decision 023). */
  NO_LOAN: 409,
  /** The customer's product is not family care (family-care rules are for FAMILYCARE phones). */
  NOT_FAMILYCARE: 409,
  /** The database (or another service the request needs) is unreachable for now; Retry-After says when to try again. */
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
};

export interface AppErrorExtras {
  /** Field problems; `rule` names the translation (validation.<rule>) of the message. */
  details?: { field: string; message: string; rule?: ValidationRule }[];
  retry_after_seconds?: number;
  attempts_left?: number;
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly extras: AppErrorExtras = {},
    message?: string,
  ) {
    super(message ?? errorMessage(code));
    this.status = STATUS[code];
    this.name = 'AppError';
  }
  /** 5xx errors are ours and get logged with their stack; the rest are the caller's. */
  get reportable(): boolean {
    return this.status >= 500 && this.status !== HTTP_SESSION_INVALID;
  }
  toReply() {
    return { success: false as const, code: this.code, message: this.message, ...this.extras };
  }
}

/** The English message; the error handler swaps in the caller's language. */
export const errorMessage = (code: ErrorCode) => translate('en', `errors.${code}`, code);
