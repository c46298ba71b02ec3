/**
 * Every language has every key of en.json, translated: not empty, not a copy of the English, written in
 * the language's script (Spanish: not English), with the same {{placeholders}}.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@kisht/domain/constants';

type Dict = { [key: string]: string | Dict };

function load(lng: string): Dict {
  return JSON.parse(readFileSync(new URL(`./${lng}.json`, import.meta.url), 'utf8')) as Dict;
}

function flatten(dict: Dict, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(dict)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const SCRIPT: Record<string, RegExp> = {
  hn: /[\u0900-\u097F]/,
  mr: /[\u0900-\u097F]/,
  gj: /[\u0A80-\u0AFF]/,
  bd: /[\u0980-\u09FF]/,
  kn: /[\u0C80-\u0CFF]/,
  tg: /[\u0C00-\u0C7F]/,
  tm: /[\u0B80-\u0BFF]/,
  pp: /[\u0A00-\u0A7F]/,
};

/** Keys whose text may stay as in English in every language (names and codes). */
const SAME_EVERYWHERE = new Set<string>(JSON.parse(readFileSync(new URL('./same-everywhere.json', import.meta.url), 'utf8')) as string[]);

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]).sort();
const hasWords = (text: string) => /[A-Za-z]{2,}/.test(text.replace(/\{\{[^}]*\}\}/g, ''));

const english = flatten(load('en'));

describe('translations', () => {
  it('English has strings', () => {
    expect(english.size).toBeGreaterThan(50);
    for (const [key, value] of english) expect(value.trim(), key).not.toBe('');
  });

  for (const lng of LANGUAGES.filter((l) => l !== 'en')) {
    it(`${lng} has every key, translated, with the same placeholders`, () => {
      const dict = flatten(load(lng));
      const missing = [...english.keys()].filter((k) => !dict.has(k));
      const extra = [...dict.keys()].filter((k) => !english.has(k));
      expect(missing, `${lng} is missing`).toEqual([]);
      expect(extra, `${lng} has keys English does not`).toEqual([]);
      const problems: string[] = [];
      for (const [key, en] of english) {
        const value = dict.get(key)!;
        if (value.trim() === '') problems.push(`${key}: empty`);
        if (JSON.stringify(placeholders(value)) !== JSON.stringify(placeholders(en))) problems.push(`${key}: placeholders differ`);
        if (SAME_EVERYWHERE.has(key) || !hasWords(en)) continue;
        if (value === en) problems.push(`${key}: same as English`);
        else if (SCRIPT[lng] && !SCRIPT[lng].test(value)) problems.push(`${key}: not in the language's script`);
      }
      expect(problems, lng).toEqual([]);
    });
  }
});
