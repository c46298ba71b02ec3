/**
 * Server messages in the user's language. The console's language choice travels in the i18next cookie
 * (same origin), so toasts and errors come back translated without an extra header. English is the fallback.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { localesDir } from '@kisht/locales/path';
import { FALLBACK_LANGUAGE, isLanguage, LANGUAGES, type Language } from '@kisht/domain/constants';

type Dictionary = Record<string, unknown>;

/** Success messages by key; the words are in packages/locales under messages.<KEY>. */
export const SUCCESS_MESSAGES = ['OTP_SENT', 'SIGNED_IN', 'MPIN_SET', 'MPIN_VERIFIED', 'MPIN_RESET', 'LOGGED_OUT', 'SESSION_ENDED', 'SESSIONS_ENDED', 'SIGNUP_REQUESTED', 'CUSTOMER_CREATED', 'PAYMENT_RECORDED', 'PAYMENT_REVERSED', 'DOCUMENT_SAVED', 'PENALTY_ADDED', 'PENALTY_WAIVED', 'LOAN_CLOSED', 'CAMPAIGN_CREATED', 'CAMPAIGN_CANCELLED', 'EMI_UPDATED', 'ALERT_QUEUED', 'CUSTOMER_UPDATED', 'COMMAND_SENT', 'SCHEDULED', 'SCHEDULE_CANCELLED', 'BATCH_STARTED', 'MEMBER_ADDED', 'MEMBER_UPDATED', 'KEYS_MOVED', 'KEYS_REQUESTED', 'REQUEST_DECIDED', 'PRICE_SAVED', 'ENROLMENT_CANCELLED', 'CLAIM_REJECTED', 'ANTIHACKING_ADDED', 'ANTIHACKING_REVOKED', 'PROTECTION_ACTIVATED', 'WARRANTY_SOLD', 'WARRANTY_REVOKED', 'PHOTO_SAVED', 'CLAIM_RAISED', 'CLAIM_UPDATED', 'ANTITHEFT_SAVED', 'ANTITHEFT_RENEWED', 'FAMILY_RULES_SAVED', 'FAMILY_RENEWED', 'OK'] as const;
export type SuccessMessage = (typeof SUCCESS_MESSAGES)[number];

/** Each language's file as served and as read here, loaded once at start (the files change only with a deploy). */
function readDictionaries(): Map<Language, { text: string; dict: Dictionary }> {
  const map = new Map<Language, { text: string; dict: Dictionary }>();
  for (const lng of LANGUAGES) {
    try {
      const text = readFileSync(path.join(localesDir, `${lng}.json`), 'utf8');
      map.set(lng, { text, dict: JSON.parse(text) as Dictionary });
    } catch {
      // a missing dictionary falls back to English; the locales test fails the build for it
    }
  }
  return map;
}

const files = readDictionaries();
const dictionaries = new Map([...files].map(([lng, file]) => [lng, file.dict]));

/** The JSON text of a language's dictionary, as the console fetches it; undefined for other names. */
export function dictionaryText(lng: string): string | undefined {
  return isLanguage(lng) ? files.get(lng)?.text : undefined;
}

function lookup(dict: Dictionary | undefined, key: string): string | undefined {
  let node: unknown = dict;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Dictionary)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** The text of `key` in `lng`, else in English, else `fallback`, with {{name}} placeholders filled from `vars`. */
export function translate(lng: Language, key: string, fallback: string = key, vars: Record<string, string | number> = {}): string {
  const text = lookup(dictionaries.get(lng), key) ?? lookup(dictionaries.get(FALLBACK_LANGUAGE), key) ?? fallback;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** Field problems a service reports; the error handler words them in the caller's language. */
export const VALIDATION_RULES = [
  'required', 'invalid', 'imei_invalid', 'imei_same', 'id_needs_both', 'id_number_invalid', 'not_your_product',
  'plan_not_of_product', 'not_your_financier', 'financier_field_required', 'city_not_in_state', 'loan_terms', 'financed_below_tenure',
  'instalments_or_amount', 'amount_too_large', 'below_paid', 'future_time', 'control_characters', 'not_future_date', 'photo_unavailable',
  'not_plan_product', 'alt_mobile_same', 'rules_invalid', 'not_your_loan_product', 'product_settings',
] as const;
export type ValidationRule = (typeof VALIDATION_RULES)[number];

/** The language of a request: the i18next cookie the console sets, else English. */
export function languageOf(cookieHeader: string | undefined): Language {
  const match = cookieHeader ? /(?:^|;\s*)i18next=([^;]+)/.exec(cookieHeader) : null;
  return isLanguage(match?.[1]) ? match[1] : FALLBACK_LANGUAGE;
}
