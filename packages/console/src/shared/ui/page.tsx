/** Page frames: a titled page inside the signed-in shell, and a public page with its own back bar. */
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BackIcon } from './icons.tsx';
import { readStored } from '../storage.ts';
import { ROUTES } from '../routes.ts';
import { useGetOrgAppConfigQuery } from '../config/config-api.ts';

export function Page({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page__heading">
        <h1 id="page-title">{title}</h1>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** Goes back within the app when there is somewhere to go back to, else to the right start screen. */
export function useGoBack(): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  return () => {
    if (location.key !== 'default') void navigate(-1);
    else void navigate(readStored('token') ? ROUTES.dashboard : ROUTES.login, { replace: true });
  };
}

export function PublicPage({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const { data: org } = useGetOrgAppConfigQuery();
  return (
    <div className="public-page">
      <header className="app-bar">
        <button type="button" className="icon-button" aria-label={t('common.back')} onClick={goBack}>
          <BackIcon />
        </button>
        <span className="app-bar__title">{org?.company_name || org?.name || t('common.appName')}</span>
      </header>
      <main className="page">
        <h1 id="page-title">{title}</h1>
        {children}
      </main>
    </div>
  );
}
