/** The console's local-storage keys, read and written in one place. */
import { STORAGE_KEYS } from '@kisht/domain/constants';

export type StoredKey = keyof typeof STORAGE_KEYS;

/** Keys the console adds beyond the specification's list. */
export const CONSOLE_STORAGE_KEYS = {
  birthdayShownOn: 'birthdayShownOn',
  /** The organisation's theme colours as last read, to paint the first screen in them before the config answers. */
  orgTheme: 'orgTheme',
} as const;

/** What belongs to the signed-in user; removed on sign-out. */
const SESSION_KEYS: readonly StoredKey[] = ['token', 'userId', 'accountId', 'phone', 'mpin', 'mpinType'];

// Storage can throw (disabled storage, private mode, full quota): the console keeps working without it.
function local(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function readStored(key: StoredKey): string | null {
  try {
    return local()?.getItem(STORAGE_KEYS[key]) ?? null;
  } catch {
    return null;
  }
}

export function writeStored(key: StoredKey, value: string): void {
  try {
    local()?.setItem(STORAGE_KEYS[key], value);
  } catch {
    /* storage unavailable or full */
  }
}

export function removeStored(key: StoredKey): void {
  try {
    local()?.removeItem(STORAGE_KEYS[key]);
  } catch {
    /* storage unavailable */
  }
}

export function readConsoleKey(key: keyof typeof CONSOLE_STORAGE_KEYS): string | null {
  try {
    return local()?.getItem(CONSOLE_STORAGE_KEYS[key]) ?? null;
  } catch {
    return null;
  }
}

export function writeConsoleKey(key: keyof typeof CONSOLE_STORAGE_KEYS, value: string): void {
  try {
    local()?.setItem(CONSOLE_STORAGE_KEYS[key], value);
  } catch {
    /* storage unavailable or full */
  }
}

/** Removes the signed-in user's keys, keeping device details and the language. */
export function clearSessionStorage(): void {
  for (const key of SESSION_KEYS) removeStored(key);
}

/** Clears everything (the specification's answer to HTTP 511). */
export function clearAllStorage(): void {
  try {
    local()?.clear();
  } catch {
    /* storage unavailable */
  }
}
