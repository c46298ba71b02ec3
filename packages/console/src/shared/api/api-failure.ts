/** Turns any failed request into one shape with a stable code and a message in the user's language. */
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { ErrorCode, ErrorReply } from '@kisht/contract/envelope';

export type TransportCode = 'FETCH_ERROR' | 'TIMEOUT_ERROR' | 'PARSING_ERROR' | 'UNKNOWN';
/** Server codes may grow before the console learns them; those still flow through as strings. */
export type FailureCode = ErrorCode | TransportCode | (string & {});

export interface ApiFailure {
  /** HTTP status, or the transport failure kind. */
  status: number | 'FETCH_ERROR' | 'TIMEOUT_ERROR' | 'PARSING_ERROR' | 'CUSTOM_ERROR';
  code: FailureCode;
  /** Ready to show: translated when the code is known, else the server's text, else the generic message. */
  message: string;
  attemptsLeft?: number;
  retryAfterSeconds?: number;
  details?: ErrorReply['details'];
}

/** The two i18next functions the mapping needs (kept small so it is testable without i18next). */
export interface Translator {
  exists(key: string): boolean;
  t(key: string): string;
}

export const GENERIC_ERROR_KEY = 'errors.generic';

function translated(tr: Translator, code: string): string | null {
  const key = `errors.${code}`;
  return tr.exists(key) ? tr.t(key) : null;
}

function asReply(data: unknown): Partial<ErrorReply> | null {
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as Partial<ErrorReply>) : null;
}

/** Status codes that have a meaning even when the body says nothing. */
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  403: 'ACCESS_DENIED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  511: 'SESSION_INVALID',
};

export function describeFailure(error: FetchBaseQueryError, tr: Translator): ApiFailure {
  const generic = () => tr.t(GENERIC_ERROR_KEY);
  if (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR' || error.status === 'PARSING_ERROR') {
    return { status: error.status, code: error.status, message: translated(tr, error.status) ?? generic() };
  }
  if (error.status === 'CUSTOM_ERROR') {
    return { status: error.status, code: 'UNKNOWN', message: error.error || generic() };
  }
  const reply = asReply(error.data);
  const code = typeof reply?.code === 'string' && reply.code ? reply.code : (CODE_BY_STATUS[error.status] ?? 'UNKNOWN');
  const serverMessage = typeof reply?.message === 'string' && reply.message.trim() ? reply.message : null;
  const failure: ApiFailure = {
    status: error.status,
    code,
    message: (code !== 'UNKNOWN' ? translated(tr, code) : null) ?? serverMessage ?? generic(),
  };
  if (typeof reply?.attempts_left === 'number') failure.attemptsLeft = reply.attempts_left;
  if (typeof reply?.retry_after_seconds === 'number') failure.retryAfterSeconds = reply.retry_after_seconds;
  if (Array.isArray(reply?.details)) failure.details = reply.details;
  return failure;
}

/**
 * The success toast's text: the server's message (spec section 8; the server words it in the user's language,
 * see docs/decisions/004), else the endpoint's own translated words when the server sent none.
 */
export function successMessage(serverMessage: unknown, successKey: string | undefined, tr: Translator): string | null {
  if (typeof serverMessage === 'string' && serverMessage.trim()) return serverMessage;
  return successKey && tr.exists(successKey) ? tr.t(successKey) : null;
}

export function isApiFailure(value: unknown): value is ApiFailure {
  return (
    !!value &&
    typeof value === 'object' &&
    'code' in value &&
    'message' in value &&
    'status' in value &&
    typeof (value as ApiFailure).message === 'string'
  );
}

/** Whether a failed request is the network's doing (the phone is offline or the request timed out), not the server's. */
export function isOffline(error: unknown): boolean {
  if (typeof navigator !== 'undefined' && !navigator.onLine) return true;
  return isApiFailure(error) && (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR');
}
