/** One reported SIM change: who, the phone, old SIMs -> new SIMs, when and where. */
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { SimChange } from '@kisht/contract/devices';
import { formatDateTime } from '@kisht/domain/format';
import { customerPath } from '../../../shared/routes.ts';
import { readLocation, readSims } from '../hooks/command-status.ts';
import { LocationText, SimList } from './command-history.tsx';
import { ShortText } from '../../../shared/ui/short-text.tsx';
import './devices.css';

export function SimChangeItem({ change, showCustomer }: { change: SimChange; showCustomer: boolean }) {
  const { t } = useTranslation();
  const location = readLocation(change.location);
  return (
    <li className="card sim-change">
      {showCustomer ? (
        <div className="customer-row__top">
          <Link className="customer-row__name" to={customerPath('customer_details', change.customer_id)}>
            <ShortText text={change.customer_name} />
          </Link>
          <span className="muted small nowrap">{formatDateTime(change.changed_at)}</span>
        </div>
      ) : (
        <p className="muted small">{formatDateTime(change.changed_at)}</p>
      )}
      {showCustomer ? (
        <p className="muted small">
          {change.mobile} · {t('simChanges.imei')} {change.imei1}
        </p>
      ) : null}
      <div className="sim-change__sims">
        <div>
          <span className="summary-grid__label">{t('simChanges.oldSims')}</span>
          <SimList sims={readSims(change.old_sims) ?? []} />
        </div>
        <span aria-hidden="true" className="sim-change__arrow">
          →
        </span>
        <div>
          <span className="summary-grid__label">{t('simChanges.newSims')}</span>
          <SimList sims={readSims(change.new_sims) ?? []} />
        </div>
      </div>
      <p className="small">
        {t('simChanges.place')}: {location ? <LocationText location={location} /> : t('simChanges.unknownPlace')}
      </p>
      {change.alerted_to.length > 0 ? <p className="small sim-change__alert">{t('simChanges.alerted', { mobiles: change.alerted_to.join(', ') })}</p> : null}
      {change.lost_mode_on ? <p className="small sim-change__alert"><strong>{t('simChanges.lostModeOn')}</strong></p> : null}
    </li>
  );
}
