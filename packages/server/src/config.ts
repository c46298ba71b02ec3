/** Configuration, parsed once at boot from the environment. A bad variable stops the process with the full list. */
import { pushConfigProblems, type PushEnv } from './providers/push/push.ts';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { z } from 'zod';

// This file's folder is packages/server/src, or packages/server/dist once bundled for `npm start`: the same
// depth either way, so the repository is three levels up from both.
export const REPO_ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
/** The server package's folder, whether running from its sources or from the bundle. */
export const SERVER_ROOT = path.join(REPO_ROOT, 'packages', 'server');

/** SHA-256 of nothing in base64url: the development placeholder for the agent APK's checksum. */
export const EMPTY_FILE_CHECKSUM = '47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU';

/** Where the server keeps its files. Without DATABASE_URL the database lives here too. */
export interface DataPaths {
  /** The data folder, absolute (a relative DATA_DIR is taken from the repository root), or `memory://`. */
  root: string;
  /** PGlite's folder, or `memory://`. */
  pglite: string;
  /** The app secret generated when APP_SECRET is unset; null for a throwaway database (a fresh secret each start). */
  secretFile: string | null;
  /** Customer photos, signatures and invoices, unless UPLOAD_DIR says otherwise. */
  uploads: string;
  /** The demo phones' saved state; null: kept in memory. */
  demoPhones: string | null;
  /** DATA_DIR names a PGlite folder itself (the layout before DATA_DIR held everything): it keeps working as it did. */
  legacy: boolean;
}

/**
 * The layout under DATA_DIR: `pglite/`, `secret`, `uploads/`, `demo-phones/` (and `pglite.server.json` while a
 * server runs). A DATA_DIR that is itself a PGlite folder (it holds PG_VERSION) is an install from before: its
 * database stays where it is and the secret and uploads stay in the repository's `.data`, as they were.
 */
export function dataPaths(dataDir: string): DataPaths {
  const repoData = path.join(REPO_ROOT, '.data');
  if (dataDir === 'memory://') return { root: dataDir, pglite: dataDir, secretFile: null, uploads: path.join(repoData, 'uploads'), demoPhones: null, legacy: false };
  const root = path.resolve(REPO_ROOT, dataDir);
  if (existsSync(path.join(root, 'PG_VERSION'))) {
    return { root, pglite: root, secretFile: path.join(repoData, 'secret'), uploads: path.join(repoData, 'uploads'), demoPhones: path.join(path.dirname(root), 'demo-phones'), legacy: true };
  }
  return { root, pglite: path.join(root, 'pglite'), secretFile: path.join(root, 'secret'), uploads: path.join(root, 'uploads'), demoPhones: path.join(root, 'demo-phones'), legacy: false };
}

const flag = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

