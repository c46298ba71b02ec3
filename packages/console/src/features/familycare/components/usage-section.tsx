/**
 * The phone's screen time as it reported it: a column a day for the last week, and a bar an app for the chosen day
 * (today unless another is chosen), with when it last reported. New reports arrive by themselves (the usage event).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime } from '@kisht/domain/format';
import { BarChart } from '../../../shared/ui/charts/bar-chart.tsx';
import { ColumnChart } from '../../../shared/ui/charts/column-chart.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { Skeleton, SKELETON_LARGE } from '../../../shared/ui/skeleton.tsx';
import { useGetFamilyUsageQuery } from '../api/familycare-api.ts';
import { isOffline } from '../../../shared/api/api-failure.ts';
import { appBars, clockDuration, dayPoints, hasUsage, shownDay, weekdayOf, WEEKDAYS } from '../hooks/usage-chart.ts';
import { useDuration } from '../hooks/use-duration.ts';

export function UsageSection({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const duration = useDuration();
  const { data: usage, isLoading, isError, error, refetch } = useGetFamilyUsageQuery(customerId);
  const [chosen, setChosen] = useState<string | null>(null);

  /** "Thu 26": short enough for the chart's axis. */
  const dayLabel = (day: string) => `${t(`familycare.day.${WEEKDAYS[weekdayOf(day)]!}`)} ${Number(day.slice(8))}`;
  const shown = usage ? shownDay(usage.days, chosen) : undefined;
  const today = usage?.days[usage.days.length - 1]?.day;

  return (
    <section className="card" aria-labelledby="familycare-usage-title">
      <h2 id="familycare-usage-title">{t('familycare.usage.title')}</h2>
      {isLoading ? (
        <Skeleton height={SKELETON_LARGE} />
      ) : !usage ? (
        isError ? <LoadErrorCard message={isOffline(error) ? t('familycare.offline') : t('familycare.usage.loadError')} onRetry={() => void refetch()} /> : null
      ) : !hasUsage(usage) ? (
        <p className="muted">{t('familycare.usage.empty')}</p>
      ) : (
        <>
          {usage.last_report_at ? <p className="small">{t('familycare.usage.lastReport', { time: formatDateTime(usage.last_report_at) })}</p> : null}
          <ColumnChart
            title={t('familycare.usage.perDay')}
            points={dayPoints(usage.days, dayLabel)}
            formatValue={clockDuration}
            labelHeader={t('familycare.usage.day')}
            valueHeader={t('familycare.usage.screenTime')}
          />
          <p className="field__hint">{t('familycare.usage.clockHint')}</p>
          {shown ? (
            <>
              <SelectField label={t('familycare.usage.chooseDay')} value={shown.day} onChange={(event) => setChosen(event.target.value)}>
                {[...usage.days].reverse().map((day) => (
                  <option key={day.day} value={day.day}>
                    {`${day.day === today ? t('familycare.usage.today') : `${dayLabel(day.day)} (${formatDate(day.day)})`}: ${duration(day.total_seconds)}`}
                  </option>
                ))}
              </SelectField>
              {shown.apps.length === 0 ? (
                <p className="muted">{t('familycare.usage.dayEmpty')}</p>
              ) : (
                <>
                  <BarChart title={t('familycare.usage.perApp', { day: formatDate(shown.day) })} items={appBars(shown)} formatValue={clockDuration} />
                  <details className="familycare-apps">
                    <summary>{t('familycare.usage.allApps', { n: String(shown.apps.length) })}</summary>
                    <ul className="familycare-apps__list">
                      {shown.apps.map((app) => (
                        <li key={app.app}>
                          <span className="familycare-apps__name">{app.app}</span> <span className="nowrap">{duration(app.seconds)}</span>
                        </li>
                      ))}
                    </ul>
                  </details>
                </>
              )}
            </>
          ) : null}
        </>
      )}
    </section>
  );
}
