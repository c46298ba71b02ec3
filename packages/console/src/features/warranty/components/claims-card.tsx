/**
 * A sale's claims, oldest first: the cause, the day raised, the state, the description and photos, what an approved
 * claim pays (the server's figures), the history of moves (who and when), and buttons for the steps the claim may
 * take next (none once it has ended).
 */
import { useTranslation } from 'react-i18next';
import type { WarrantyClaim, WarrantySale } from '@kisht/contract/warranty';
import { formatDate, formatDateTime } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { Facts, type Fact } from '../../../shared/ui/facts.tsx';
import { Skeleton, SKELETON_SMALL } from '../../../shared/ui/skeleton.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { StoredImage } from '../../../shared/ui/document-image.tsx';
import { useGetClaimPhotoQuery, useGetWarrantyClaimsQuery } from '../api/warranty-api.ts';
import { CAUSE_LABEL_KEYS, CLAIM_STATE_LABEL_KEYS, CLAIM_STATE_TONE, MOVE_LABEL_KEYS, nextSteps, type MoveTarget } from '../hooks/claims.ts';
import { percentOf } from '../hooks/rules.ts';
import { isOffline } from '../../../shared/api/api-failure.ts';

function ClaimPhoto({ photoId, alt }: { photoId: number; alt: string }) {
  const { data: url, isLoading, isError } = useGetClaimPhotoQuery(photoId);
  return <StoredImage url={url} available isLoading={isLoading} isError={isError} alt={alt} className="claim-photo" placeholderHeight={72} />;
}

/** What an approved claim pays, as the server worked it out. */
function payoutFacts(claim: WarrantyClaim, t: (key: string, vars?: Record<string, string | number>) => string): Fact[] {
  if (claim.assessed_cost_paise === null) return [];
  const rows: Fact[] = [[t('warranty.claim.payout.assessed'), formatRupees(claim.assessed_cost_paise)]];
  if (claim.cover_limit_paise !== null) rows.push([t('warranty.claim.payout.limit'), formatRupees(claim.cover_limit_paise)]);
  if (claim.device_age_months !== null) rows.push([t('warranty.claim.payout.age'), t('warranty.claim.payout.months', { count: claim.device_age_months })]);
  if (claim.deductible_paise !== null && claim.deductible_bps !== null) {
    rows.push([t('warranty.claim.payout.deductible'), t('warranty.claim.payout.deductibleValue', { amount: formatRupees(claim.deductible_paise), percent: percentOf(claim.deductible_bps) })]);
  }
  if (claim.payable_paise !== null) rows.push([t('warranty.claim.payout.payable'), <strong key="payable">{formatRupees(claim.payable_paise)}</strong>]);
  return rows;
}

function ClaimItem({ claim, onMove }: { claim: WarrantyClaim; onMove: (to: MoveTarget) => void }) {
  const { t } = useTranslation();
  const steps = nextSteps(claim.state);
  const whoId = `claim-${claim.id}-what`;
  return (
    <li className="claim-card">
      <div className="claim-card__top" id={whoId}>
        <strong className="claim-card__cause">{t(CAUSE_LABEL_KEYS[claim.cause])}</strong>
        <span className={`badge badge--${CLAIM_STATE_TONE[claim.state]}`}>{t(CLAIM_STATE_LABEL_KEYS[claim.state])}</span>
      </div>
      <p className="muted small">{t('warranty.claim.raisedOn', { date: formatDate(claim.claim_date) })}</p>
      <p className="claim-card__text">{claim.description}</p>
      {claim.photo_ids.length > 0 ? (
        <ul className="claim-photos" aria-label={t('warranty.claim.photos')}>
          {claim.photo_ids.map((photoId, i) => (
            <li key={photoId}>
              <ClaimPhoto photoId={photoId} alt={t('warranty.claim.photoAlt', { number: i + 1 })} />
            </li>
          ))}
        </ul>
      ) : null}
      {claim.reject_reason ? <p className="claim-card__text">{t('warranty.claim.rejectedBecause', { reason: claim.reject_reason })}</p> : null}
      {claim.assessed_cost_paise !== null ? <Facts rows={payoutFacts(claim, (key, vars) => t(key, vars))} /> : null}
      <p className="claim-card__subtitle">{t('warranty.claim.history')}</p>
      <ol className="claim-history" aria-label={t('warranty.claim.history')}>
        {claim.events.map((event) => (
          <li key={`${event.to_state}-${event.at}`}>
            <span className="claim-history__state">{t(CLAIM_STATE_LABEL_KEYS[event.to_state])}</span>
            <span className="muted small">
              {' · '}
              <span className="nowrap">{formatDateTime(event.at)}</span>
              {event.by_name ? (
                <>
                  {' · '}
                  {t('warranty.claim.by', { name: event.by_name })}
                </>
              ) : null}
            </span>
            {event.note ? <span className="claim-history__note">{event.note}</span> : null}
          </li>
        ))}
      </ol>
      {steps.length > 0 ? (
        <div className="button-row">
          {steps.map((to) => (
            <button
              key={to}
              type="button"
              className={`button button--small ${to === 'rejected' ? 'button--danger' : 'button--secondary'}`}
              aria-haspopup="dialog"
              aria-describedby={whoId}
              onClick={() => onMove(to)}
            >
              {t(MOVE_LABEL_KEYS[to])}
            </button>
          ))}
        </div>
      ) : null}
    </li>
  );
}

export function ClaimsCard({ sale, onMove }: { sale: WarrantySale; onMove: (claim: WarrantyClaim, to: MoveTarget) => void }) {
  const { t } = useTranslation();
  const { data: claims, isLoading, isError, error, refetch } = useGetWarrantyClaimsQuery(sale.id);
  return (
    <section className="card" aria-labelledby="warranty-claims-title">
      <h2 id="warranty-claims-title">{t('warranty.claim.heading')}</h2>
      {isLoading ? (
        <Skeleton height={SKELETON_SMALL} />
      ) : !claims && isError ? (
        <LoadErrorCard message={isOffline(error) ? t('warranty.offline') : t('warranty.claim.loadError')} onRetry={() => void refetch()} />
      ) : claims && claims.length > 0 ? (
        <ul className="list claim-list">
          {claims.map((claim) => (
            <ClaimItem key={claim.id} claim={claim} onMove={(to) => onMove(claim, to)} />
          ))}
        </ul>
      ) : (
        <p className="muted">{t('warranty.claim.none')}</p>
      )}
    </section>
  );
}
