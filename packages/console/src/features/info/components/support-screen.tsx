/** How to reach the organisation's support team. */
import { useTranslation } from 'react-i18next';
import { useGetOrgAppConfigQuery } from '../../../shared/config/config-api.ts';
import { Page } from '../../../shared/ui/page.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';

/** wa.me wants the number as digits only, with the country code. */
function whatsappLink(number: string): string {
  const digits = number.replace(/\D/g, '');
  return `https://wa.me/${digits.length === 10 ? `91${digits}` : digits}`;
}

export function SupportScreen() {
  const { t } = useTranslation();
  const { data: org, isError, refetch } = useGetOrgAppConfigQuery();
  const support = org?.support;
  const none = support && !support.phone && !support.email && !support.whatsapp;
  return (
    <Page title={t('support.title')}>
      <p className="muted">{t('support.intro', { company: org?.company_name || org?.name || t('common.appName') })}</p>
      {isError && !org ? (
        <LoadErrorCard message={t('support.loadError')} onRetry={() => void refetch()} />
      ) : null}
      {none ? <p>{t('support.none')}</p> : null}
      {support ? (
        <ul className="list contact-list">
          {support.phone ? (
            <li className="card">
              <h2>{t('support.call')}</h2>
              <a className="button button--primary button--block" href={`tel:${support.phone.replace(/[^\d+]/g, '')}`}>
                {t('support.callNumber', { number: support.phone })}
              </a>
            </li>
          ) : null}
          {support.whatsapp ? (
            <li className="card">
              <h2>{t('support.whatsapp')}</h2>
              <a className="button button--secondary button--block" href={whatsappLink(support.whatsapp)} target="_blank" rel="noopener noreferrer">
                {t('support.whatsappNumber', { number: support.whatsapp })}
              </a>
            </li>
          ) : null}
          {support.email ? (
            <li className="card">
              <h2>{t('support.email')}</h2>
              <a className="button button--secondary button--block" href={`mailto:${support.email}`}>
                {support.email}
              </a>
            </li>
          ) : null}
          {support.hours ? (
            <li className="card">
              <h2>{t('support.hours')}</h2>
              <p>{support.hours}</p>
            </li>
          ) : null}
        </ul>
      ) : null}
    </Page>
  );
}
