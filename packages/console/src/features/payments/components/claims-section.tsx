/**
 * Customers' "I paid" claims (a payment to the retailer's own UPI ID, which sends nothing back): each open one is
 * confirmed (asking for the amount, prefilled with what the customer claimed, which the ledger records) or rejected
 * with a reason, which the customer's locked phone shows; confirmed ones link to their receipt.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { PaymentClaimView } from '@kisht/contract/payments';
import { formatDateTime } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { ChoiceFormDialog } from '../../../shared/ui/form-dialog.tsx';
import { AmountDialog } from './amount-dialog.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { ShortText } from '../../../shared/ui/short-text.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { customerPath, receiptPath } from '../../../shared/routes.ts';
import { useDecideClaimMutation, useGetPaymentClaimsInfiniteQuery, type ClaimFilter } from '../api/payments-api.ts';
import { checkReason, CLAIM_REASON_MAX, claimAmountText } from '../hooks/payment-rules.ts';
import { mergeMorePages } from '../../../shared/api/paging.ts';
import { isOfflineFailure } from '../hooks/offline.ts';
import { ClaimStatusBadge } from './payment-badges.tsx';
import './payments.css';

function ConfirmClaimDialog({ claim, onClose }: { claim: PaymentClaimView; onClose: () => void }) {
  const { t } = useTranslation();
  const [decide, { isLoading }] = useDecideClaimMutation();
  return (
    <AmountDialog
      title={t('gateway.claims.confirmTitle', { name: claim.customer_name })}
      help={t('gateway.claims.confirmHelp')}
      submitLabel={t('gateway.claims.confirm')}
      initial={claimAmountText(claim)}
      busy={isLoading}
      onSave={(paise) => decide({ id: claim.id, decision: 'confirm', amount_paise: paise }).unwrap()}
      onClose={onClose}
    />
  );
}

function RejectClaimDialog({ claim, onClose }: { claim: PaymentClaimView; onClose: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [decide, { isLoading }] = useDecideClaimMutation();
  async function submit() {
    const checked = checkReason(text);
    if ('error' in checked) return setError(checked.error === 'required' ? t('common.required') : t('gateway.claims.reasonTooLong', { max: CLAIM_REASON_MAX }));
    try {
      await decide({ id: claim.id, decision: 'reject', reason: checked.reason }).unwrap();
      onClose();
    } catch {
      // The error toast says why (e.g. already decided).
    }
  }
  return (
    <ChoiceFormDialog
      title={t('gateway.claims.rejectTitle', { name: claim.customer_name })}
      busy={isLoading}
      onClose={onClose}
      onSubmit={() => void submit()}
      choices={[{ value: 'reject', label: t('gateway.claims.reject'), danger: true }]}
    >
      <p className="muted small">{t('gateway.claims.rejectHelp')}</p>
      <TextField
        label={t('gateway.claims.reasonLabel')}
        autoComplete="off"
        maxLength={CLAIM_REASON_MAX}
        value={text}
        error={error}
        onChange={(event) => {
          setText(event.target.value);
          setError(null);
        }}
      />
    </ChoiceFormDialog>
  );
}

function ClaimItem({ claim, onDecide }: { claim: PaymentClaimView; onDecide?: (decision: Decision) => void }) {
  const { t } = useTranslation();
  return (
    <li className="card claim-item">
      <div className="claim-item__head">
        <Link className="claim-item__name" to={customerPath('customer_details', claim.customer_id)}>
          <ShortText className="customer-row__name" text={claim.customer_name} />
        </Link>
        <ClaimStatusBadge status={claim.status} />
      </div>
      <p className="claim-item__amount">{claim.amount_paise === null ? t('gateway.claims.noAmount') : formatRupees(claim.amount_paise)}</p>
      <p className="muted small">
        {t('gateway.claims.claimedAt', { time: formatDateTime(claim.created_at) })}
        {claim.reference ? ` · ${t('gateway.claims.reference', { reference: claim.reference })}` : ''}
      </p>
      {claim.status === 'open' && onDecide ? (
        <div className="button-row">
          <button type="button" className="button button--primary button--small" aria-label={`${t('gateway.claims.confirm')}: ${claim.customer_name}`} onClick={() => onDecide({ claim, kind: 'confirm' })}>
            {t('gateway.claims.confirm')}
          </button>
          <button type="button" className="button button--danger button--small" aria-label={`${t('gateway.claims.reject')}: ${claim.customer_name}`} onClick={() => onDecide({ claim, kind: 'reject' })}>
            {t('gateway.claims.reject')}
          </button>
        </div>
      ) : null}
      {claim.status === 'confirmed' && claim.receipt_no ? (
        <Link className="button button--secondary button--small" to={receiptPath(claim.customer_id, claim.receipt_no)}>
          {t('gateway.receipt', { number: claim.receipt_no })}
        </Link>
      ) : null}
    </li>
  );
}

/** The decision a retailer opened a dialog for. */
interface Decision {
  claim: PaymentClaimView;
  kind: 'confirm' | 'reject';
}

function ClaimList({ filter, empty, onDecide }: { filter: ClaimFilter; empty: string; onDecide?: (decision: Decision) => void }) {
  const { t } = useTranslation();
  const { data, error, isError, hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = useGetPaymentClaimsInfiniteQuery(filter);
  if (!data) return isError ? <LoadErrorCard message={isOfflineFailure(error) ? t('gateway.offline') : t('gateway.claims.loadError')} onRetry={() => void refetch()} /> : null;
  const items = mergeMorePages(data.pages);
  return (
    <>
      {items.length === 0 ? (
        <p className="card empty-state">{empty}</p>
      ) : (
        <ul className="list">
          {items.map((claim) => (
            <ClaimItem key={claim.id} claim={claim} {...(onDecide ? { onDecide } : {})} />
          ))}
        </ul>
      )}
      <LoadMore hasMore={hasNextPage} loading={isFetchingNextPage} onLoadMore={() => void fetchNextPage()} />
    </>
  );
}

export function OpenClaims() {
  const { t } = useTranslation();
  const [deciding, setDeciding] = useState<Decision | null>(null);
  const close = () => setDeciding(null);
  return (
    <section className="stack" aria-labelledby="claims-title">
      <h2 id="claims-title">{t('gateway.claims.title')}</h2>
      <p className="muted small">{t('gateway.claims.help')}</p>
      <ClaimList filter={{ status: 'open' }} empty={t('gateway.claims.empty')} onDecide={setDeciding} />
      {deciding?.kind === 'confirm' ? <ConfirmClaimDialog key={deciding.claim.id} claim={deciding.claim} onClose={close} /> : null}
      {deciding?.kind === 'reject' ? <RejectClaimDialog key={deciding.claim.id} claim={deciding.claim} onClose={close} /> : null}
    </section>
  );
}

export function ConfirmedClaims() {
  const { t } = useTranslation();
  return (
    <section className="stack" aria-labelledby="confirmed-claims-title">
      <h2 id="confirmed-claims-title">{t('gateway.claims.confirmedTitle')}</h2>
      <ClaimList filter={{ status: 'confirmed' }} empty={t('gateway.claims.confirmedEmpty')} />
    </section>
  );
}
