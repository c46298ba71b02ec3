/** i18next set-up: dictionaries from /locales/{lng}.json, language from cookie, html tag, storage, path, subdomain. */
import i18n from 'i18next';
import HttpBackend from 'i18next-http-backend';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_LANGUAGE, isLanguage, LANGUAGE_INFO, LANGUAGES, STORAGE_KEYS } from '@kisht/domain/constants';
import type { Translator } from '../api/api-failure.ts';

export { i18n };

export const LANGUAGE_COOKIE = 'i18next';

function reflectLanguage(lng: string): void {
  if (!isLanguage(lng)) return;
  document.documentElement.lang = LANGUAGE_INFO[lng].tag;
  try {
    localStorage.setItem(STORAGE_KEYS.language, lng);
  } catch {
    /* storage unavailable */
  }
}

export function initI18n(): Promise<unknown> {
  i18n.on('languageChanged', reflectLanguage);
  return i18n
    .use(HttpBackend)
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      backend: { loadPath: '/locales/{{lng}}.json' },
      detection: {
        order: ['cookie', 'htmlTag', 'localStorage', 'path', 'subdomain'],
        caches: ['cookie'],
        lookupCookie: LANGUAGE_COOKIE,
        lookupLocalStorage: STORAGE_KEYS.language,
        cookieMinutes: 60 * 24 * 365,
        cookieOptions: { path: '/', sameSite: 'lax' },
      },
      supportedLngs: [...LANGUAGES],
      nonExplicitSupportedLngs: false,
      fallbackLng: FALLBACK_LANGUAGE,
      load: 'currentOnly',
      interpolation: { escapeValue: false }, // React escapes
      react: { useSuspense: false },
      returnNull: false,
      showSupportNotice: false,
    });
}

/** The i18next instance seen through the small interface the error mapping uses. */
export const translator: Translator = {
  exists: (key) => i18n.exists(key),
  t: (key) => i18n.t(key),
};
