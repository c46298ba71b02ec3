/** Activity: the network's audit log (a mini-retailer's own entries), newest first, by action group and dates. */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { todayInIndia } from '@kisht/domain/format';
import { Page } from '../../../shared/ui/page.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SkeletonList } from '../../../shared/ui/skeleton.tsx';
import { mergePages } from '../../../shared/api/paging.ts';
import { useGetActivityInfiniteQuery, type ActivityFilter } from '../api/audit-api.ts';
import { ACTIVITY_FILTERS, isoDayOrUndefined } from '../hooks/activity-labels.ts';
import { ActivityItem } from './activity-item.tsx';

export function ActivityScreen() {
  const { t } = useTranslation();
  const [action, setAction] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const today = todayInIndia();

  const filter = useMemo<ActivityFilter>(() => {
    const arg: ActivityFilter = {};
    if (action) arg.action = action;
    const fromDay = isoDayOrUndefined(from);
    const toDay = isoDayOrUndefined(to);
    if (fromDay) arg.from = fromDay;
    if (toDay) arg.to = toDay;
    return arg;
  }, [action, from, to]);

  // currentData: after a filter change the previous filter's rows must not show while the new ones load.
  const { currentData: data, error, isFetching, isError, hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = useGetActivityInfiniteQuery(filter);
  const { items, total } = useMemo(() => mergePages(data?.pages, (entry) => entry.id), [data]);
  const offline = (error && 'status' in error && error.status === 'FETCH_ERROR') || (typeof navigator !== 'undefined' && !navigator.onLine);
  const filtered = action !== '' || Boolean(filter.from) || Boolean(filter.to);

  return (
    <Page title={t('audit.title')}>
      <p className="muted small">{t('audit.explain')}</p>
      <div className="list-filters">
        <SelectField label={t('audit.filter.label')} value={action} onChange={(event) => setAction(event.target.value)}>
          {ACTIVITY_FILTERS.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {t(choice.label)}
            </option>
          ))}
        </SelectField>
        <TextField label={t('audit.filter.from')} type="date" value={from} max={to || today} onChange={(event) => setFrom(event.target.value)} />
        <TextField label={t('audit.filter.to')} type="date" value={to} min={from || undefined} max={today} onChange={(event) => setTo(event.target.value)} />
      </div>

      {!data && isFetching ? (
        <SkeletonList rows={5} label={t('common.loading')} />
      ) : isError && !data ? (
        <LoadErrorCard message={offline ? t('audit.offline') : t('audit.loadError')} onRetry={() => void refetch()} />
      ) : data ? (
        <>
          <p className="list-total" aria-live="polite">
            {t('audit.total', { count: total })}
          </p>
          {items.length === 0 ? (
            <p className="card empty-state">{filtered ? t('audit.noMatch') : t('audit.empty')}</p>
          ) : (
            <ul className="list customer-list">
              {items.map((entry) => (
                <ActivityItem key={entry.id} entry={entry} />
              ))}
            </ul>
          )}
          <LoadMore hasMore={hasNextPage} loading={isFetchingNextPage} onLoadMore={() => void fetchNextPage()} />
        </>
      ) : null}
    </Page>
  );
}
