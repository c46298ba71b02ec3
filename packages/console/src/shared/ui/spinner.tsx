/** The loading spinner: an SVG ring (stroke 5, width 30) with a translated accessible name. */
import { useTranslation } from 'react-i18next';
import { SPINNER } from '@kisht/domain/constants';

export function Spinner({ label }: { label?: string }) {
  const { t } = useTranslation();
  const size = SPINNER.width;
  const radius = (size - SPINNER.stroke) / 2;
  const circumference = 2 * Math.PI * radius;
  return (
    <svg
      className="spinner"
      role="progressbar"
      aria-label={label ?? t('common.loading')}
      width={size}
      height={size}
      viewBox={`0 0 ${size} ${size}`}
    >
      <circle
        cx={size / 2}
        cy={size / 2}
        r={radius}
        fill="none"
        stroke="currentColor"
        strokeWidth={SPINNER.stroke}
        strokeLinecap="round"
        strokeDasharray={`${circumference * 0.7} ${circumference}`}
      />
    </svg>
  );
}
