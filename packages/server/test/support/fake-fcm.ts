/**
 * A local Firebase Cloud Messaging for tests, following Google's documented API on one port:
 * - POST /token: the OAuth 2.0 jwt-bearer grant. The assertion must be an RS256 JWT signed with the service
 *   account's key, iss = its email, aud = this token URI, scope including firebase.messaging, and exp no more than
 *   an hour after iat and not past; answers { access_token, expires_in, token_type: "Bearer" }, else
 *   { error, error_description } as Google's endpoint does.
 * - POST /v1/projects/{projectId}/messages:send: a known, unexpired bearer token (else 401 UNAUTHENTICATED), our
 *   project (else 403 PERMISSION_DENIED) and a well-formed message (else 400 INVALID_ARGUMENT); answers { name }.
 * Errors are google.rpc.Status bodies with an FcmError detail where FCM gives one. A test can script the next
 * answers for a registration token (429 with Retry-After, 5xx, 404 UNREGISTERED, ...).
 */
import { randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';

export const FAKE_FCM_PROJECT = 'kisht-fcm-test';
export const FAKE_FCM_CLIENT_EMAIL = 'push-sender@kisht-fcm-test.iam.gserviceaccount.com';
const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const FCM_ERROR_TYPE = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';
const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';

/**
 * A scripted answer: `status` with the documented body. `errorCode` overrides the FcmError code ('' leaves the detail
 * out), `message` the error's text, `field` adds a google.rpc.BadRequest naming it; `html` sends Google's front-end
 * page instead (as its 502s do).
 */
export interface ScriptedAnswer {
  status: number;
  errorCode?: string;
  message?: string;
  field?: string;
  retryAfter?: string;
  html?: boolean;
}

/** One accepted message, as FCM received it. */
export interface AcceptedMessage {
  name: string;
  message: FcmWireMessage;
  bearer: string;
}

export interface FcmWireMessage {
  token: string;
  data?: Record<string, string>;
  notification?: { title?: string; body?: string };
  android?: { priority?: string; ttl?: string; collapse_key?: string; collapseKey?: string; notification?: { channel_id?: string; channelId?: string } };
}

/** Canonical google.rpc status and FcmError code of each HTTP status the send method answers. */
const CANONICAL: Record<number, { status: string; message: string; errorCode?: string }> = {
  400: { status: 'INVALID_ARGUMENT', message: 'The registration token is not a valid FCM registration token', errorCode: 'INVALID_ARGUMENT' },
  401: { status: 'UNAUTHENTICATED', message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.' },
  403: { status: 'PERMISSION_DENIED', message: 'SenderId mismatch', errorCode: 'SENDER_ID_MISMATCH' },
  404: { status: 'NOT_FOUND', message: 'Requested entity was not found.', errorCode: 'UNREGISTERED' },
  429: { status: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded for the message target.', errorCode: 'QUOTA_EXCEEDED' },
  500: { status: 'INTERNAL', message: 'Internal error encountered.', errorCode: 'INTERNAL' },
  503: { status: 'UNAVAILABLE', message: 'The service is currently unavailable.', errorCode: 'UNAVAILABLE' },
};

const MESSAGE_FIELDS = new Set(['token', 'topic', 'condition', 'data', 'notification', 'android', 'apns', 'webpush', 'fcm_options', 'fcmOptions', 'name']);
const ANDROID_FIELDS = new Set(['priority', 'ttl', 'collapse_key', 'collapseKey', 'notification', 'data', 'restricted_package_name', 'restrictedPackageName', 'fcm_options', 'fcmOptions', 'direct_boot_ok', 'directBootOk']);
const MAX_TTL_SECONDS = 2_419_200;

export async function startFakeFcm(options: {
  publicKey: KeyObject | CryptoKey;
  projectId?: string;
  clientEmail?: string;
  /** Milliseconds since the epoch; share it with the client under test to move time. */
  now?: () => number;
  /** The expires_in of issued access tokens (Google's: 3599). */
  tokenLifetimeSeconds?: number;
}) {
  const projectId = options.projectId ?? FAKE_FCM_PROJECT;
  const clientEmail = options.clientEmail ?? FAKE_FCM_CLIENT_EMAIL;
  const now = options.now ?? Date.now;
  const lifetime = options.tokenLifetimeSeconds ?? 3599;

  /** Issued access tokens and when each stops being accepted. */
  const accessTokens = new Map<string, number>();
  const scripts = new Map<string, ScriptedAnswer[]>();
  const tokenScript: ScriptedAnswer[] = [];
  const accepted: AcceptedMessage[] = [];
  /** Every send request, accepted or not, in order, with its answer's status. */
  const sendLog: Array<{ token: string | null; status: number }> = [];
  /** Every token request with its answer's status and OAuth error. */
  const tokenLog: Array<{ status: number; error?: string }> = [];
  let baseUrl = '';

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers }).end(JSON.stringify(body));
  };

  /** A google.rpc.Status body, as the v1 API sends it; `errorCode: ''` leaves out the FcmError detail (errors FCM reports without one). */
  function rpcError(res: ServerResponse, code: number, answer: { message?: string; errorCode?: string; field?: string; retryAfter?: string } = {}) {
    const canonical = CANONICAL[code] ?? { status: 'UNKNOWN', message: 'Unknown error.' };
    const message = answer.message ?? canonical.message;
    const details: unknown[] = [];
    const errorCode = answer.errorCode ?? canonical.errorCode;
    if (errorCode) details.push({ '@type': FCM_ERROR_TYPE, errorCode });
    if (answer.field) details.push({ '@type': BAD_REQUEST_TYPE, fieldViolations: [{ field: answer.field, description: message }] });
    json(res, code, { error: { code, message, status: canonical.status, ...(details.length ? { details } : {}) } }, answer.retryAfter ? { 'retry-after': answer.retryAfter } : {});
  }

  function scripted(res: ServerResponse, answer: ScriptedAnswer) {
    if (answer.html) {
      res.writeHead(answer.status, { 'content-type': 'text/html; charset=UTF-8', ...(answer.retryAfter ? { 'retry-after': answer.retryAfter } : {}) });
      res.end(`<!DOCTYPE html><html lang=en><title>Error ${answer.status} (Server Error)!!1</title><p><b>${answer.status}.</b> That’s an error.</html>`);
      return;
    }
    const { status: code, html: _html, ...rest } = answer;
    rpcError(res, code, rest);
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  async function token(req: IncomingMessage, res: ServerResponse) {
    const refuse = (status: number, error: string, description: string) => {
      tokenLog.push({ status, error });
      json(res, status, { error, error_description: description });
    };
    const next = tokenScript.shift();
    if (next) {
      tokenLog.push({ status: next.status, error: 'scripted' });
      return json(res, next.status, { error: next.status >= 500 ? 'internal_failure' : 'invalid_grant', error_description: 'scripted' }, next.retryAfter ? { 'retry-after': next.retryAfter } : {});
    }
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) return refuse(400, 'invalid_request', 'Bad Request');
    const form = new URLSearchParams(await readBody(req));
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return refuse(400, 'unsupported_grant_type', 'Invalid grant_type: ' + (form.get('grant_type') ?? ''));
    const assertion = form.get('assertion');
    if (!assertion) return refuse(400, 'invalid_request', 'Missing required parameter: assertion');
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(assertion, options.publicKey, {
        algorithms: ['RS256'], issuer: clientEmail, audience: `${baseUrl}/token`, currentDate: new Date(now()), requiredClaims: ['iat', 'exp'],
      }));
    } catch (error) {
      const signature = error instanceof Error && /signature/i.test(error.message);
      return refuse(400, 'invalid_grant', signature ? 'Invalid JWT Signature.' : `Invalid JWT: ${error instanceof Error ? error.message : 'unreadable'}`);
    }
    const iat = payload.iat as number;
    const exp = payload.exp as number;
    const nowSeconds = Math.floor(now() / 1000);
    if (exp - iat > 3600 || iat > nowSeconds + 60) {
      return refuse(400, 'invalid_grant', 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.');
    }
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
    if (!scopes.includes(SCOPE)) return refuse(400, 'invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
    const value = `ya29.fake-${randomBytes(24).toString('base64url')}`;
    accessTokens.set(value, now() + lifetime * 1000);
    tokenLog.push({ status: 200 });
    json(res, 200, { access_token: value, expires_in: lifetime, token_type: 'Bearer' });
  }

  /** The first problem FCM would report with this message: the field and the text. */
  function messageProblem(message: unknown): { field: string; text: string; fcm: boolean } | null {
    if (!message || typeof message !== 'object' || Array.isArray(message)) return { field: 'message', text: 'Recipient of the message is not set.', fcm: true };
    const m = message as Record<string, unknown>;
    for (const key of Object.keys(m)) if (!MESSAGE_FIELDS.has(key)) return { field: 'message', text: `Invalid JSON payload received. Unknown name "${key}" at 'message': Cannot find field.`, fcm: false };
    if (typeof m.token !== 'string' || !m.token) return { field: 'message', text: 'Recipient of the message is not set.', fcm: true };
    if (m.data !== undefined) {
      if (!m.data || typeof m.data !== 'object' || Array.isArray(m.data)) return { field: 'message.data', text: "Invalid value at 'message.data'", fcm: false };
      let i = 0;
      for (const [key, value] of Object.entries(m.data)) {
        if (typeof value !== 'string') return { field: `message.data[${i}].value`, text: `Invalid value at 'message.data[${i}].value' (TYPE_STRING), ${JSON.stringify(value)}`, fcm: false };
        if (key === 'from' || key === 'gcm' || key.startsWith('google')) return { field: `message.data[${i}].key`, text: `Invalid data key: ${key}`, fcm: true };
        i += 1;
      }
    }
    if (m.notification !== undefined) {
      const n = m.notification as Record<string, unknown>;
      if (!n || typeof n !== 'object' || (n.title !== undefined && typeof n.title !== 'string') || (n.body !== undefined && typeof n.body !== 'string')) {
        return { field: 'message.notification', text: "Invalid value at 'message.notification'", fcm: false };
      }
    }
    if (m.android !== undefined) {
      const a = m.android as Record<string, unknown>;
      if (!a || typeof a !== 'object' || Array.isArray(a)) return { field: 'message.android', text: "Invalid value at 'message.android'", fcm: false };
      for (const key of Object.keys(a)) if (!ANDROID_FIELDS.has(key)) return { field: 'message.android', text: `Invalid JSON payload received. Unknown name "${key}" at 'message.android': Cannot find field.`, fcm: false };
      if (a.priority !== undefined && !['high', 'normal', 'HIGH', 'NORMAL'].includes(a.priority as string)) {
        return { field: 'message.android.priority', text: `Invalid value at 'message.android.priority' (type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority), "${String(a.priority)}"`, fcm: false };
      }
      if (a.ttl !== undefined) {
        const ttl = typeof a.ttl === 'string' ? /^(\d+)(\.\d{1,9})?s$/.exec(a.ttl) : null;
        if (!ttl || Number(ttl[1]) > MAX_TTL_SECONDS) return { field: 'message.android.ttl', text: "Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration)", fcm: true };
      }
      const collapse = a.collapse_key ?? a.collapseKey;
      if (collapse !== undefined && typeof collapse !== 'string') return { field: 'message.android.collapse_key', text: "Invalid value at 'message.android.collapse_key' (TYPE_STRING)", fcm: false };
      if (a.notification !== undefined) {
        const n = a.notification as Record<string, unknown>;
        const channel = n?.channel_id ?? n?.channelId;
        if (!n || typeof n !== 'object' || (channel !== undefined && (typeof channel !== 'string' || !channel))) {
          return { field: 'message.android.notification.channel_id', text: "Invalid value at 'message.android.notification.channel_id' (TYPE_STRING)", fcm: false };
        }
      }
    }
    // FCM's limit for messages to a token, keys and values together.
    if (Buffer.byteLength(JSON.stringify(m.data ?? {})) > 4096) return { field: 'message', text: 'Message is too big', fcm: true };
    return null;
  }

  async function send(req: IncomingMessage, res: ServerResponse, pathProject: string) {
    const log = (token: string | null, status: number) => sendLog.push({ token, status });
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const until = bearer ? accessTokens.get(bearer) : undefined;
    if (!bearer || until === undefined || now() >= until) {
      log(null, 401);
      return rpcError(res, 401);
    }
    if (pathProject !== projectId) {
      log(null, 403);
      return rpcError(res, 403, { message: `Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager.googleapis.com/projects/${pathProject}' (or it may not exist).`, errorCode: '' });
    }
    if (!String(req.headers['content-type']).startsWith('application/json')) {
      log(null, 400);
      return rpcError(res, 400, { message: 'Invalid JSON payload received.', errorCode: '' });
    }
    let body: { message?: unknown };
    try {
      body = JSON.parse(await readBody(req)) as { message?: unknown };
    } catch {
      log(null, 400);
      return rpcError(res, 400, { message: 'Invalid JSON payload received.', errorCode: '' });
    }
    const message = body.message as FcmWireMessage | undefined;
    const problem = messageProblem(message);
    const deviceToken = typeof message?.token === 'string' ? message.token : null;
    if (problem) {
      log(deviceToken, 400);
      return rpcError(res, 400, { message: problem.text, field: problem.field, errorCode: problem.fcm ? 'INVALID_ARGUMENT' : '' });
    }
    const next = scripts.get(deviceToken!)?.shift();
    if (next) {
      log(deviceToken, next.status);
      return scripted(res, next);
    }
    const name = `projects/${projectId}/messages/0:${now()}%${randomBytes(8).toString('hex')}`;
    accepted.push({ name, message: message!, bearer: bearer });
    log(deviceToken, 200);
    json(res, 200, { name });
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method === 'POST' && url.pathname === '/token') return token(req, res);
      const match = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(url.pathname);
      if (req.method === 'POST' && match) return send(req, res, decodeURIComponent(match[1]!));
      json(res, 404, { error: { code: 404, message: 'The requested URL was not found on this server.', status: 'NOT_FOUND' } });
    })().catch((e: unknown) => json(res, 500, { error: { code: 500, message: String(e), status: 'INTERNAL' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    tokenUri: `${baseUrl}/token`,
    projectId,
    clientEmail,
    accepted,
    sendLog,
    tokenLog,
    /** The next answers to messages for `deviceToken`, in order, before it is accepted again. */
    script(deviceToken: string, ...answers: ScriptedAnswer[]) {
      scripts.set(deviceToken, [...(scripts.get(deviceToken) ?? []), ...answers]);
    },
    /** The next answers of the token endpoint. */
    scriptToken(...answers: ScriptedAnswer[]) {
      tokenScript.push(...answers);
    },
    /** Forget every issued access token, as a revocation would: the next send with one answers 401. */
    revokeAccessTokens() {
      accessTokens.clear();
    },
    /** Access tokens issued so far. */
    get tokensIssued() {
      return tokenLog.filter((t) => t.status === 200).length;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type FakeFcm = Awaited<ReturnType<typeof startFakeFcm>>;
