/**
 * Push notifications to phones go out through a PushProvider, chosen by PUSH_PROVIDER: Firebase Cloud Messaging
 * (fcm.ts) in production, an in-memory outbox (dev-outbox.ts) in development. A send never throws: the result says
 * whether the message was accepted and, when not, what to do with the token.
 *
 * Configuration: PUSH_PROVIDER unset or `dev-outbox`: the outbox. `fcm`: a service account, given as the JSON key
 * file Google gives (FCM_SERVICE_ACCOUNT_FILE) or as its three values (FCM_PROJECT_ID, FCM_CLIENT_EMAIL,
 * FCM_PRIVATE_KEY); a variable set beside the file wins. FCM_URL and FCM_TOKEN_URI point at a local fake in tests.
 */
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DevOutboxPushProvider } from './dev-outbox.ts';
import { createFcmPush, FCM_BASE_URL, GOOGLE_TOKEN_URI, type FcmOptions } from './fcm.ts';

export interface PushMessage {
  /** The FCM registration token of the app instance. */
  token: string;
  /** Key/value payload the app reads; FCM takes string values only. */
  data: Record<string, string>;
  /** Shown by the system when present; without it the message is data-only and the app decides what to show. */
  notification?: { title: string; body: string };
  /** The Android notification channel; applies to messages with a `notification` only. */
  channelId?: string;
  /** 'high' (the default) wakes a dozing phone; a lock or unlock command cannot wait for the next maintenance window. */
  priority?: 'high' | 'normal';
  /** How long FCM keeps the message for a phone that is offline, 0 to 2,419,200 (4 weeks, FCM's default). */
  ttlSeconds?: number;
  /** Messages with the same key replace each other while the phone is offline: only the last is delivered. */
  collapseKey?: string;
}

/**
 * - unregistered: the token is no longer valid (the app was uninstalled or its token rotated); drop it.
 * - invalid: FCM says the token itself is malformed; drop it.
 * - rejected: the message was refused, not the token (a payload FCM does not accept, or one refused before
 *   sending, status 0): a bug on our side; keep the token, sending the same message again does not help.
 * - auth: our credentials or project were refused (an operator problem, not the phone's); keep the token.
 * - unavailable: FCM could not take it now, even after retrying; try again later (`retryAfterMs` when FCM said).
 */
export type PushFailureReason = 'unregistered' | 'invalid' | 'rejected' | 'auth' | 'unavailable';

export type PushResult =
  | { ok: true; id: string }
  | {
      ok: false;
      reason: PushFailureReason;
      /** The last HTTP status received; 0 when nothing was sent or no answer came (a network error). */
      status: number;
      retryable: boolean;
      /** FCM's error code (e.g. UNREGISTERED, QUOTA_EXCEEDED), the OAuth error, or what was wrong before sending; never a token. */
      code?: string;
      /** When FCM asked for a wait longer than we hold a caller. */
      retryAfterMs?: number;
    };

export interface PushProvider {
  readonly name: string;
  /** True when sending only records the message in this process (the development outbox). */
  readonly local?: boolean;
  send(message: PushMessage): Promise<PushResult>;
}

export type PushEnv = Record<string, string | undefined>;

export const PUSH_PROVIDERS = ['dev-outbox', 'fcm'] as const;

/** The FCM settings read from the environment: everything createFcmPush needs but the runtime hooks. */
export type FcmSettings = Pick<FcmOptions, 'projectId' | 'clientEmail' | 'privateKey' | 'privateKeyId'> & { baseUrl: string; tokenUri: string };

export type PushSettings = { provider: 'dev-outbox' } | { provider: 'fcm'; fcm: FcmSettings };

const PROJECT_ID = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
const FCM_VARIABLES = ['FCM_PROJECT_ID', 'FCM_CLIENT_EMAIL', 'FCM_PRIVATE_KEY', 'FCM_SERVICE_ACCOUNT_FILE'];

interface ServiceAccountFile { type?: string; project_id?: string; client_email?: string; private_key?: string; private_key_id?: string; token_uri?: string }

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

const isRsaKey = (pem: string) => {
  try {
    return createPrivateKey(pem).asymmetricKeyType === 'rsa';
  } catch {
    return false;
  }
};

/**
 * The settings, or every problem with them in config.ts's form ("VARIABLE: what is wrong"), so the boot check
 * can list them with the rest. Reads FCM_SERVICE_ACCOUNT_FILE when it is set.
 */