const schema = z
  .object({
    APP_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z.string().min(1).default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    PUBLIC_URL: z.url().optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: flag.default(false),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    /**
     * Redis (redis:// or rediss://) for the anti-replay check of X-EMM-Auth-Session, shared by every API node on it;
     * without it the values go in the database (emm_auth_seen).
     */
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
    /** The data folder (see dataPaths); `memory://` for a throwaway database. */
    DATA_DIR: z.string().min(1).default(path.join(REPO_ROOT, '.data')),
    /** Overrides the data folder's `uploads/`. */
    UPLOAD_DIR: z.string().min(1).optional(),
    /** Where new PGlite data folders are copied from (a prepared, migrated one, made once per migration set); `off`: initdb each time. */
    PGLITE_TEMPLATE_DIR: z
      .string()
      .min(1)
      .default(path.join(REPO_ROOT, 'node_modules', '.cache', 'kisht'))
      .transform((dir) => (dir === 'off' ? dir : path.resolve(REPO_ROOT, dir))),
    MQTT_URL: z
      .string()
      .regex(/^(mqtts?|wss?):\/\//, 'must be an mqtt://, mqtts://, ws:// or wss:// URL')
      .optional(),
    MQTT_USERNAME: z.string().optional(),
    MQTT_PASSWORD: z.string().optional(),
    /** With MQTT_URL: 'dynsec' makes the server create each phone's account and ACL through Mosquitto's dynamic-security plugin. */
    MQTT_DEVICE_AUTH: z.enum(['none', 'dynsec']).default('none'),
    /** The server's MQTT client id; set one per node with an external broker so its session survives restarts. */
    MQTT_CLIENT_ID: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/).optional(),
    /** With MQTT_URL and several API nodes: one shared-subscription group name, so each phone report is handled by one node. */
    MQTT_SHARED_GROUP: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/).optional(),
    /** With MQTT_URL: connections this node takes phone reports over, that many at once (64). Keep it fixed per node. */
    MQTT_REPORT_CONNECTIONS: z.coerce.number().int().min(1).max(64).optional(),
    MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1884),
    /** OTP messages sent per mobile number, and per client address, in an hour (shops behind one carrier NAT share an address). */
    OTP_SENDS_PER_MOBILE_PER_HOUR: z.coerce.number().int().min(1).max(1000).optional(),
    OTP_SENDS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(100_000).optional(),
    /** The broker URL given to phones at enrolment (default: the embedded broker on this host, or MQTT_URL). */
    MQTT_PUBLIC_URL: z.string().regex(/^(mqtts?|wss?):\/\/.+/, 'must be an mqtt://, mqtts://, ws:// or wss:// URL').optional(),
    /** How often the device sweeper republishes unpublished commands, expires old ones and runs due schedules (0: off). */
    DEVICE_SWEEP_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
    /**
     * Phones' check-ins handled at once on this node (0: no limit). Beyond it a phone is answered 503 at once with a
     * Retry-After spread over the next half minute, instead of waiting in a queue until its request times out.
     */
    DEVICE_CHECK_INS_AT_ONCE: z.coerce.number().int().min(0).max(10_000).default(64),
    MQTT_HOST: z.string().min(1).default('0.0.0.0'),
    APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    APP_ORG_ID: z.coerce.number().int().positive().default(23),
    SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    EMM_AUTH: z.enum(['enforce', 'off']).default('enforce'),
    SMS_PROVIDER: z.enum(['dev-outbox', 'webhook']).default('dev-outbox'),
    SMS_WEBHOOK_URL: z.url().optional(),
    SMS_WEBHOOK_TOKEN: z.string().optional(),
    SEED_DEMO: flag.optional(),
    /** The demo shop (customers, schedules, payments); unset: on for a new development database in a folder. */
    DEMO_SHOP: flag.optional(),
    /** Virtual phones of the demo shop running inside the server (0: none); unset: 5 with the demo shop. */
    DEMO_PHONES: z.coerce.number().int().min(0).max(20).optional(),
    AGENT_COMPONENT: z.string().min(3).default('in.kisht.agent/.AdminReceiver'),
    AGENT_APK_URL: z.url().optional(),
    AGENT_APK_CHECKSUM: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be the APK signature SHA-256 in base64url').default(EMPTY_FILE_CHECKSUM),
    DUES_CHECK_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    // How often each node looks for offers campaigns to send (0: never; tests drive the sender themselves).
    ADS_CHECK_SECONDS: z.coerce.number().int().min(0).max(3600).default(15),
    // The India-time hours promotional offers go out in, from-to (21 is not included). Decision 029.
    ADS_SEND_HOURS: z.string().regex(/^([01]?[0-9]|2[0-3])-([01]?[0-9]|2[0-4])$/).default('9-21'),
    /** How often each node retries due SMS, takes back stuck claims and forgets old messages (0: off; new messages still go out at once). */
    SMS_QUEUE_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
    CONSOLE_DIST: z.string().default(path.join(REPO_ROOT, 'packages', 'console', 'dist')),
    /** Apple MDM: the push certificate's topic (com.apple.mgmt.External.<uuid>); unset, the Apple MDM routes answer FEATURE_OFF. */
    APPLE_MDM_TOPIC: z.string().regex(/^com\.apple\.mgmt\.[A-Za-z0-9._-]+$/, 'must be the MDM push topic (com.apple.mgmt....)').optional(),
    APPLE_APNS_URL: z.url().default('https://api.push.apple.com'),
    /** The MDM push certificate and its key (PEM files), the TLS client identity towards APNs. */
    APPLE_APNS_CERT_FILE: z.string().optional(),
    APPLE_APNS_KEY_FILE: z.string().optional(),
    /** Prefix of the identifiers of our configuration profiles. */
    APPLE_PROFILE_PREFIX: z.string().regex(/^[A-Za-z0-9.-]+$/).default('in.kisht'),
    /** The one-mode app for install_apple_onemodapp: an App Store id, or the manifest URL of an in-house build. */
    APPLE_ONEMODE_ITUNES_ID: z.coerce.number().int().positive().optional(),
    APPLE_ONEMODE_MANIFEST_URL: z.url().optional(),
    /** Apple Business Manager (DEP): the server token's OAuth 1.0a credentials; unset, sync and Activation Lock answer FEATURE_OFF. */
    APPLE_DEP_URL: z.url().default('https://mdmenrollment.apple.com'),
    APPLE_DEP_CONSUMER_KEY: z.string().optional(),
    APPLE_DEP_CONSUMER_SECRET: z.string().optional(),
    APPLE_DEP_ACCESS_TOKEN: z.string().optional(),
    APPLE_DEP_ACCESS_SECRET: z.string().optional(),
    /** Apple's Activation Lock escrow service (escrowKeyUnlock). */
    APPLE_ESCROW_URL: z.url().default('https://deviceservices-external.apple.com'),
    /** The payment gateway (decision 015); unset, gateway orders answer GATEWAY_NOT_CONFIGURED whatever the organisations' switches say. */
    PAYMENT_GATEWAY: z.enum(['razorpay']).optional(),
    RAZORPAY_BASE_URL: z.url().default('https://api.razorpay.com'),
    RAZORPAY_KEY_ID: z.string().min(1).optional(),
    RAZORPAY_KEY_SECRET: z.string().min(1).optional(),
    /** The secret set on the webhook in Razorpay's dashboard; X-Razorpay-Signature is keyed with it. */
    RAZORPAY_WEBHOOK_SECRET: z.string().min(8).optional(),
    /** How long a gateway order may be paid. */
    PAYMENT_ORDER_MINUTES: z.coerce.number().int().min(15).max(10_080).default(60),
    /** How often this node applies stored gateway events that are due (0: it only stores them; another node applies). */
    PAYMENT_EVENTS_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
    /** How often reconciliation asks the gateway about pending orders (0: off), and after how many minutes pending. */
    PAYMENT_RECONCILE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    PAYMENT_RECONCILE_AFTER_MINUTES: z.coerce.number().int().min(0).max(1440).default(5),
    /** Android Management API: the Google Cloud project; unset, the AMAPI routes answer FEATURE_OFF. */
    AMAPI_URL: z.url().default('https://androidmanagement.googleapis.com'),
    AMAPI_PROJECT_ID: z.string().regex(/^[a-z][a-z0-9-]{4,29}$/, 'must be a Google Cloud project id').optional(),
    /** A service-account key file (JSON) for OAuth towards Google: the production setting. */
    AMAPI_SERVICE_ACCOUNT_FILE: z.string().optional(),
    /** A fixed bearer token instead (development and tests against a fake). */
    AMAPI_TOKEN: z.string().optional(),
  });

