/**
 * Firebase Cloud Messaging through its HTTP v1 API: `POST {baseUrl}/v1/projects/{projectId}/messages:send` with
 * `{ message: { token, data, notification?, android: { priority, ttl, collapse_key?, notification? } } }`, answered
 * `{ name: "projects/.../messages/..." }`. Authorised with an OAuth 2.0 access token for the service account: a JWT
 * (RS256, iss = client email, scope firebase.messaging, aud = token URI, at most an hour long) exchanged at the
 * token URI through the jwt-bearer grant, kept until shortly before it expires.
 *
 * Errors come as google.rpc.Status (`{ error: { code, status, message, details: [{ "@type": ...FcmError,
 * errorCode }] } }`). As Google recommends: 429 and 5xx are retried with exponential backoff (and Retry-After when
 * given); 400, 403 and 404 are not; a 401 gets a fresh access token once. A 400 is the token's fault only when FCM
 * says so (a google.rpc.BadRequest on `message.token`, or the FcmError's "not a valid FCM registration token"):
 * a payload FCM refuses must not cost a phone its token.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { pushMessageProblem } from './message-check.ts';
import type { PushFailureReason, PushMessage, PushProvider, PushResult } from './push.ts';

export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
export const FCM_BASE_URL = 'https://fcm.googleapis.com';
const FCM_ERROR_TYPE = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';
const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Backoff between attempts: 1 s, 2 s, 4 s, ... (each stretched by up to half again, so senders spread out), at most 60 s. */
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 60_000;
/** An access token is replaced this long before it expires, so none expires on its way to FCM. */
const TOKEN_MARGIN_SECONDS = 300;

export interface FcmOptions {
  /** The Firebase project the app's tokens belong to. */
  projectId: string;
  /** The service account's `client_email`. */
  clientEmail: string;
  /** The service account's `private_key`: PEM, PKCS#8 (as in the JSON key file Google gives). */
  privateKey: string;
  /** The key file's `private_key_id`, sent as the JWT's `kid`. */
  privateKeyId?: string;
  tokenUri?: string;
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number;
  /** Waits between attempts (tests record them instead). */
  sleep?: (ms: number) => Promise<void>;
  /** In [0, 1): the jitter of the backoff. */
  random?: () => number;
  /** HTTP attempts per message for 429, 5xx and network errors (a 401's one re-authorised retry is on top). */
  maxAttempts?: number;
  timeoutMs?: number;
  log?: (message: string, error?: unknown) => void;
}

/** The token endpoint refused or failed; `retryable` when it was the endpoint's fault (5xx, no answer). */
class TokenError extends Error {
  constructor(readonly status: number, readonly code: string | undefined, readonly retryable: boolean) {
    super(`Google token endpoint: ${status ? `answered ${status}` : 'no answer'}${code ? ` (${code})` : ''}`);
  }
}

/**
 * The part of FCM's answer we read: `code` is the FcmError's errorCode, else the canonical status; `tokenBlamed` when
 * the error names the registration token.
 */
interface Answer { status: number; code: string | undefined; tokenBlamed: boolean; retryAfterMs: number | null; name: string | null }

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After in seconds or as an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** The wait before retry number `retry` (1 for the first). Never below the doubling FCM asks for. */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const doubled = BACKOFF_BASE_MS * 2 ** Math.min(retry - 1, 16);
  return Math.min(BACKOFF_CAP_MS, Math.round(doubled * (1 + random() / 2)));
}

/** Our message in FCM's v1 shape. */
export function toFcmMessage(message: PushMessage) {
  return {
    token: message.token,
    data: message.data,
    ...(message.notification ? { notification: { title: message.notification.title, body: message.notification.body } } : {}),
    android: {
      priority: message.priority ?? 'high',
      ...(message.ttlSeconds !== undefined ? { ttl: `${message.ttlSeconds}s` } : {}),
      ...(message.collapseKey ? { collapse_key: message.collapseKey } : {}),
      // An android.notification makes the message a notification message, so a channel alone must not add one.
      ...(message.notification && message.channelId ? { notification: { channel_id: message.channelId } } : {}),
    },
  };
}

