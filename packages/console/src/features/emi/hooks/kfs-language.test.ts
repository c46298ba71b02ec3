import { describe, expect, it } from 'vitest';
import { customerLanguage, kfsTranslator, type KfsI18n } from './kfs-language.ts';

/** An i18next stand-in: `loadable` languages load when asked, the user's is there from the start. */
function fakeI18n(language: string, loadable: string[], { rejects = false } = {}) {
  const loaded = new Set([language]);
  const asked: string[] = [];
  const i18n: KfsI18n = {
    language,
    async loadLanguages(lngs) {
      const list = typeof lngs === 'string' ? [lngs] : [...lngs];
      asked.push(...list);
      if (rejects) throw new Error('offline');
      for (const lng of list) if (loadable.includes(lng)) loaded.add(lng);
    },
    hasResourceBundle: (lng, ns) => ns === 'translation' && loaded.has(lng),
    getFixedT: (lng) => (key) => `${lng}:${key}`,
  };
  return { i18n, asked };
}

describe("the KFS's language", () => {
  it("loads the customer's dictionary and words the KFS in it", async () => {
    const { i18n, asked } = fakeI18n('en', ['mr']);
    const result = await kfsTranslator(i18n, 'mr');
    expect(asked).toEqual(['mr']);
    expect(result).toMatchObject({ lng: 'mr', fellBack: false });
    expect(result.t('kfs.title')).toBe('mr:kfs.title');
  });

  it("falls back to the user's language when the customer's cannot be loaded", async () => {
    const missing = await kfsTranslator(fakeI18n('hn', []).i18n, 'tg');
    expect(missing).toMatchObject({ lng: 'hn', fellBack: true });
    expect(missing.t('kfs.title')).toBe('hn:kfs.title');
    const offline = await kfsTranslator(fakeI18n('hn', ['tg'], { rejects: true }).i18n, 'tg');
    expect(offline).toMatchObject({ lng: 'hn', fellBack: true });
  });

  it("uses the user's language, loading nothing, when the customer has none or shares it", async () => {
    for (const wanted of [null, 'gj'] as const) {
      const { i18n, asked } = fakeI18n('gj', []);
      const result = await kfsTranslator(i18n, wanted);
      expect(asked).toEqual([]);
      expect(result).toMatchObject({ lng: 'gj', fellBack: false });
    }
  });

  it("reads the customer's language only when the profile carries a known one", () => {
    expect(customerLanguage({ language: 'kn' })).toBe('kn');
    expect(customerLanguage({ language: 'xx' })).toBeNull();
    expect(customerLanguage({ language: null })).toBeNull();
    expect(customerLanguage({ first_name: 'Asha' })).toBeNull();
    expect(customerLanguage(undefined)).toBeNull();
  });
});