/** Rules across variables; they read the raw text so they are reported even when other variables are broken. */
function crossCheck(raw: Record<string, string>): string[] {
  const problems: string[] = [];
  if (raw.APP_ENV === 'production') {
    if (!raw.APP_SECRET) problems.push('APP_SECRET: is required in production');
    if ((raw.SMS_PROVIDER ?? 'dev-outbox') === 'dev-outbox') problems.push('SMS_PROVIDER: dev-outbox is not allowed in production');
    if (raw.EMM_AUTH === 'off') problems.push('EMM_AUTH: cannot be off in production');
    // A phone scanning the EMM QR downloads the Android agent from AGENT_APK_URL and checks it against the checksum.
    if (!raw.AGENT_APK_URL) problems.push('AGENT_APK_URL: is required in production (where phones download the Android agent APK named in the EMM QR)');
    if ((raw.AGENT_APK_CHECKSUM ?? EMPTY_FILE_CHECKSUM) === EMPTY_FILE_CHECKSUM) {
      problems.push("AGENT_APK_CHECKSUM: is the hash of an empty file (the development placeholder); set the SHA-256 of the agent APK's signing certificate, in base64url");
    }
    if (raw.DEMO_SHOP === 'true' || raw.DEMO_SHOP === '1') problems.push('DEMO_SHOP: the demo shop is for development; not allowed in production');
    if (raw.DEMO_PHONES && raw.DEMO_PHONES !== '0') problems.push('DEMO_PHONES: virtual phones are for development; set 0 or leave unset in production');
    if (raw.MQTT_URL && !raw.MQTT_CLIENT_ID) {
      problems.push("MQTT_CLIENT_ID: is required in production with MQTT_URL (one stable id per node keeps the server's broker session, and the phone reports queued in it, across restarts)");
    }
  }
  if (raw.SMS_PROVIDER === 'webhook' && !raw.SMS_WEBHOOK_URL) problems.push('SMS_WEBHOOK_URL: is required when SMS_PROVIDER=webhook');
  if (raw.ADS_SEND_HOURS && /^\d+-\d+$/.test(raw.ADS_SEND_HOURS)) {
    const [from, to] = raw.ADS_SEND_HOURS.split('-').map(Number) as [number, number];
    if (from >= to) problems.push('ADS_SEND_HOURS: the first hour must come before the second (for example 9-21)');
  }
  // Push (decision 029): the development outbox unless PUSH_PROVIDER=fcm with a complete service account.
  problems.push(...pushConfigProblems(raw));
  const dep = ['APPLE_DEP_CONSUMER_KEY', 'APPLE_DEP_CONSUMER_SECRET', 'APPLE_DEP_ACCESS_TOKEN', 'APPLE_DEP_ACCESS_SECRET'];
  if (dep.some((k) => raw[k]) && !dep.every((k) => raw[k])) problems.push(`${dep.filter((k) => !raw[k]).join(', ')}: the DEP server token needs all four values`);
  if (Boolean(raw.APPLE_APNS_CERT_FILE) !== Boolean(raw.APPLE_APNS_KEY_FILE)) problems.push('APPLE_APNS_CERT_FILE, APPLE_APNS_KEY_FILE: give both or neither');
  if (raw.AMAPI_PROJECT_ID && !raw.AMAPI_SERVICE_ACCOUNT_FILE && !raw.AMAPI_TOKEN) problems.push('AMAPI_SERVICE_ACCOUNT_FILE: is required when AMAPI_PROJECT_ID is set (or AMAPI_TOKEN outside production)');
  if (raw.PAYMENT_GATEWAY === 'razorpay') {
    const missing = ['RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET'].filter((k) => !raw[k]);
    if (missing.length) problems.push(`${missing.join(', ')}: required when PAYMENT_GATEWAY=razorpay`);
  }
  if (raw.APP_ENV === 'production' && raw.AMAPI_TOKEN) problems.push('AMAPI_TOKEN: a fixed token is not allowed in production (use AMAPI_SERVICE_ACCOUNT_FILE)');
  return problems;
}

