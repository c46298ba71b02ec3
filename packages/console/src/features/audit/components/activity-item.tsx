/** One activity row: what was done and how it ended, when, by whom, about which customer, from where. */
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '@kisht/contract/audit';
import { formatDateTime, truncateText } from '@kisht/domain/format';
import { customerPath } from '../../../shared/routes.ts';
import { actionLabelKey, OUTCOME_TONE, outcomeOf } from '../hooks/activity-labels.ts';
import './audit.css';

/** Names longer than this are cut with an ellipsis (the whole name stays in the tooltip). */
const NAME_LIMIT = 28;

export function ActivityItem({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const labelKey = actionLabelKey(entry.action);
  const label = labelKey ? t(labelKey) : entry.action;
  const outcome = outcomeOf(entry.status);
  const origin = typeof entry.targets.origin === 'string' ? entry.targets.origin : null;
  const who =
    entry.actor === 'system'
      ? `${t('audit.actor.system')}${origin ? ` · ${t(`device.origin.${origin}`, { defaultValue: origin })}` : ''}`
      : entry.actor === 'operator'
        ? t('audit.actor.operator')
        : entry.user_name ?? t('audit.actor.anonymous');
  const refusedBecause = outcome !== 'done' && entry.error_code ? t(`errors.${entry.error_code}`, { defaultValue: entry.error_code }) : null;
  const place = [entry.ip, entry.device].filter(Boolean).join(' · ');

  return (
    <li className="card customer-row activity-row">
      <span className="customer-row__top">
        <span className="customer-row__name" title={label}>
          {label}
        </span>
        <span className={`badge badge--${OUTCOME_TONE[outcome]}`}>{t(`audit.outcome.${outcome}`)}</span>
      </span>
      <span className="customer-row__line muted nowrap">{formatDateTime(entry.at)}</span>
      <span className="customer-row__line" title={who}>
        {t('audit.by')} <strong>{truncateText(who, NAME_LIMIT)}</strong>
      </span>
      {entry.customer_id !== null ? (
        <span className="customer-row__line">
          {t('audit.customer')}{' '}
          {entry.customer_name ? (
            <Link to={customerPath('customer_details', entry.customer_id)} title={entry.customer_name}>
              {truncateText(entry.customer_name, NAME_LIMIT)}
            </Link>
          ) : (
            `#${entry.customer_id}`
          )}
        </span>
      ) : null}
      {refusedBecause ? <span className="customer-row__line">{refusedBecause}</span> : null}
      {place ? (
        <span className="customer-row__line muted small" title={entry.user_agent ?? undefined}>
          {t('audit.from')} {place}
        </span>
      ) : null}
    </li>
  );
}
