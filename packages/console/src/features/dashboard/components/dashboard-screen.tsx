/** The dashboard: a welcome card, the network's figures and charts, and quick links. */
import type { ComponentType } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useGetDetailsQuery } from '../../../shared/auth/session-api.ts';
import { Page } from '../../../shared/ui/page.tsx';
import { Skeleton, SKELETON_LARGE, SKELETON_SMALL } from '../../../shared/ui/skeleton.tsx';
import { DashboardStatsSection } from './dashboard-stats.tsx';
import { NAV_ITEMS } from './nav-items.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import './dashboard.css';

const QUICK_LINKS = NAV_ITEMS.filter((item) => item.quick);

/** KeyStockSection: the network's key stock card, given by the route (features do not import each other). */
export function DashboardScreen({ KeyStockSection }: { KeyStockSection?: ComponentType }) {
  const { t } = useTranslation();
  const { data: profile, isLoading, isError, refetch } = useGetDetailsQuery();

  return (
    <Page title={t('dashboard.title')}>
      {isLoading ? (
        <div aria-busy="true" aria-label={t('common.loading')} className="stack">
          <Skeleton height={SKELETON_SMALL} />
          <Skeleton height={SKELETON_LARGE} />
        </div>
      ) : (
        <>
          {profile ? (
            <article className="card welcome-card">
              <h2>{t('dashboard.welcome', { name: profile.first_name })}</h2>
              {profile.shop_name ? <p className="welcome-card__shop">{profile.shop_name}</p> : null}
              <p className="muted">{t('dashboard.intro')}</p>
            </article>
          ) : isError ? (
            <LoadErrorCard message={t('dashboard.profileError')} onRetry={() => void refetch()} as="article" />
          ) : null}
          {KeyStockSection ? <KeyStockSection /> : null}
          <DashboardStatsSection />
          <section className="card" aria-labelledby="quick-links-title">
            <h2 id="quick-links-title">{t('dashboard.quickLinks')}</h2>
            <ul className="quick-links">
              {QUICK_LINKS.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="quick-links__item">
                    {link.icon}
                    <span>{t(link.label)}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        </>
      )}
    </Page>
  );
}