export type Env = z.infer<typeof schema>;

/** Limits of the sign-in flows and the size of a bulk batch's chunks; tests may tighten or loosen them through buildApp. */
export interface Limits {
  otpTtlSeconds: number;
  otpMaxAttempts: number;
  otpResendAfterSeconds: number;
  otpMaxResends: number;
  otpSendsPerMobilePerHour: number;
  otpSendsPerIpPerHour: number;
  mpinMaxAttempts: number;
  emmWindowMs: number;
  sessionTouchSeconds: number;
  /**
   * How long a live session is trusted without reading it again (per node). Ending a session, blocking a member
   * or changing a switch clears it at once on every node through the event bus; this only bounds what a missed
   * bus message (a node's listener reconnecting) can leave.
   */
  sessionCacheMs: number;
  /** Customers a bulk lock or unlock writes per transaction; the first chunk is written before the POST answers. */
  bulkChunk: number;
}

export const DEFAULT_LIMITS: Limits = {
  otpTtlSeconds: 600,
  otpMaxAttempts: 5,
  otpResendAfterSeconds: 30,
  otpMaxResends: 3,
  otpSendsPerMobilePerHour: 6,
  otpSendsPerIpPerHour: 30,
  mpinMaxAttempts: 5,
  emmWindowMs: 60_000,
  sessionTouchSeconds: 60,
  sessionCacheMs: 5000,
  bulkChunk: 500,
};

