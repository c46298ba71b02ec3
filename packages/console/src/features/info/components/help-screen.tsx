/** Frequently asked questions. */
import { useTranslation } from 'react-i18next';
import { Page } from '../../../shared/ui/page.tsx';

const QUESTIONS = ['signIn', 'otpMissing', 'mpin', 'forgotMpin', 'sessions', 'language', 'offline', 'lock', 'prices'] as const;

export function HelpScreen() {
  const { t } = useTranslation();
  return (
    <Page title={t('help.title')}>
      <p className="muted">{t('help.intro')}</p>
      <div className="faq">
        {QUESTIONS.map((id) => (
          <details key={id} className="card faq__item">
            <summary>{t(`help.faq.${id}.question`)}</summary>
            <p>{t(`help.faq.${id}.answer`)}</p>
          </details>
        ))}
      </div>
    </Page>
  );
}
