/**
 * The customer details screen's Plans section: the extended warranties sold for the customer (linked to them, or
 * sold to their mobile number) with their claims, and the anti-hacking plans on their mobile; and selling a
 * warranty for the customer's phone, the form filled in from their details.
 */
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CustomerPlans } from '@kisht/contract/warranty';
import type { AntihackingSale } from '@kisht/contract/plans';
import { formatDate } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { Skeleton, SKELETON_SMALL } from '../../../shared/ui/skeleton.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import type { CustomerPlansSectionProps } from '../../../shared/customers/plans-section.ts';
import { warrantyPath } from '../../../shared/routes.ts';
import { useGetCustomerPlansQuery } from '../api/warranty-api.ts';
import { SALE_STATE_LABEL_KEYS, SALE_STATE_TONE, saleDateLine } from '../hooks/sales.ts';
import { CAUSE_LABEL_KEYS, CLAIM_STATE_LABEL_KEYS, CLAIM_STATE_TONE } from '../hooks/claims.ts';
import { isOffline } from '../../../shared/api/api-failure.ts';
import './warranty.css';

/** Anti-hacking code states, worded as the anti-hacking list words them. */
const ANTIHACKING_STATE: Record<AntihackingSale['state'], { key: string; tone: string }> = {
  issued: { key: 'antihacking.state.issued', tone: 'info' },
  activated: { key: 'antihacking.state.activated', tone: 'success' },
  expired: { key: 'antihacking.state.expired', tone: 'warning' },
  revoked: { key: 'antihacking.state.revoked', tone: 'danger' },
};

function WarrantyPlan({ sale }: { sale: CustomerPlans['warranty'][number] }) {
  const { t } = useTranslation();
  const dates = saleDateLine(sale);
  const titleId = `customer-warranty-${sale.id}`;
  return (
    <li className="plan-item">
      <div className="plan-item__top">
        <strong id={titleId}>{sale.plan_name}</strong>
        <span className={`badge badge--${SALE_STATE_TONE[sale.state]}`}>{t(SALE_STATE_LABEL_KEYS[sale.state])}</span>
      </div>
      <p className="muted small">
        <span className="nowrap">{sale.certificate_no}</span>
        {' · '}
        {sale.brand} {sale.model}
        {' · '}
        <span className="nowrap">{t(dates.key, { date: formatDate(dates.date) })}</span>
      </p>
      {sale.claims.length > 0 ? (
        <ul className="plan-item__claims" aria-label={t('warranty.claim.heading')}>
          {sale.claims.map((claim) => (
            <li key={claim.id}>
              <span>{t(CAUSE_LABEL_KEYS[claim.cause])}</span>
              <span className="muted small nowrap">{formatDate(claim.claim_date)}</span>
              <span className={`badge badge--${CLAIM_STATE_TONE[claim.state]}`}>{t(CLAIM_STATE_LABEL_KEYS[claim.state])}</span>
              {claim.payable_paise !== null ? (
                <span className="small nowrap">{t('warranty.plans.payable', { amount: formatRupees(claim.payable_paise) })}</span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">{t('warranty.claim.none')}</p>
      )}
      <Link className="button button--secondary button--small" to={warrantyPath({ saleId: sale.id })} aria-describedby={titleId}>
        {t('warranty.list.details')}
      </Link>
    </li>
  );
}

function AntihackingPlan({ sale }: { sale: AntihackingSale }) {
  const { t } = useTranslation();
  const state = ANTIHACKING_STATE[sale.state];
  const ends = sale.state === 'revoked' ? 'antihacking.list.cancelled' : sale.state === 'expired' ? 'antihacking.list.expired' : 'antihacking.list.expires';
  return (
    <li className="plan-item">
      <div className="plan-item__top">
        <strong>{sale.plan_name}</strong>
        <span className={`badge badge--${state.tone}`}>{t(state.key)}</span>
      </div>
      <p className="muted small">{t(ends, { date: formatDate(sale.state === 'revoked' ? (sale.revoked_at ?? sale.expires_at) : sale.expires_at) })}</p>
    </li>
  );
}

export function CustomerPlansSection({ customerId }: CustomerPlansSectionProps) {
  const { t } = useTranslation();
  const { data, isLoading, isError, error, refetch } = useGetCustomerPlansQuery(customerId);
  return (
    <section className="card" aria-labelledby="customer-plans-title">
      <h2 id="customer-plans-title">{t('warranty.plans.title')}</h2>
      {isLoading ? (
        <Skeleton height={SKELETON_SMALL} />
      ) : !data && isError ? (
        <LoadErrorCard message={isOffline(error) ? t('warranty.offline') : t('warranty.plans.loadError')} onRetry={() => void refetch()} />
      ) : data && data.warranty.length + data.antihacking.length > 0 ? (
        <>
          {data.warranty.length > 0 ? (
            <>
              <h3 className="plan-group__title">{t('warranty.title')}</h3>
              <ul className="plan-list">
                {data.warranty.map((sale) => (
                  <WarrantyPlan key={sale.id} sale={sale} />
                ))}
              </ul>
            </>
          ) : null}
          {data.antihacking.length > 0 ? (
            <>
              <h3 className="plan-group__title">{t('antihacking.title')}</h3>
              <ul className="plan-list">
                {data.antihacking.map((sale) => (
                  <AntihackingPlan key={sale.id} sale={sale} />
                ))}
              </ul>
            </>
          ) : null}
        </>
      ) : (
        <p className="muted">{t('warranty.plans.none')}</p>
      )}
      <Link className="button button--primary button--small" to={warrantyPath({ customerId })}>
        {t('warranty.nav')}
      </Link>
    </section>
  );
}
