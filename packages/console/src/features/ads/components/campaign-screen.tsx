/**
 * One offer's results (send_advertisement?campaign_id=): the offer as it went out, when and to whom, its progress
 * (phones with an outcome, of those targeted), a chart of what became of the offers, why phones were skipped, Stop
 * while it has not finished, and each phone's outcome. The `campaign` stream event moves it all; while the stream
 * is down a slow poll stands in as long as the campaign is running.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Campaign } from '@kisht/contract/ads';
import { formatDateTime } from '@kisht/domain/format';
import { Page } from '../../../shared/ui/page.tsx';
import { Skeleton, SKELETON_LARGE, SKELETON_SMALL } from '../../../shared/ui/skeleton.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { ConfirmDialog } from '../../../shared/ui/confirm-dialog.tsx';
import { Facts } from '../../../shared/ui/facts.tsx';
import { StoredImage } from '../../../shared/ui/document-image.tsx';
import { isApiFailure, isOffline } from '../../../shared/api/api-failure.ts';
import { useServerEventsLive } from '../../../shared/api/server-events.ts';
import { advertisementPath } from '../../../shared/routes.ts';
import { adsApi, isCreativeImagePath, useCancelCampaignMutation, useGetCampaignQuery, useGetCreativeImageQuery } from '../api/ads-api.ts';
import {
  audienceSummary,
  CAMPAIGN_STATUS_LABEL_KEYS,
  CAMPAIGN_STATUS_TONE,
  campaignPollMs,
  campaignProgress,
  isCampaignOpen,
  skipReasons,
} from '../hooks/campaign-outcomes.ts';
import { CampaignProgress } from './campaign-progress.tsx';
import { CampaignWhen } from './campaign-list.tsx';
import { OutcomeChart } from './outcome-chart.tsx';
import { CampaignTargetList } from './campaign-targets.tsx';
import { linkHost } from './offer-preview.tsx';

function CampaignImage({ url, alt }: { url: string; alt: string }) {
  const fetchable = isCreativeImagePath(url);
  const { data, isLoading, isError } = useGetCreativeImageQuery(url, { skip: !fetchable });
  return <StoredImage url={data} available={fetchable} isLoading={isLoading} isError={isError} alt={alt} className="campaign-image" />;
}

function AudienceText({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation();
  const summary = audienceSummary(campaign.audience);
  const parts = summary.parts.map((part) => ('key' in part ? t(part.key) : part.text)).join(', ');
  return <>{summary.count !== undefined ? t(summary.key, { count: summary.count }) : t(summary.key, { filter: parts })}</>;
}

export function CampaignScreen({ campaignId }: { campaignId: number }) {
  const { t } = useTranslation();
  const { data: cached } = adsApi.endpoints.getCampaign.useQueryState(campaignId);
  const running = cached ? campaignProgress(cached).running : false;
  const streamLive = useServerEventsLive();
  const { data: campaign, isLoading, error, refetch } = useGetCampaignQuery(campaignId, { pollingInterval: campaignPollMs(running, streamLive) });
  const [cancel, { isLoading: cancelling }] = useCancelCampaignMutation();
  const [confirming, setConfirming] = useState(false);

  async function stop() {
    setConfirming(false);
    try {
      // "Offer stopped." is the toast; a campaign that has just gone out says so (CAMPAIGN_FINISHED) and shows as sent.
      await cancel({ campaign_id: campaignId }).unwrap();
    } catch {
      void refetch();
    }
  }

  const back = (
    <Link className="button button--secondary button--small" to={advertisementPath({ tab: 'sent' })}>
      {t('ads.campaign.allOffers')}
    </Link>
  );

  if (isLoading) {
    return (
      <Page title={t('ads.campaign.title')} actions={back}>
        <div className="stack" aria-busy="true" aria-label={t('common.loading')}>
          <Skeleton height={SKELETON_SMALL} />
          <Skeleton height={SKELETON_LARGE} />
        </div>
      </Page>
    );
  }
  if (!campaign) {
    const notFound = isApiFailure(error) && error.code === 'NOT_FOUND';
    return (
      <Page title={t('ads.campaign.title')} actions={back}>
        <LoadErrorCard
          message={notFound ? t('ads.campaign.notFound') : isOffline(error) ? t('ads.offline') : t('ads.campaign.loadError')}
          onRetry={notFound ? undefined : () => void refetch()}
        />
      </Page>
    );
  }

  const host = campaign.link ? linkHost(campaign.link) : null;
  const reasons = skipReasons(campaign);
  const open = isCampaignOpen(campaign.status);
  return (
    <Page title={t('ads.campaign.title')} actions={back}>
      <section className="card" aria-labelledby="ads-campaign-offer">
        <div className="campaign-row__top">
          <h2 id="ads-campaign-offer" className="campaign-row__title">
            {campaign.title}
          </h2>
          <span className={`badge badge--${CAMPAIGN_STATUS_TONE[campaign.status]}`}>{t(CAMPAIGN_STATUS_LABEL_KEYS[campaign.status])}</span>
        </div>
        <p className="campaign-text">{campaign.text}</p>
        {campaign.image_url ? <CampaignImage url={campaign.image_url} alt={t('ads.preview.imageAlt')} /> : null}
        <Facts
          rows={[
            [t('ads.campaign.when'), <CampaignWhen key="when" campaign={campaign} />],
            [t('ads.campaign.who'), <AudienceText key="who" campaign={campaign} />],
            [t('ads.campaign.link'), host ?? t('ads.campaign.noLink')],
            [t('ads.campaign.madeBy'), `${campaign.created_by} · ${formatDateTime(campaign.created_at)}`],
          ]}
        />
      </section>

      <section className="card" aria-labelledby="ads-campaign-results">
        <h2 id="ads-campaign-results">{t('ads.campaign.results')}</h2>
        <CampaignProgress campaign={campaign} label={t('ads.progress.label')} />
        <OutcomeChart campaign={campaign} />
        {reasons.length > 0 ? (
          <>
            <h3 className="ads-subtitle">{t('ads.skips.title')}</h3>
            <ul className="ads-reasons">
              {reasons.map((row) => (
                <li key={row.reason}>{t('ads.skips.row', { reason: t(row.labelKey), count: row.count })}</li>
              ))}
            </ul>
          </>
        ) : null}
        {open ? (
          <div className="button-row">
            <button type="button" className="button button--danger button--small" disabled={cancelling} onClick={() => setConfirming(true)}>
              {t('ads.campaign.stop')}
            </button>
          </div>
        ) : null}
      </section>

      <CampaignTargetList campaignId={campaign.id} />

      <ConfirmDialog
        open={confirming}
        title={t('ads.campaign.stopTitle')}
        message={t('ads.campaign.stopMessage')}
        confirmLabel={t('ads.campaign.stop')}
        cancelLabel={t('ads.campaign.keep')}
        danger
        busy={cancelling}
        onConfirm={() => void stop()}
        onCancel={() => setConfirming(false)}
      />
    </Page>
  );
}
