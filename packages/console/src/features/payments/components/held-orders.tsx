/**
 * Gateway payments held for review (the amount or currency did not match the order, or the loan could no longer
 * take it): each with its reason and what the gateway reported. After checking the account, the retailer records
 * the amount received as the customer's payment (once, with a receipt) or marks the money refunded. Nothing shows
 * while no payment is held.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PaymentOrderView } from '@kisht/contract/payments';
import { formatDateTime } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { ConfirmDialog } from '../../../shared/ui/confirm-dialog.tsx';
import { ShortText } from '../../../shared/ui/short-text.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { useGetPaymentOrdersInfiniteQuery, useResolveHeldOrderMutation } from '../api/payments-api.ts';
import { HELD_REASON_KEYS, receivedAmountText } from '../hooks/payment-rules.ts';
import { mergeMorePages } from '../../../shared/api/paging.ts';
import { isOfflineFailure } from '../hooks/offline.ts';
import { AmountDialog } from './amount-dialog.tsx';
import './payments.css';

function RecordDialog({ order, onClose }: { order: PaymentOrderView; onClose: () => void }) {
  const { t } = useTranslation();
  const [resolve, { isLoading }] = useResolveHeldOrderMutation();
  return (
    <AmountDialog
      title={t('gateway.held.recordTitle', { name: order.customer_name ?? '' })}
      help={t('gateway.held.recordHelp')}
      submitLabel={t('gateway.held.record')}
      initial={receivedAmountText(order)}
      busy={isLoading}
      onSave={(paise) => resolve({ id: order.id, action: 'record', amount_paise: paise }).unwrap()}
      onClose={onClose}
    />
  );
}

function RefundDialog({ order, onClose }: { order: PaymentOrderView; onClose: () => void }) {
  const { t } = useTranslation();
  const [resolve, { isLoading }] = useResolveHeldOrderMutation();
  return (
    <ConfirmDialog
      open
      title={t('gateway.held.refundTitle')}
      message={t('gateway.held.refundMessage')}
      confirmLabel={t('gateway.held.refund')}
      busy={isLoading}
      onCancel={onClose}
      onConfirm={() => void resolve({ id: order.id, action: 'refund' }).unwrap().then(onClose, () => undefined)}
    />
  );
}

/** What the gateway reported paid, next to what was asked. */
function receivedText(order: PaymentOrderView, t: (key: string, values?: Record<string, unknown>) => string): string | null {
  if (order.received_currency && order.received_currency !== 'INR') return t('gateway.held.receivedOther', { currency: order.received_currency });
  return order.received_paise !== null ? t('gateway.held.received', { amount: formatRupees(order.received_paise) }) : null;
}

interface Review {
  order: PaymentOrderView;
  kind: 'record' | 'refund';
}

function HeldItem({ order, onReview }: { order: PaymentOrderView; onReview: (review: Review) => void }) {
  const { t } = useTranslation();
  const name = order.customer_name ?? t('gateway.held.keys');
  const reasonKey = order.held_reason ? HELD_REASON_KEYS[order.held_reason] : undefined;
  const received = receivedText(order, t);
  return (
    <li className="card order-item">
      <div className="order-item__head">
        <ShortText className="customer-row__name" text={name} />
        <span className="muted small">{formatDateTime(order.created_at)}</span>
      </div>
      <p className="small">
        {t('gateway.held.ordered', { amount: formatRupees(order.amount_paise) })}
        {received ? ` · ${received}` : ''}
      </p>
      <p className="small order-item__held">{reasonKey ? t(reasonKey) : order.held_reason}</p>
      <div className="button-row">
        {order.purpose === 'emi' ? (
          <button type="button" className="button button--primary button--small" aria-label={`${t('gateway.held.record')}: ${name}`} onClick={() => onReview({ order, kind: 'record' })}>
            {t('gateway.held.record')}
          </button>
        ) : null}
        <button type="button" className="button button--secondary button--small" aria-label={`${t('gateway.held.refund')}: ${name}`} onClick={() => onReview({ order, kind: 'refund' })}>
          {t('gateway.held.refund')}
        </button>
      </div>
    </li>
  );
}

export function HeldOrders() {
  const { t } = useTranslation();
  const [review, setReview] = useState<Review | null>(null);
  const { data, error, isError, hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = useGetPaymentOrdersInfiniteQuery({ status: 'held' });
  const items = mergeMorePages(data?.pages);
  const close = () => setReview(null);
  if (!data) return isError ? <LoadErrorCard message={isOfflineFailure(error) ? t('gateway.offline') : t('gateway.orders.loadError')} onRetry={() => void refetch()} /> : null;
  if (items.length === 0) return null;
  return (
    <section className="stack" aria-labelledby="held-title">
      <h2 id="held-title">{t('gateway.held.title')}</h2>
      <p className="muted small">{t('gateway.held.help')}</p>
      <ul className="list">
        {items.map((order) => (
          <HeldItem key={order.id} order={order} onReview={setReview} />
        ))}
      </ul>
      <LoadMore hasMore={hasNextPage} loading={isFetchingNextPage} onLoadMore={() => void fetchNextPage()} />
      {review?.kind === 'record' ? <RecordDialog key={review.order.id} order={review.order} onClose={close} /> : null}
      {review?.kind === 'refund' ? <RefundDialog key={review.order.id} order={review.order} onClose={close} /> : null}
    </section>
  );
}
