/**
 * Each phone of a campaign with what became of its offer (waiting, skipped, sent, shown, opened, refused, expired)
 * and, when it was skipped or refused, why in words; filtered by state, 50 a page.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@kisht/domain/format';
import { SkeletonList } from '../../../shared/ui/skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { ShortText } from '../../../shared/ui/short-text.tsx';
import { isOffline } from '../../../shared/api/api-failure.ts';
import { mergeMorePages } from '../../../shared/api/paging.ts';
import { useGetCampaignTargetsInfiniteQuery } from '../api/ads-api.ts';
import { reasonKey, TARGET_FILTERS, TARGET_STATE_LABEL_KEYS, TARGET_STATE_TONE, type TargetFilter } from '../hooks/campaign-outcomes.ts';

export function CampaignTargetList({ campaignId }: { campaignId: number }) {
  const { t } = useTranslation();
  const [state, setState] = useState<TargetFilter>('all');
  // currentData: after a filter change the old filter's phones must not show while the new ones load.
  const { currentData: data, isFetching, isError, error, hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = useGetCampaignTargetsInfiniteQuery({ campaignId, state });
  // A phone that moved to another state between two pages can show on both: where first seen wins.
  const items = useMemo(() => mergeMorePages(data?.pages.map((page) => ({ ...page, items: page.items.map((item) => ({ ...item, id: item.customer_id })) }))), [data]);

  return (
    <section className="card" aria-labelledby="ads-targets-title">
      <h2 id="ads-targets-title">{t('ads.targets.title')}</h2>
      <div className="chips" role="group" aria-label={t('ads.targets.filter')}>
        {TARGET_FILTERS.map((filter) => (
          <button key={filter} type="button" className="chip" aria-pressed={state === filter} onClick={() => setState(filter)}>
            {filter === 'all' ? t('customerStatus.all') : t(TARGET_STATE_LABEL_KEYS[filter])}
          </button>
        ))}
      </div>
      {!data && isFetching ? (
        <SkeletonList rows={3} label={t('common.loading')} />
      ) : isError && !data ? (
        <LoadErrorCard message={isOffline(error) ? t('ads.offline') : t('ads.targets.loadError')} onRetry={() => void refetch()} />
      ) : items.length === 0 ? (
        <p className="muted">{state === 'all' ? t('ads.targets.empty') : t('ads.targets.noMatch')}</p>
      ) : (
        <ul className="list target-list">
          {items.map((item) => {
            const why = reasonKey(item.reason);
            return (
              <li key={item.customer_id} className="target-row">
                <ShortText className="target-row__name" text={item.name || `#${item.customer_id}`} />
                <span className={`badge badge--${TARGET_STATE_TONE[item.state]}`}>{t(TARGET_STATE_LABEL_KEYS[item.state])}</span>
                <span className="muted small target-row__detail">
                  {why ? `${t(why)} · ` : ''}
                  <span className="nowrap">{formatDateTime(item.updated_at)}</span>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <LoadMore hasMore={hasNextPage} loading={isFetchingNextPage} onLoadMore={() => void fetchNextPage()} />
    </section>
  );
}