interface RpcStatus {
  error?: { status?: string; message?: string; details?: Array<{ '@type'?: string; errorCode?: string; fieldViolations?: Array<{ field?: string }> }> };
}

function readError(text: string): { code: string | undefined; tokenBlamed: boolean } {
  let body: RpcStatus;
  try {
    body = JSON.parse(text) as RpcStatus;
  } catch {
    // Google's front end answers some 502s with an HTML page.
    return { code: undefined, tokenBlamed: false };
  }
  const details = body.error?.details ?? [];
  const code = details.find((d) => d['@type'] === FCM_ERROR_TYPE)?.errorCode ?? body.error?.status;
  const fields = details.filter((d) => d['@type'] === BAD_REQUEST_TYPE).flatMap((d) => d.fieldViolations ?? []).map((v) => v.field);
  const tokenBlamed = fields.includes('message.token') || (code === 'INVALID_ARGUMENT' && fields.length === 0 && /registration token/i.test(body.error?.message ?? ''));
  return { code, tokenBlamed };
}

const failure = (reason: PushFailureReason, status: number, retryable: boolean, code?: string, retryAfterMs?: number): PushResult => ({
  ok: false, reason, status, retryable, ...(code ? { code } : {}), ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
});

export function createFcmPush(options: FcmOptions): PushProvider {
  const fetchImpl = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? wait;
  const random = options.random ?? Math.random;
  const maxAttempts = Math.max(1, options.maxAttempts ?? 5);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const log = options.log ?? (() => undefined);
  const tokenUri = options.tokenUri ?? GOOGLE_TOKEN_URI;
  const sendUrl = `${(options.baseUrl ?? FCM_BASE_URL).replace(/\/+$/, '')}/v1/projects/${encodeURIComponent(options.projectId)}/messages:send`;

  let key: KeyObject;
  try {
    key = createPrivateKey(options.privateKey);
  } catch {
    // Node's message says nothing of the key, but ours must not risk echoing it either.
    throw new Error('FCM: the private key is not a PEM private key');
  }
  if (key.asymmetricKeyType !== 'rsa') throw new Error('FCM: the private key must be an RSA key (RS256)');

  let cached: { value: string; refreshAt: number } | null = null;
  let pending: Promise<string> | null = null;

  async function fetchAccessToken(): Promise<string> {
    const iat = Math.floor(now() / 1000);
    const assertion = await new SignJWT({ scope: FCM_SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(options.privateKeyId ? { kid: options.privateKeyId } : {}) })
      .setIssuer(options.clientEmail)
      .setAudience(tokenUri)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 3600)
      .sign(key);
    let res: Response;
    try {
      res = await fetchImpl(tokenUri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: JWT_BEARER, assertion }).toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new TokenError(0, undefined, true);
    }
    const text = await res.text();
    if (!res.ok) {
      let code: string | undefined;
      try {
        code = (JSON.parse(text) as { error?: string }).error;
      } catch {
        code = undefined;
      }
      throw new TokenError(res.status, code, res.status >= 500 || res.status === 429);
    }
    const body = JSON.parse(text) as { access_token?: string; expires_in?: number };
    if (typeof body.access_token !== 'string' || !body.access_token) throw new TokenError(res.status, 'no access_token', true);
    const lifetime = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600;
    const keepFor = Math.max(lifetime - TOKEN_MARGIN_SECONDS, lifetime / 2);
    cached = { value: body.access_token, refreshAt: now() + keepFor * 1000 };
    return body.access_token;
  }

  /** The cached access token, or a new one; sends waiting at the same time share one request. */
  function accessToken(): Promise<string> {
    if (cached && now() < cached.refreshAt) return Promise.resolve(cached.value);
    pending ??= fetchAccessToken().finally(() => {
      pending = null;
    });
    return pending;
  }

  async function post(body: string, bearer: string): Promise<Answer> {
    const res = await fetchImpl(sendUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json; charset=utf-8' },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), now());
    if (res.ok) {
      let name: string | null;
      try {
        name = (JSON.parse(text) as { name?: string }).name ?? null;
      } catch {
        name = null;
      }
      return { status: res.status, code: undefined, tokenBlamed: false, retryAfterMs, name };
    }
    return { status: res.status, ...readError(text), retryAfterMs, name: null };
  }

  return {
    name: 'fcm',

    async send(message: PushMessage): Promise<PushResult> {
      const problem = pushMessageProblem(message);
      if (problem) return failure('rejected', 0, false, problem);
      const body = JSON.stringify({ message: toFcmMessage(message) });
      let reauthorised = false;
      let last: { status: number; code: string | undefined; retryAfterMs: number | null } = { status: 0, code: undefined, retryAfterMs: null };

      for (let attempt = 1; attempt <= maxAttempts; ) {
        let answer: Answer;
        let bearer: string;
        try {
          bearer = await accessToken();
          answer = await post(body, bearer);
        } catch (error) {
          if (error instanceof TokenError && !error.retryable) {
            log(`FCM: ${error.message}; check the service account`);
            return failure('auth', error.status, false, error.code);
          }
          const status = error instanceof TokenError ? error.status : 0;
          last = { status, code: error instanceof TokenError ? error.code : undefined, retryAfterMs: null };
          // Only the error's kind: a fetch error names the URL, never the message or a token, but keep logs lean.
          log(`FCM: attempt ${attempt} of ${maxAttempts} failed (${error instanceof TokenError ? error.message : error instanceof Error ? error.name : 'error'})`);
          if (attempt === maxAttempts) break;
          await sleep(backoffMs(attempt, random));
          attempt += 1;
          continue;
        }

        const { status, code } = answer;
        if (status >= 200 && status < 300) return { ok: true, id: answer.name ?? '' };
        last = { status, code, retryAfterMs: answer.retryAfterMs };

        if (status === 401 && code !== 'THIRD_PARTY_AUTH_ERROR' && !reauthorised) {
          // Revoked or expired early: drop this access token (unless another send already replaced it) and try once more.
          reauthorised = true;
          if (cached?.value === bearer) cached = null;
          log('FCM: access token refused (401); fetching a new one');
          continue;
        }
        if (status === 404 || code === 'UNREGISTERED') return failure('unregistered', status, false, code);
        if (status === 401 || status === 403) {
          log(`FCM: refused our credentials or project (${status}${code ? ` ${code}` : ''})`);
          return failure('auth', status, false, code);
        }
        const retryable = status === 408 || status === 429 || status >= 500;
        if (!retryable) {
          if (status === 400 && answer.tokenBlamed) return failure('invalid', status, false, code);
          log(`FCM: refused the message (${status}${code ? ` ${code}` : ''}); the token is kept`);
          return failure('rejected', status, false, code);
        }

        if (attempt === maxAttempts) break;
        const backoff = backoffMs(attempt, random);
        if (answer.retryAfterMs !== null && answer.retryAfterMs > BACKOFF_CAP_MS) {
          // Holding the caller for minutes helps nobody: hand the wait to its queue.
          log(`FCM: answered ${status}${code ? ` ${code}` : ''} asking for ${Math.round(answer.retryAfterMs / 1000)} s; giving the message back`);
          return failure('unavailable', status, true, code, answer.retryAfterMs);
        }
        const delay = Math.max(backoff, answer.retryAfterMs ?? 0);
        log(`FCM: answered ${status}${code ? ` ${code}` : ''}; attempt ${attempt + 1} of ${maxAttempts} in ${(delay / 1000).toFixed(1)} s`);
        await sleep(delay);
        attempt += 1;
      }
      return failure('unavailable', last.status, true, last.code, last.retryAfterMs ?? undefined);
    },
  };
}
