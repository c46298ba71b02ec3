/** Upcoming EMIs: tabs Overdue / Today / Next 7 days with their counts; each row opens the customer's EMIs. */
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { UpcomingList } from '@kisht/contract/emi';
import { daysBetween } from '@kisht/domain/calendar';
import { formatDate, todayInIndia } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { Page } from '../../../shared/ui/page.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { LockStatusBadge } from '../../../shared/ui/status-badges.tsx';
import { mergePages } from '../../../shared/api/paging.ts';
import { customerPath } from '../../../shared/routes.ts';
import { UPCOMING_DAYS, useGetUpcomingCountsQuery, useGetUpcomingEmisInfiniteQuery, type UpcomingFilter } from '../api/upcoming-api.ts';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { ShortText } from '../../../shared/ui/short-text.tsx';

const TABS: { filter: UpcomingFilter; label: string; count: 'overdue' | 'today' | 'next_days' }[] = [
  { filter: 'overdue', label: 'upcoming.tab.overdue', count: 'overdue' },
  { filter: 'today', label: 'upcoming.tab.today', count: 'today' },
  { filter: 'next', label: 'upcoming.tab.next', count: 'next_days' },
];

function isFilter(value: string | null): value is UpcomingFilter {
  return value === 'overdue' || value === 'today' || value === 'next';
}

function UpcomingRow({ item, today }: { item: UpcomingList['items'][number]; today: string }) {
  const { t } = useTranslation();
  const late = item.due_date.slice(0, 10) < today ? daysBetween(item.due_date.slice(0, 10), today) : 0;
  return (
    <li>
      <Link className="card upcoming-row" to={customerPath('view_emi_details', item.customer_id)}>
        <span className="customer-row__top">
          <ShortText className="customer-row__name" text={item.customer_name} />
          <strong>{formatRupees(item.outstanding_paise)}</strong>
        </span>
        <span className="customer-row__line muted">{item.mobile}</span>
        <span className="customer-row__bottom">
          <span>
            {t('upcoming.instalment', { number: item.number, date: formatDate(item.due_date) })}
            {late > 0 ? <span className="text-danger"> · {t('upcoming.daysLate', { count: late })}</span> : null}
          </span>
          <LockStatusBadge status={item.lock_status} />
        </span>
      </Link>
    </li>
  );
}

export function UpcomingEmiScreen() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const requested = params.get('filter');
  const filter: UpcomingFilter = isFilter(requested) ? requested : 'overdue';
  const { data: counts } = useGetUpcomingCountsQuery(UPCOMING_DAYS);
  const { currentData, isFetching, isError, isFetchingNextPage, hasNextPage, fetchNextPage, refetch } = useGetUpcomingEmisInfiniteQuery({
    filter,
    days: UPCOMING_DAYS,
  });
  const { items, total } = useMemo(() => mergePages(currentData?.pages, (item) => item.instalment_id), [currentData]);
  const today = todayInIndia();

  return (
    <Page title={t('upcoming.title')}>
      <div className="tabs" role="tablist" aria-label={t('upcoming.title')}>
        {TABS.map((tab) => (
          <button
            key={tab.filter}
            type="button"
            role="tab"
            id={`upcoming-tab-${tab.filter}`}
            aria-selected={filter === tab.filter}
            aria-controls="upcoming-panel"
            className="tabs__tab"
            onClick={() => setParams({ filter: tab.filter }, { replace: true })}
          >
            <span>{t(tab.label, { days: UPCOMING_DAYS })}</span>
            <span className="tabs__count">{counts ? counts[tab.count] : '–'}</span>
          </button>
        ))}
      </div>
      <div id="upcoming-panel" role="tabpanel" aria-labelledby={`upcoming-tab-${filter}`}>
        {/* This screen uses the global spinner while it loads (only five screens draw skeletons). */}
        {!currentData && isFetching ? null : isError && !currentData ? (
          <LoadErrorCard message={t('upcoming.loadError')} onRetry={() => void refetch()} />
        ) : items.length === 0 ? (
          <p className="card empty-state">{t(`upcoming.empty.${filter}`)}</p>
        ) : (
          <>
            <p className="list-total">{t('customers.total', { count: total })}</p>
            <ul className="list">
              {items.map((item) => (
                <UpcomingRow key={item.instalment_id} item={item} today={today} />
              ))}
            </ul>
            <LoadMore hasMore={hasNextPage} loading={isFetchingNextPage} onLoadMore={() => void fetchNextPage()} />
          </>
        )}
      </div>
    </Page>
  );
}
