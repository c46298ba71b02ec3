/** Constants of the retailer console and the platform, as the specification names them. */

export const APP_ORG_ID = 23;
export const APP_ORG_SHORT_NAME = 'one-touch';
export const LISTED_ORG_IDS = [23, 46] as const;
/** Organisations for which clicking an inactive customer warns instead of navigating. */
export const INACTIVE_WARNING_ORG_IDS = [35, 36, 46] as const;
/** The specification's hard-coded organisation list (what it gates is not named). */
export const ORG_CHECK_IDS = [1, 5, 7, 8, 10, 11, 12, 14, 15, 16, 17, 18, 20, 23, 29, 31, 34, 35, 41, 43, 44] as const;

export const HTTP_SESSION_INVALID = 511;
export const COUNTRY_PREFIX = '+91';
export const EMM_IV_BYTES = 16;

export const CACHE_SECONDS = { default: 60, query: 300, plans: 5 } as const;

export const IMAGE_MAX_PX = 1200;
export const IMAGE_QUALITY = 0.8;
export const FILE_SIZE_LIMIT_BYTES = 5 * 1024 * 1024;

export const GEOLOCATION_TIMEOUT_MS = 5000;
export const GEOLOCATION_BYPASSED = 'Bypassed';

export const TOAST_MAX = 1;
export const DRAWER_HEIGHT = 200;
export const SKELETON_HEIGHTS = [80, 180] as const;
export const SPINNER = { stroke: 5, width: 30 } as const;
export const TRUNCATE_AFTER = 10;

export const LANGUAGES = ['en', 'hn', 'mr', 'gj', 'sp', 'bd', 'kn', 'tg', 'tm', 'pp'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'en';
/** Native names shown on the language screen, and the BCP 47 tag for Intl and html lang. */
export const LANGUAGE_INFO: Record<Language, { native: string; tag: string }> = {
  en: { native: 'English', tag: 'en-IN' },
  hn: { native: 'हिन्दी', tag: 'hi-IN' },
  mr: { native: 'मराठी', tag: 'mr-IN' },
  gj: { native: 'ગુજરાતી', tag: 'gu-IN' },
  sp: { native: 'Español', tag: 'es' },
  bd: { native: 'বাংলা', tag: 'bn-IN' },
  kn: { native: 'ಕನ್ನಡ', tag: 'kn-IN' },
  tg: { native: 'తెలుగు', tag: 'te-IN' },
  tm: { native: 'தமிழ்', tag: 'ta-IN' },
  pp: { native: 'ਪੰਜਾਬੀ', tag: 'pa-IN' },
};
export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export const OTP_PURPOSES = ['LOGIN', 'FORGOT_PASSWORD', 'UNINSTALL', 'BYPASS_CODE'] as const;
export type OtpPurpose = (typeof OTP_PURPOSES)[number];

export const USER_TYPES = ['retailer', 'customer', 'miniretailer'] as const;
export type UserType = (typeof USER_TYPES)[number];

/** Keys the console keeps in the browser's local storage. */
export const STORAGE_KEYS = {
  accountId: 'account_id',
  userId: 'user_id',
  deviceId: 'device_id',
  phone: 'phone',
  token: 'token',
  mpin: 'mpin',
  language: 'language',
  isAndroid: 'isAndroid',
  showAd: 'showAd',
  deviceDetails: 'deviceDetails',
  mpinType: 'type',
} as const;

export const INSTALL_STATUS = {
  inactive: 0,
  install: 1,
  deactivate: 2,
  uninstall: 3,
  apple_removed: 4,
  emis_completed: 5,
  emis_maturing: 6,
} as const;

export const LOCK_STATUS = { unlocked: 0, locked: 1 } as const;

export const PROVISIONING_TYPE = { DPC: 0, AMAPI: 1, LINKFL: 2, APPLE: 3 } as const;

export const PRODUCT_TYPE = {
  DPC: 0,
  LINKFL: 1,
  APPLE: 2,
  ANTI_THEFT: 4,
  EXTENDED_WARRANTY: 5,
  OLD_FL: 6,
  FAMILYCARE: 7,
  ANTIHACKING: 8,
  DPC_ANTITHEFT: 9,
  DPC_LITE: 11,
  ANTIHACKING_PRO: 12,
  ANTIHACKING_PREMIUM: 13,
} as const;

/** The three anti-hacking tiers; each plan's app type is its tier (the security app installs that edition). */
export const ANTIHACKING_PRODUCT_TYPES: readonly number[] = [PRODUCT_TYPE.ANTIHACKING, PRODUCT_TYPE.ANTIHACKING_PRO, PRODUCT_TYPE.ANTIHACKING_PREMIUM];

/** Per-user switches; the server stores and enforces them. Values are strings "1"/"0" as the console receives them. */
export const USER_ACCESS_KEYS = ['feature_access', 'lock_unlock', 'unistall', 'active_deactive', 'bulk_retailer', 'penalty_waiver'] as const;
export type UserAccessKey = (typeof USER_ACCESS_KEYS)[number];
export type UserAccess = Record<UserAccessKey, '0' | '1'>;
export const DEFAULT_USER_ACCESS: UserAccess = {
  feature_access: '1',
  lock_unlock: '1',
  unistall: '1',
  active_deactive: '1',
  bulk_retailer: '0',
  // Waiving a penalty (RBI's 2023 fair-lending rules allow it in full or part, with a reason): on unless a parent switches it off.
  penalty_waiver: '1',
};

export const LOCK_ACCESS_KEYS = ['lock', 'unlock', 'read', 'uninstall'] as const;
export type LockAccessKey = (typeof LOCK_ACCESS_KEYS)[number];
export type LockAccess = Record<LockAccessKey, '0' | '1'>;
export const DEFAULT_LOCK_ACCESS: LockAccess = { lock: '1', unlock: '1', read: '1', uninstall: '1' };

/** Organisation feature switches stored per organisation. All off by default, as the specification sets them. */
export const ORG_FEATURE_KEYS = ['witness_signature', 'payment_gateway', 'outstanding_amount'] as const;
export type OrgFeatureKey = (typeof ORG_FEATURE_KEYS)[number];
export type OrgFeatures = Record<OrgFeatureKey, boolean>;
export const DEFAULT_ORG_FEATURES: OrgFeatures = {
  witness_signature: false,
  payment_gateway: false,
  outstanding_amount: false,
};
