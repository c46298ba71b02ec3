/** Screen time in the user's language: "1 h 20 min", "45 min", "2 h". */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { durationParts } from './usage-chart.ts';

export function useDuration(): (seconds: number) => string {
  const { t } = useTranslation();
  return useCallback(
    (seconds: number) => {
      const { hours, minutes } = durationParts(seconds);
      if (hours === 0) return t('familycare.duration.minutes', { minutes: String(minutes) });
      if (minutes === 0) return t('familycare.duration.hours', { hours: String(hours) });
      return t('familycare.duration.hoursMinutes', { hours: String(hours), minutes: String(minutes) });
    },
    [t],
  );
}
