/** The frame of the sign-in screens: the organisation's name above the form. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetOrgAppConfigQuery } from '../../../shared/config/config-api.ts';
import './auth.css';

/** The organisation's name the server sent with a drawn sign-in page (decision 030), shown until the config answers. */
function nameSentWithPage(): string | null {
  return typeof document === 'undefined' ? null : (document.querySelector('meta[name="kisht-org-name"]')?.getAttribute('content') ?? null);
}

export function AuthFrame({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { data: org } = useGetOrgAppConfigQuery();
  return (
    <div className="auth-screen">
      <header className="auth-brand">
        <img src="/icons/icon.svg" alt="" width={56} height={56} />
        <p className="auth-brand__name">{org?.company_name || org?.name || nameSentWithPage() || t('common.appName')}</p>
      </header>
      <main className="page auth-card">
        <h1>{title}</h1>
        {subtitle ? <p className="muted">{subtitle}</p> : null}
        {children}
      </main>
    </div>
  );
}