export function readPushSettings(env: PushEnv): { settings: PushSettings; problems: [] } | { settings: null; problems: string[] } {
  const provider = env.PUSH_PROVIDER?.trim() || undefined;
  if (provider === undefined || provider === 'dev-outbox') {
    const stray = FCM_VARIABLES.filter((k) => env[k]);
    // Credentials that would be silently ignored are a mistake waiting to be found in production.
    if (stray.length) return { settings: null, problems: [`PUSH_PROVIDER: set it to fcm to use ${stray.join(', ')} (or remove them)`] };
    return { settings: { provider: 'dev-outbox' }, problems: [] };
  }
  if (provider !== 'fcm') return { settings: null, problems: [`PUSH_PROVIDER: must be one of ${PUSH_PROVIDERS.join(', ')} (got "${provider}")`] };

  const problems: string[] = [];
  let file: ServiceAccountFile = {};
  if (env.FCM_SERVICE_ACCOUNT_FILE) {
    try {
      file = JSON.parse(readFileSync(env.FCM_SERVICE_ACCOUNT_FILE, 'utf8')) as ServiceAccountFile;
      if (file.type !== undefined && file.type !== 'service_account') problems.push(`FCM_SERVICE_ACCOUNT_FILE: is a "${file.type}" key, not a service account key`);
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : error instanceof SyntaxError ? 'not JSON' : 'cannot be read';
      problems.push(`FCM_SERVICE_ACCOUNT_FILE: ${why} (${env.FCM_SERVICE_ACCOUNT_FILE})`);
    }
  }
  const orFile = (field: string) => (env.FCM_SERVICE_ACCOUNT_FILE ? ` (or ${field} in FCM_SERVICE_ACCOUNT_FILE)` : ' (or FCM_SERVICE_ACCOUNT_FILE)');

  const projectId = env.FCM_PROJECT_ID || file.project_id;
  const clientEmail = env.FCM_CLIENT_EMAIL || file.client_email;
  // Environment variables often carry the PEM's line breaks as the two characters \n.
  const privateKey = (env.FCM_PRIVATE_KEY || file.private_key)?.replace(/\\n/g, '\n');
  const tokenUri = env.FCM_TOKEN_URI || file.token_uri || GOOGLE_TOKEN_URI;
  const baseUrl = env.FCM_URL || FCM_BASE_URL;

  if (!projectId) problems.push(`FCM_PROJECT_ID: is required when PUSH_PROVIDER=fcm${orFile('project_id')}`);
  else if (!PROJECT_ID.test(projectId)) problems.push('FCM_PROJECT_ID: must be a Firebase project id (6 to 30 lowercase letters, digits and hyphens)');
  if (!clientEmail) problems.push(`FCM_CLIENT_EMAIL: is required when PUSH_PROVIDER=fcm${orFile('client_email')}`);
  else if (!/^[^@\s]+@[^@\s]+$/.test(clientEmail)) problems.push("FCM_CLIENT_EMAIL: must be the service account's email");
  if (!privateKey) problems.push(`FCM_PRIVATE_KEY: is required when PUSH_PROVIDER=fcm${orFile('private_key')}`);
  // Never the key itself in the message.
  else if (!isRsaKey(privateKey)) problems.push("FCM_PRIVATE_KEY: is not a PEM RSA private key (the service account's private_key)");
  if (!isHttpUrl(tokenUri)) problems.push('FCM_TOKEN_URI: must be an http(s) URL');
  if (!isHttpUrl(baseUrl)) problems.push('FCM_URL: must be an http(s) URL');

  if (problems.length || !projectId || !clientEmail || !privateKey) return { settings: null, problems };
  return {
    settings: {
      provider: 'fcm',
      fcm: { projectId, clientEmail, privateKey, ...(file.private_key_id ? { privateKeyId: file.private_key_id } : {}), tokenUri, baseUrl },
    },
    problems: [],
  };
}

/** What is wrong with the push variables, in config.ts's "VARIABLE: problem" form; empty when they are usable. */
export function pushConfigProblems(env: PushEnv): string[] {
  return readPushSettings(env).problems;
}

/** The provider the environment names; throws one error listing every problem. */
export function pushProviderFromEnv(env: PushEnv, deps: Pick<FcmOptions, 'fetch' | 'log'> = {}): PushProvider {
  const { settings, problems } = readPushSettings(env);
  if (!settings) throw new Error(`Push configuration:\n  ${problems.join('\n  ')}`);
  if (settings.provider === 'dev-outbox') return new DevOutboxPushProvider();
  return createFcmPush({ ...settings.fcm, ...deps });
}
