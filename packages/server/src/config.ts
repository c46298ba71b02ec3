/** Configuration, parsed once at boot from the environment. A bad variable stops the process with the full list. */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { z } from 'zod';

export const REPO_ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

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
    DATA_DIR: z.string().min(1).default(path.join(REPO_ROOT, '.data', 'pglite')),
    UPLOAD_DIR: z.string().min(1).default(path.join(REPO_ROOT, '.data', 'uploads')),
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
    MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1884),
    /** The broker URL given to phones at enrolment (default: the embedded broker on this host, or MQTT_URL). */
    MQTT_PUBLIC_URL: z.string().regex(/^(mqtts?|wss?):\/\/.+/, 'must be an mqtt://, mqtts://, ws:// or wss:// URL').optional(),
    /** How often the device sweeper republishes unpublished commands, expires old ones and runs due schedules (0: off). */
    DEVICE_SWEEP_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
    MQTT_HOST: z.string().min(1).default('0.0.0.0'),
    APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    APP_ORG_ID: z.coerce.number().int().positive().default(23),
    SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    EMM_AUTH: z.enum(['enforce', 'off']).default('enforce'),
    SMS_PROVIDER: z.enum(['dev-outbox', 'webhook']).default('dev-outbox'),
    SMS_WEBHOOK_URL: z.url().optional(),
    SMS_WEBHOOK_TOKEN: z.string().optional(),
    SEED_DEMO: flag.optional(),
    AGENT_COMPONENT: z.string().min(3).default('in.kisht.agent/.AdminReceiver'),
    AGENT_APK_URL: z.url().optional(),
    AGENT_APK_CHECKSUM: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be the APK signature SHA-256 in base64url').default('47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU'),
    DUES_CHECK_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
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
  }
  if (raw.SMS_PROVIDER === 'webhook' && !raw.SMS_WEBHOOK_URL) problems.push('SMS_WEBHOOK_URL: is required when SMS_PROVIDER=webhook');
  const dep = ['APPLE_DEP_CONSUMER_KEY', 'APPLE_DEP_CONSUMER_SECRET', 'APPLE_DEP_ACCESS_TOKEN', 'APPLE_DEP_ACCESS_SECRET'];
  if (dep.some((k) => raw[k]) && !dep.every((k) => raw[k])) problems.push(`${dep.filter((k) => !raw[k]).join(', ')}: the DEP server token needs all four values`);
  if (Boolean(raw.APPLE_APNS_CERT_FILE) !== Boolean(raw.APPLE_APNS_KEY_FILE)) problems.push('APPLE_APNS_CERT_FILE, APPLE_APNS_KEY_FILE: give both or neither');
  if (raw.AMAPI_PROJECT_ID && !raw.AMAPI_SERVICE_ACCOUNT_FILE && !raw.AMAPI_TOKEN) problems.push('AMAPI_SERVICE_ACCOUNT_FILE: is required when AMAPI_PROJECT_ID is set (or AMAPI_TOKEN outside production)');
  if (raw.APP_ENV === 'production' && raw.AMAPI_TOKEN) problems.push('AMAPI_TOKEN: a fixed token is not allowed in production (use AMAPI_SERVICE_ACCOUNT_FILE)');
  return problems;
}

export type Env = z.infer<typeof schema>;

/** Limits of the sign-in flows; tests may tighten or loosen them through buildApp. */
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
};

export interface Config extends Env {
  seedDemo: boolean;
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
  return { ...env, seedDemo: env.SEED_DEMO ?? env.APP_ENV === 'development', limits: { ...DEFAULT_LIMITS, ...limits } };
}
