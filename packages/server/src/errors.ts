/** Every error the API answers with: a stable code (also the console's translation key), an HTTP status and an English message. */
import type { ErrorCode } from './contract/envelope.ts';
import { HTTP_SESSION_INVALID } from '@kisht/domain/constants';

interface ErrorSpec {
  status: number;
  message: string;
}

const CATALOGUE: Record<ErrorCode, ErrorSpec> = {
  VALIDATION_FAILED: { status: 400, message: 'Please check what you entered.' },
  INVALID_MOBILE: { status: 400, message: 'Enter a valid 10-digit mobile number.' },
  OTP_INVALID: { status: 400, message: 'The OTP is not correct.' },
  OTP_EXPIRED: { status: 400, message: 'This OTP has expired or was already used. Request a new one.' },
  OTP_ATTEMPTS_EXCEEDED: { status: 429, message: 'Too many wrong tries. Request a new OTP.' },
  OTP_RESEND_TOO_SOON: { status: 429, message: 'Please wait before asking for another OTP.' },
  OTP_RESEND_LIMIT: { status: 429, message: 'You cannot resend this OTP again. Start over.' },
  RATE_LIMITED: { status: 429, message: 'Too many requests. Please try again later.' },
  SESSION_INVALID: { status: HTTP_SESSION_INVALID, message: 'Your session has ended. Please sign in again.' },
  MPIN_NOT_SET: { status: 400, message: 'Set your MPIN first.' },
  MPIN_ALREADY_SET: { status: 400, message: 'Your MPIN is already set.' },
  MPIN_INVALID: { status: 400, message: 'The MPIN is not correct.' },
  MPIN_LOCKED: { status: HTTP_SESSION_INVALID, message: 'Too many wrong MPIN tries. Sign in with OTP.' },
  MPIN_WEAK: { status: 400, message: 'Choose an MPIN that is harder to guess.' },
  EMM_AUTH_MISSING: { status: 401, message: 'The request could not be verified. Please reload the app.' },
  EMM_AUTH_INVALID: { status: 401, message: "The request could not be verified. Check your phone's date and time." },
  EMM_AUTH_REPLAYED: { status: 401, message: 'This request was already sent.' },
  ACCESS_DENIED: { status: 403, message: 'You do not have access to this.' },
  NOT_FOUND: { status: 404, message: 'Not found.' },
  ROUTE_NOT_FOUND: { status: 404, message: 'No route matches URL' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'This action is not allowed.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The file is too large.' },
  SIGNUP_ALREADY_REQUESTED: { status: 409, message: 'A request for this number is already waiting for approval.' },
  INTERNAL: { status: 500, message: 'Something went wrong.' },
};

export interface AppErrorExtras {
  details?: { field: string; message: string }[];
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
    const spec = CATALOGUE[code];
    super(message ?? spec.message);
    this.status = spec.status;
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

export const errorStatus = (code: ErrorCode) => CATALOGUE[code].status;
export const errorMessage = (code: ErrorCode) => CATALOGUE[code].message;
