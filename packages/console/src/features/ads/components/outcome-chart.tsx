/**
 * What became of a campaign's offers as horizontal bars, each against the phones targeted, with its number and
 * share in text: a list a screen reader reads as it is (no picture to describe), and long words in any language
 * wrap above their bar instead of being cut.
 */
import { useTranslation } from 'react-i18next';
import type { Campaign } from '@kisht/contract/ads';
import { outcomeBars } from '../hooks/campaign-outcomes.ts';

export function OutcomeChart({ campaign }: { campaign: Pick<Campaign, 'counts'> }) {
  const { t } = useTranslation();
  return (
    <figure className="outcome-chart">
      <figcaption className="outcome-chart__title">{t('ads.chart.title', { count: campaign.counts.targeted })}</figcaption>
      <ul className="outcome-chart__rows">
        {outcomeBars(campaign).map((bar) => (
          <li key={bar.key} className="outcome-chart__row">
            <span className="outcome-chart__label">{t(bar.labelKey)}</span>
            <span className="outcome-chart__value">{t('ads.chart.value', { count: bar.value, percent: bar.percent })}</span>
            <span className="outcome-chart__track" aria-hidden="true">
              <span className={`outcome-chart__bar outcome-chart__bar--${bar.tone}`} style={{ width: `${bar.percent}%` }} />
            </span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
