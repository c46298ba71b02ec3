/** A list of labelled values (dt/dd pairs); empty values show N/A. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type Fact = [label: string, value: ReactNode];

export function Facts({ rows }: { rows: readonly Fact[] }) {
  const { t } = useTranslation();
  return (
    <dl className="facts">
      {rows.map(([label, value]) => (
        <div key={label} className="facts__row">
          <dt>{label}</dt>
          <dd>{value === null || value === undefined || value === '' ? t('common.notAvailable') : value}</dd>
        </div>
      ))}
    </dl>
  );
}
