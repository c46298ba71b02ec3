import { describe, expect, it } from 'vitest';
import english from '@kisht/locales/en.json' with { type: 'json' };
import { LANGUAGES } from '@kisht/domain/constants';
import { phoneStrings, translate } from './i18n.ts';
import { OFFER_STRINGS } from './offer-strings.ts';

describe('phone strings', () => {
  it('fall back to English for an unknown language and for keys a locale lacks', () => {
    expect(phoneStrings('xx')).toEqual({ offers: OFFER_STRINGS.en, ...english.phone });
    const hindi = phoneStrings('hn');
    expect(Object.keys(hindi)).toEqual(expect.arrayContaining(Object.keys(english.phone)));
    expect(typeof translate(hindi, 'lock.heading')).toBe('string');
  });

  it('fill placeholders and show unknown keys as themselves', () => {
    const dict = phoneStrings('en');
    expect(translate(dict, 'code.wrong', { count: 3 })).toBe(english.phone.code.wrong.replace('{{count}}', '3'));
    expect(translate(dict, 'no.such.key')).toBe('no.such.key');
  });
});

/** The scripts of locales.test.ts: a translation in the language's own letters. */
const SCRIPT: Partial<Record<string, RegExp>> = {
  hn: /[\u0900-\u097F]/, mr: /[\u0900-\u097F]/, gj: /[\u0A80-\u0AFF]/, bd: /[\u0980-\u09FF]/, kn: /[\u0C80-\u0CFF]/,
  tg: /[\u0C00-\u0C7F]/, tm: /[\u0B80-\u0BFF]/, pp: /[\u0A00-\u0A7F]/,
};
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('the offers texts the agent holds', () => {
  for (const lng of LANGUAGES.filter((l) => l !== 'en')) {
    it(`are translated in ${lng}, with the same placeholders, and reach the phone in it`, () => {
      const problems: string[] = [];
      for (const [key, en] of Object.entries(OFFER_STRINGS.en)) {
        const value = OFFER_STRINGS[lng][key as keyof typeof OFFER_STRINGS.en];
        if (value.trim() === '' || value === en) problems.push(`${key}: not translated`);
        if (JSON.stringify(placeholders(value)) !== JSON.stringify(placeholders(en))) problems.push(`${key}: placeholders differ`);
        const script = SCRIPT[lng];
        if (script && !script.test(value.replace(/\{\{[^}]*\}\}/g, ''))) problems.push(`${key}: not in the language's script`);
      }
      expect(problems).toEqual([]);
      expect(translate(phoneStrings(lng), 'offers.switch')).toBe(OFFER_STRINGS[lng].switch);
    });
  }

  it('name the switch "Shop offers" and the button "Open" in English', () => {
    const dict = phoneStrings('en');
    expect(translate(dict, 'offers.switch')).toBe('Shop offers');
    expect(translate(dict, 'offers.openNamed', { title: 'Diwali sale' })).toBe('Open Diwali sale');
  });
});
