/** Switches the interface language: i18next, its cookie (detector cache), local storage and <html lang>. */
import type { Language } from '@kisht/domain/constants';
import { i18n } from './i18n.ts';

export async function changeLanguage(lng: Language): Promise<void> {
  // The 'languageChanged' listener in i18n.ts updates <html lang> and local storage;
  // the language detector writes the cookie.
  await i18n.changeLanguage(lng);
}
