/**
 * A campaign's progress as the bulk lock shows a batch's: a bar of the phones whose outcome is known against the
 * phones targeted, the same in words, and the headline numbers (targeted, skipped, shown, opened).
 */
import { useTranslation } from 'react-i18next';
import type { Campaign } from '@kisht/contract/ads';
import { SummaryGrid } from '../../../shared/ui/summary-grid.tsx';
import { campaignProgress } from '../hooks/campaign-outcomes.ts';

export function CampaignProgress({ campaign, label }: { campaign: Pick<Campaign, 'status' | 'counts'>; label: string }) {
  const { t } = useTranslation();
  const progress = campaignProgress(campaign);
  const percent = progress.total === 0 ? 0 : Math.round((progress.finished / progress.total) * 100);
  const text = t('ads.progress.text', { done: progress.finished, total: progress.total });
  const { counts } = campaign;
  return (
    <>
      <div
        className="progress"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={progress.total}
        aria-valuenow={progress.finished}
        aria-valuetext={text}
      >
        <div className="progress__fill" style={{ width: `${percent}%` }} />
      </div>
      <p className="small">{text}</p>
      <SummaryGrid
        four
        items={[
          { label: t('ads.numbers.targeted'), value: counts.targeted },
          { label: t('ads.numbers.skipped'), value: counts.skipped },
          { label: t('ads.numbers.delivered'), value: counts.delivered },
          { label: t('ads.numbers.opened'), value: counts.opened },
        ]}
      />
    </>
  );
}
