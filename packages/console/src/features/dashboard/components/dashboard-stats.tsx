/** The dashboard's figures: stat cards, collections over 30 days and customers by status (SVG charts), skeletons while loading. */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { DashboardStats } from '@kisht/contract/dashboard';
import { INSTALL_STATUS } from '@kisht/domain/constants';
import { INSTALL_STATUS_LABEL_KEYS } from '@kisht/domain/customer-status';
import { abbreviateNumber } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { Skeleton, SKELETON_LARGE, SKELETON_SMALL } from '../../../shared/ui/skeleton.tsx';
import { ColumnChart } from '../../../shared/ui/charts/column-chart.tsx';
import { BarChart, type BarItem } from '../../../shared/ui/charts/bar-chart.tsx';
import { selectFeatures } from '../../../shared/config/config-api.ts';
import { useAppSelector } from '../../../shared/state/hooks.ts';
import { ROUTES } from '../../../shared/routes.ts';
import { PRODUCT_TYPE_LABEL_KEYS } from '../../../shared/labels.ts';
import { DASHBOARD_DAYS, useGetDashboardStatsQuery, useGetTotalOutstandingQuery } from '../api/dashboard-api.ts';
import { collectedTotal, collectionPoints, countOfStatus, installedCount, keysLeftTotal, shortRupees } from '../hooks/dashboard-figures.ts';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { INSTALL_TONE } from '../../../shared/ui/status-badges.tsx';
import './dashboard.css';

function StatCard({ label, value, detail, tone, to }: { label: string; value: string; detail?: ReactNode; tone?: 'danger' | 'warning'; to?: string }) {
  const body = (
    <>
      <span className="stat-card__label">{label}</span>
      <strong className={`stat-card__value${tone ? ` text-${tone}` : ''}`}>{value}</strong>
      {detail ? <span className="stat-card__detail">{detail}</span> : null}
    </>
  );
  return <li className="stat-card">{to ? <Link to={to}>{body}</Link> : <div>{body}</div>}</li>;
}

function OutstandingCard() {
  const { t } = useTranslation();
  const { data } = useGetTotalOutstandingQuery();
  if (!data) return null;
  return (
    <section className="card outstanding-card" aria-labelledby="outstanding-title">
      <h2 id="outstanding-title">{t('dashboard.stats.outstanding')}</h2>
      <p className="outstanding-card__amount">{formatRupees(data.outstanding_paise)}</p>
      <p className="muted">
        {t('dashboard.stats.outstandingDetail', { overdue: formatRupees(data.overdue_paise), count: data.customers })}
      </p>
    </section>
  );
}

function Cards({ stats }: { stats: DashboardStats }) {
  const { t } = useTranslation();
  const keys = stats.keys_left
    .filter((k) => k.balance > 0)
    .map((k) => `${t(PRODUCT_TYPE_LABEL_KEYS[k.product_type] ?? 'productType.other')} ${k.balance}`)
    .join(' · ');
  return (
    <ul className="stat-grid" aria-label={t('dashboard.stats.title')}>
      <StatCard label={t('dashboard.stats.customers')} value={abbreviateNumber(stats.total_customers)} to={ROUTES.customer_list} />
      <StatCard label={t('dashboard.stats.installed')} value={abbreviateNumber(installedCount(stats))} />
      <StatCard
        label={t('dashboard.stats.locked')}
        value={abbreviateNumber(stats.lock.locked)}
        detail={t('dashboard.stats.unlocked', { count: abbreviateNumber(stats.lock.unlocked) })}
      />
      <StatCard label={t('dashboard.stats.keysLeft')} value={abbreviateNumber(keysLeftTotal(stats))} detail={keys || undefined} />
      <StatCard
        label={t('dashboard.stats.dueToday')}
        value={abbreviateNumber(stats.emis.due_today)}
        detail={shortRupees(stats.emis.due_today_paise)}
        tone={stats.emis.due_today > 0 ? 'warning' : undefined}
        to={`${ROUTES.up_coming_emi}?filter=today`}
      />
      <StatCard
        label={t('dashboard.stats.overdue')}
        value={abbreviateNumber(stats.emis.overdue)}
        detail={shortRupees(stats.emis.overdue_paise)}
        tone={stats.emis.overdue > 0 ? 'danger' : undefined}
        to={`${ROUTES.up_coming_emi}?filter=overdue`}
      />
    </ul>
  );
}

export function DashboardStatsSection() {
  const { t } = useTranslation();
  const features = useAppSelector(selectFeatures);
  const { data: stats, isLoading, isError, refetch } = useGetDashboardStatsQuery(DASHBOARD_DAYS);

  if (isLoading) {
    return (
      <div className="stack" aria-busy="true" aria-label={t('common.loading')}>
        <div className="stat-grid stat-grid--loading">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} height={SKELETON_SMALL} />
          ))}
        </div>
        <Skeleton height={SKELETON_LARGE} />
        <Skeleton height={SKELETON_LARGE} />
      </div>
    );
  }
  if (!stats) {
    return isError ? (
      <LoadErrorCard message={t('dashboard.stats.loadError')} onRetry={() => void refetch()} as="article" />
    ) : null;
  }

  const statusItems: BarItem[] = Object.values(INSTALL_STATUS).map((status) => ({
    key: String(status),
    label: t(INSTALL_STATUS_LABEL_KEYS[status]),
    value: countOfStatus(stats, status),
    tone: INSTALL_TONE[status],
  }));
  return (
    <>
      <Cards stats={stats} />
      {features.outstanding_amount ? <OutstandingCard /> : null}
      <section className="card" aria-labelledby="collections-title">
        <div className="session-card__title">
          <h2 id="collections-title">{t('dashboard.stats.collections', { days: stats.collections.length || DASHBOARD_DAYS })}</h2>
          <strong>{formatRupees(collectedTotal(stats))}</strong>
        </div>
        <ColumnChart
          title={t('dashboard.stats.collectionsChart')}
          points={collectionPoints(stats)}
          formatValue={(rupees) => `₹${abbreviateNumber(rupees)}`}
          labelHeader={t('dashboard.stats.day')}
          valueHeader={t('dashboard.stats.collected')}
        />
      </section>
      <section className="card" aria-labelledby="by-status-title">
        <h2 id="by-status-title">{t('dashboard.stats.byStatus')}</h2>
        <BarChart title={t('dashboard.stats.byStatus')} items={statusItems} formatValue={(n) => abbreviateNumber(n)} />
      </section>
    </>
  );
}