export interface Config extends Omit<Env, 'UPLOAD_DIR'> {
  UPLOAD_DIR: string;
  /** The push provider's variables as given (PUSH_PROVIDER, FCM_*), read by pushProviderFromEnv (decision 029). */
  pushEnv: PushEnv;
  /** Where the server's files are (from DATA_DIR). */
  paths: DataPaths;
  seedDemo: boolean;
  /**
   * The demo shop: `always` (DEMO_SHOP=true), `never`, or `if-new`: on a database the demo retailers were just
   * added to (or that has the shop already), the development default on PGlite in a folder.
   */
  demoShop: 'always' | 'if-new' | 'never';
  /** Virtual phones for the demo shop's customers, started inside the server. */
  demoPhones: number;
  limits: Limits;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Reads the environment; throws ConfigError listing every wrong variable. Empty strings count as unset. */
export function loadConfig(source: Record<string, string | undefined> = process.env, limits: Partial<Limits> = {}): Config {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)),
    ...crossCheck(cleaned as Record<string, string>),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const env = parsed.data;
  const paths = dataPaths(env.DATA_DIR);
  const seedDemo = env.SEED_DEMO ?? env.APP_ENV === 'development';
  const embeddedOnDisk = !env.DATABASE_URL && paths.root !== 'memory://';
  const demoShop = env.DEMO_SHOP === true ? 'always' : env.DEMO_SHOP === false || !seedDemo || env.APP_ENV !== 'development' || !embeddedOnDisk ? 'never' : 'if-new';
  if (demoShop === 'always' && !seedDemo) throw new ConfigError(['DEMO_SHOP: needs the demo retailers (SEED_DEMO)']);
  return {
    ...env, UPLOAD_DIR: env.UPLOAD_DIR ? path.resolve(REPO_ROOT, env.UPLOAD_DIR) : paths.uploads, paths, seedDemo, demoShop,
    pushEnv: Object.fromEntries(Object.entries(cleaned).filter(([k]) => k === 'PUSH_PROVIDER' || k.startsWith('FCM_'))) as PushEnv,
    demoPhones: demoShop === 'never' ? 0 : env.DEMO_PHONES ?? 5, limits: {
      ...DEFAULT_LIMITS,
      ...(env.OTP_SENDS_PER_MOBILE_PER_HOUR ? { otpSendsPerMobilePerHour: env.OTP_SENDS_PER_MOBILE_PER_HOUR } : {}),
      ...(env.OTP_SENDS_PER_IP_PER_HOUR ? { otpSendsPerIpPerHour: env.OTP_SENDS_PER_IP_PER_HOUR } : {}),
      ...limits,
    },
  };
}

/**
 * The server's MQTT client id when MQTT_CLIENT_ID is not set: the host name and port, stable across restarts of
 * the same node, so an external broker's kept session (and the reports queued in it) is taken over instead of
 * left behind. Tests run many servers on one host at once: each gets its own.
 */
export function defaultClientId(config: Pick<Config, 'APP_ENV' | 'PORT'>, host = hostname()): string {
  if (config.APP_ENV === 'test') return `kisht-api-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const name = host.toLowerCase().replace(/[^a-z0-9_.-]+/g, '-').slice(0, 40) || 'node';
  return `kisht-api-${name}-${config.PORT}`;
}
