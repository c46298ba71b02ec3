/** Frequently asked questions, and who stands behind the app (company, parent company, assistant). */
import { useTranslation } from 'react-i18next';
import { Page } from '../../../shared/ui/page.tsx';
import { Facts } from '../../../shared/ui/facts.tsx';
import { useGetOrgAppConfigQuery } from '../../../shared/config/config-api.ts';
import './info.css';

const QUESTIONS = ['signIn', 'otpMissing', 'mpin', 'forgotMpin', 'sessions', 'language', 'offline', 'lock', 'prices'] as const;

export function HelpScreen() {
  const { t } = useTranslation();
  const { data: org } = useGetOrgAppConfigQuery();
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
      {org ? (
        <section className="card" aria-labelledby="help-about-title">
          <h2 id="help-about-title">{t('help.about.title')}</h2>
          <Facts
            rows={[
              [t('help.about.company'), org.company_name || org.name],
              [t('help.about.parentCompany'), org.parent_company_name],
              [t('help.about.assistant'), org.ai_assistant_name],
            ]}
          />
        </section>
      ) : null}
    </Page>
  );
}
