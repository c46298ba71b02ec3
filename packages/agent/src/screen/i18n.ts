/**
 * The phone's texts in the customer's language: the `phone` namespace of @kisht/locales/<lng>.json when it
 * has one, over the English one (so a missing key falls back to English).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { localesDir } from '@kisht/locales/path';
import { isLanguage } from '@kisht/domain/constants';
import english from '@kisht/locales/en.json' with { type: 'json' };

export type Dict = { [key: string]: string | Dict };

const cache = new Map<string, Dict>();

function merge(base: Dict, over: Dict): Dict {
  const out: Dict = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = typeof value === 'object' && typeof current === 'object' ? merge(current, value) : value;
  }
  return out;
}

/** The `phone` dictionary for `lng` (falls back to English for unknown languages and missing keys). */
export function phoneStrings(lng: string | null | undefined): Dict {
  const language = lng && isLanguage(lng) ? lng : 'en';
  const cached = cache.get(language);
  if (cached) return cached;
  let translated: Dict;
  try {
    const file = JSON.parse(readFileSync(path.join(localesDir, `${language}.json`), 'utf8')) as { phone?: Dict };
    translated = file.phone ?? {};
  } catch {
    translated = {};
  }
  const dict = merge(english.phone as Dict, translated);
  cache.set(language, dict);
  return dict;
}

/** Looks up a dotted key and fills {{placeholders}}; an unknown key shows as itself. */
export function translate(dict: Dict, key: string, values: Record<string, string | number> = {}): string {
  let node: string | Dict | undefined = dict;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') return key;
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ''));
}
