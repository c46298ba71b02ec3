/**
 * The language a Key Fact Statement is worded in: the customer's, once its dictionary has loaded (the console
 * loads only the user's at start, i18n.ts), else the user's own.
 */
import { isLanguage, type Language } from '@kisht/domain/constants';
import type { Translate } from './kfs-text.ts';

/** What of the i18next instance this needs (the real one in the screen, a fake in tests). */
export interface KfsI18n {
  language: string;
  loadLanguages(lngs: string | readonly string[]): Promise<unknown>;
  hasResourceBundle(lng: string, ns: string): boolean;
  getFixedT(lng: string): (key: string, vars?: Record<string, unknown>) => string;
}

const NAMESPACE = 'translation';

/**
 * The customer's language as the server keeps it (customers.language), when the profile carries it: the
 * CustomerProfile contract does not yet, so this is null until the server sends it and the retailer chooses.
 */
export function customerLanguage(profile: object | null | undefined): Language | null {
  if (!profile || !('language' in profile)) return null;
  return isLanguage(profile.language) ? profile.language : null;
}

/**
 * A `t` fixed to `wanted` once its dictionary is loaded; the user's own when none is wanted, or when loading it
 * failed (offline, a missing file: i18next reports no error through the promise, so the bundle is checked).
 */
export async function kfsTranslator(i18n: KfsI18n, wanted: Language | null): Promise<{ lng: string; t: Translate; fellBack: boolean }> {
  const own = i18n.language;
  if (wanted && wanted !== own) {
    try {
      await i18n.loadLanguages(wanted);
    } catch {
      // Treated as not loaded, below.
    }
    if (i18n.hasResourceBundle(wanted, NAMESPACE)) return { lng: wanted, t: fixed(i18n, wanted), fellBack: false };
    return { lng: own, t: fixed(i18n, own), fellBack: true };
  }
  return { lng: own, t: fixed(i18n, own), fellBack: false };
}

function fixed(i18n: KfsI18n, lng: string): Translate {
  const t = i18n.getFixedT(lng);
  return (key, vars) => t(key, vars);
}
