import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localesDir } from '@kisht/locales/path';
import english from '@kisht/locales/en.json' with { type: 'json' };
import { LANGUAGES } from '@kisht/domain/constants';
import { phoneStrings, translate } from './i18n.ts';

describe('phone strings', () => {
  it('fall back to English for an unknown language and for keys a locale lacks', () => {
    expect(phoneStrings('xx')).toEqual(english.phone);
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

describe('the offers texts', () => {
  // Translated, with the same placeholders and in each language's script: locales.test.ts, like every other text.
  it('reach the phone in its language', () => {
    for (const lng of LANGUAGES) {
      const file = JSON.parse(readFileSync(path.join(localesDir, `${lng}.json`), 'utf8')) as { phone: { offers: Record<string, string> } };
      const dict = phoneStrings(lng);
      for (const [key, text] of Object.entries(file.phone.offers)) expect(translate(dict, `offers.${key}`, { title: 'Diwali' })).toBe(text.replaceAll('{{title}}', 'Diwali'));
      if (lng !== 'en') expect(translate(dict, 'offers.switch')).not.toBe(translate(phoneStrings('en'), 'offers.switch'));
    }
  });

  it('name the switch "Shop offers" and the button "Open" in English', () => {
    const dict = phoneStrings('en');
    expect(translate(dict, 'offers.switch')).toBe('Shop offers');
    expect(translate(dict, 'offers.openNamed', { title: 'Diwali sale' })).toBe('Open Diwali sale');
  });
});
