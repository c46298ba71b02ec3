/** The rules every offer goes out under (GET /api/ads/settings), in plain words next to the form. */
import { useTranslation } from 'react-i18next';
import { Skeleton, SKELETON_SMALL } from '../../../shared/ui/skeleton.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { isOffline } from '../../../shared/api/api-failure.ts';
import { useGetAdSettingsQuery } from '../api/ads-api.ts';
import { formatHour, sendsAllDay } from '../hooks/campaign-form.ts';

export function AdRules() {
  const { t } = useTranslation();
  const { data: settings, isLoading, isError, error, refetch } = useGetAdSettingsQuery();
  return (
    <section className="card ads-rules" aria-labelledby="ads-rules-title">
      <h2 id="ads-rules-title">{t('ads.rules.title')}</h2>
      {isLoading ? (
        <Skeleton height={SKELETON_SMALL} />
      ) : !settings ? (
        isError ? <LoadErrorCard message={isOffline(error) ? t('ads.offline') : t('ads.rules.loadError')} onRetry={() => void refetch()} /> : null
      ) : (
        <ul className="ads-rules__list">
          <li>{t('ads.rules.perDay', { count: settings.per_day })}</li>
          <li>{t('ads.rules.perWeek', { count: settings.per_week })}</li>
          <li>
            {sendsAllDay(settings.send_hours)
              ? t('ads.rules.anyHour')
              : t('ads.rules.hours', { from: formatHour(settings.send_hours.from), to: formatHour(settings.send_hours.to) })}
          </li>
          <li>{t('ads.rules.never')}</li>
        </ul>
      )}
    </section>
  );
}
