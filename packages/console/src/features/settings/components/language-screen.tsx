/** Choose the interface language; each is shown in its own script. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLanguage, LANGUAGE_INFO, LANGUAGES, type Language } from '@kisht/domain/constants';
import { changeLanguage } from '../../../shared/i18n/change-language.ts';
import { Page } from '../../../shared/ui/page.tsx';
import './settings.css';

export function LanguageScreen() {
  const { t, i18n } = useTranslation();
  // The choice shows at once, while its dictionary loads (and even if it is missing and English is shown).
  const [chosen, setChosen] = useState<Language | null>(null);
  const current: Language = chosen ?? (isLanguage(i18n.language) ? i18n.language : 'en');
  return (
    <Page title={t('language.title')}>
      <fieldset className="choice-list">
        <legend className="muted">{t('language.intro')}</legend>
        {LANGUAGES.map((lng) => (
          <label key={lng} className="choice-list__item" lang={LANGUAGE_INFO[lng].tag}>
            <input
              type="radio"
              name="language"
              value={lng}
              checked={current === lng}
              onChange={() => {
                setChosen(lng);
                void changeLanguage(lng);
              }}
            />
            <span>{LANGUAGE_INFO[lng].native}</span>
          </label>
        ))}
      </fieldset>
    </Page>
  );
}
