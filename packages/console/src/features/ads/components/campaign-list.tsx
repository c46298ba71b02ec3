/**
 * The offers sent, newest first, 10 a page: each with its status, when it goes or went out, its progress and
 * headline numbers, and Results (the campaign's screen). The `campaign` stream event moves the bars; while the
 * stream is down a slow poll stands in as long as one of them is running.
 */
import { useMemo } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Campaign } from '@kisht/contract/ads';
import { formatDateTime } from '@kisht/domain/format';
import { SkeletonList } from '../../../shared/ui/skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { isOffline } from '../../../shared/api/api-failure.ts';
import { mergeMorePages } from '../../../shared/api/paging.ts';
import { useServerEventsLive } from '../../../shared/api/server-events.ts';
import { advertisementPath } from '../../../shared/routes.ts';
import { adsApi, useGetCampaignsInfiniteQuery } from '../api/ads-api.ts';
import { CAMPAIGN_STATUS_LABEL_KEYS, CAMPAIGN_STATUS_TONE, campaignPollMs, campaignProgress } from '../hooks/campaign-outcomes.ts';
import { CampaignProgress } from './campaign-progress.tsx';

/** When the campaign goes out, went out, or why it waits. */
export function CampaignWhen({ campaign }: { campaign: Pick<Campaign, 'status' | 'send_at'> }) {
  const { t } = useTranslation();
  const time = formatDateTime(campaign.send_at);
  if (campaign.status === 'scheduled') return <>{t('ads.when.scheduledFor', { time })}</>;
  if (campaign.status === 'waiting') return <>{t('ads.when.waitingHours')}</>;
  return <>{t('ads.when.sentAt', { time })}</>;
}

function CampaignRow({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation();
  const titleId = `ads-campaign-${campaign.id}-title`;
  return (
    <li className="card campaign-row">
      <div className="campaign-row__top">
        <h3 id={titleId} className="campaign-row__title">
          {campaign.title}
        </h3>
        <span className={`badge badge--${CAMPAIGN_STATUS_TONE[campaign.status]}`}>{t(CAMPAIGN_STATUS_LABEL_KEYS[campaign.status])}</span>
      </div>
      <p className="muted small">
        <CampaignWhen campaign={campaign} />
      </p>
      <CampaignProgress campaign={campaign} label={t('ads.progress.labelOf', { title: campaign.title })} />
      <div className="button-row">
        <Link className="button button--secondary button--small" to={advertisementPath({ campaignId: campaign.id })} aria-describedby={titleId}>
          {t('ads.list.results')}
        </Link>
      </div>
    </li>
  );
}

export function CampaignList() {
  const { t } = useTranslation();
  // A poll only while one shown campaign is running and the stream cannot move its bars.
  const { data: cached } = adsApi.endpoints.getCampaigns.useInfiniteQueryState();
  const running = (cached?.pages ?? []).some((page) => page.items.some((c) => campaignProgress(c).running));
  const streamLive = useServerEventsLive();
  const { data, isFetching, isError, error, hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = useGetCampaignsInfiniteQuery(undefined, {
    pollingInterval: campaignPollMs(running, streamLive),
  });
  const items = useMemo(() => mergeMorePages(data?.pages), [data]);

  if (!data && isFetching) return <SkeletonList rows={3} label={t('common.loading')} />;
  if (isError && !data) return <LoadErrorCard message={isOffline(error) ? t('ads.offline') : t('ads.list.loadError')} onRetry={() => void refetch()} />;
  if (items.length === 0) {
    return (
      <div className="card empty-state">
        <p>{t('ads.list.empty')}</p>
        <Link className="button button--primary" to={advertisementPath()}>
          {t('ads.tabs.new')}
        </Link>
      </div>
    );
  }
  return (
    <>
      <ul className="list campaign-list">
        {items.map((campaign) => (
          <CampaignRow key={campaign.id} campaign={campaign} />
        ))}
      </ul>
      <LoadMore hasMore={hasNextPage} loading={isFetchingNextPage} onLoadMore={() => void fetchNextPage()} />
    </>
  );
}
