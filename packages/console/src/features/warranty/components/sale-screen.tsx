/**
 * One extended warranty sold: the buyer, the phone and the cover with its state, the certificate to send, the claims
 * with their history and next steps, and the actions (raise a claim while the plan covers the phone; cancel the plan
 * while its cover has not ended). The screen a sale lands on, and the one the list's Details opens.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { WarrantyClaim, WarrantySale } from '@kisht/contract/warranty';
import { formatDate } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { Page } from '../../../shared/ui/page.tsx';
import { Facts } from '../../../shared/ui/facts.tsx';
import { Skeleton, SKELETON_LARGE, SKELETON_SMALL } from '../../../shared/ui/skeleton.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { isApiFailure, isOffline } from '../../../shared/api/api-failure.ts';
import { useGetDetailsQuery } from '../../../shared/auth/session-api.ts';
import { customerListPath, customerPath, ROUTES } from '../../../shared/routes.ts';
import { useGetWarrantySaleQuery } from '../api/warranty-api.ts';
import { canClaim, canRevoke, SALE_STATE_LABEL_KEYS, SALE_STATE_TONE } from '../hooks/sales.ts';
import type { MoveTarget } from '../hooks/claims.ts';
import { CertificateCard } from './certificate-card.tsx';
import { ClaimsCard } from './claims-card.tsx';
import { RaiseClaimDialog } from './raise-claim-dialog.tsx';
import { MoveClaimDialog } from './move-claim-dialog.tsx';
import { RevokeDialog } from './revoke-dialog.tsx';
import './warranty.css';

function SaleSummary({ sale, onClaim, onRevoke }: { sale: WarrantySale; onClaim: () => void; onRevoke: () => void }) {
  const { t } = useTranslation();
  const { data: profile } = useGetDetailsQuery();
  const name = `${sale.first_name} ${sale.last_name}`.trim();
  return (
    <article className="card warranty-summary" aria-labelledby="warranty-summary-title">
      <div className="warranty-summary__top">
        <h2 id="warranty-summary-title" className="warranty-summary__name">
          {name}
        </h2>
        <span className={`badge badge--${SALE_STATE_TONE[sale.state]}`}>{t(SALE_STATE_LABEL_KEYS[sale.state])}</span>
      </div>
      <Facts
        rows={[
          [t('warranty.certificate.number'), <span className="nowrap">{sale.certificate_no}</span>],
          [t('warranty.plan'), sale.plan_name],
          [t('warranty.certificate.device'), `${sale.brand} ${sale.model}`],
          [t('warranty.certificate.imei'), sale.imei],
          [t('warranty.certificate.mobile'), sale.mobile],
          [t('warranty.certificate.invoiceValue'), formatRupees(sale.invoice_value_paise)],
          [t('warranty.certificate.coverFrom'), formatDate(sale.cover_start)],
          [t('warranty.certificate.coverUntil'), formatDate(sale.cover_end)],
          [t('warranty.sale.claims'), t('warranty.sale.claimsUsed', { used: sale.claims_used, max: sale.rules.max_claims })],
        ]}
      />
      {sale.state === 'waiting' ? <p className="muted small">{t('warranty.sale.claimsFrom', { date: formatDate(sale.cover_start) })}</p> : null}
      {sale.revoke_reason ? <p className="muted small">{t('warranty.sale.cancelledBecause', { reason: sale.revoke_reason })}</p> : null}
      {sale.retailer_name && sale.retailer_id !== profile?.id ? <p className="muted small">{t('antihacking.list.soldBy', { name: sale.retailer_name })}</p> : null}
      {sale.customer_id !== null ? (
        <Link className="link-button" to={customerPath('customer_details', sale.customer_id)}>
          {t('warranty.sale.customer')}
        </Link>
      ) : null}
      <div className="button-row">
        {canClaim(sale) ? (
          <button type="button" className="button button--primary button--small" aria-haspopup="dialog" onClick={onClaim}>
            {t('warranty.claim.raise')}
          </button>
        ) : null}
        {canRevoke(sale) ? (
          <button type="button" className="button button--danger button--small" aria-haspopup="dialog" onClick={onRevoke}>
            {t('warranty.revoke.button')}
          </button>
        ) : null}
      </div>
    </article>
  );
}

type Open = { kind: 'claim' } | { kind: 'revoke' } | { kind: 'move'; claim: WarrantyClaim; to: MoveTarget } | null;

export function SaleScreen({ saleId }: { saleId: number }) {
  const { t } = useTranslation();
  const { data: sale, isLoading, error, refetch } = useGetWarrantySaleQuery(saleId);
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);

  if (isLoading) {
    return (
      <Page title={t('warranty.sale.title')}>
        <div className="stack" aria-busy="true" aria-label={t('common.loading')}>
          <Skeleton height={SKELETON_LARGE} />
          <Skeleton height={SKELETON_LARGE} />
          <Skeleton height={SKELETON_SMALL} />
        </div>
      </Page>
    );
  }
  if (!sale) {
    const notFound = isApiFailure(error) && error.code === 'NOT_FOUND';
    return (
      <Page title={t('warranty.sale.title')}>
        <LoadErrorCard
          message={notFound ? t('warranty.sale.notFound') : isOffline(error) ? t('warranty.offline') : t('warranty.sale.loadError')}
          onRetry={notFound ? undefined : () => void refetch()}
        />
        <Link className="button button--secondary button--small" to={customerListPath('warranty')}>
          {t('warranty.sale.allSales')}
        </Link>
      </Page>
    );
  }

  return (
    <Page title={t('warranty.sale.title')}>
      <div className="stack warranty-sale-page">
        <SaleSummary sale={sale} onClaim={() => setOpen({ kind: 'claim' })} onRevoke={() => setOpen({ kind: 'revoke' })} />
        <CertificateCard sale={sale} />
        <ClaimsCard sale={sale} onMove={(claim, to) => setOpen({ kind: 'move', claim, to })} />
        <div className="button-row">
          <Link className="button button--secondary button--small" to={customerListPath('warranty')}>
            {t('warranty.sale.allSales')}
          </Link>
          <Link className="button button--secondary button--small" to={ROUTES.extended_warranty}>
            {t('warranty.sale.sellAnother')}
          </Link>
        </div>
      </div>
      {open?.kind === 'claim' ? <RaiseClaimDialog sale={sale} onClose={close} /> : null}
      {open?.kind === 'revoke' ? <RevokeDialog sale={sale} onClose={close} /> : null}
      {open?.kind === 'move' ? <MoveClaimDialog sale={sale} claim={open.claim} to={open.to} onClose={close} /> : null}
    </Page>
  );
}
