/** Gateway orders, newest first, with their status; a pending one reopens its QR, a paid EMI order links to its receipt. */
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { PaymentOrderView } from '@kisht/contract/payments';
import { formatDateTime } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { receiptPath } from '../../../shared/routes.ts';
import { useGetBalanceTypesQuery } from '../../../shared/network/member-api.ts';
import { useGetPaymentOrdersInfiniteQuery } from '../api/payments-api.ts';
import { mergeMorePages } from '../../../shared/api/paging.ts';
import { isOfflineFailure } from '../hooks/offline.ts';
import { OrderStatusBadge } from './payment-badges.tsx';
import { OrderQrDialog } from './order-qr.tsx';
import './payments.css';

function useProductName(): (productType: number | null) => string {
  const { data: types } = useGetBalanceTypesQuery();
  return (productType) => types?.find((type) => type.product_type === productType)?.name ?? `#${productType ?? ''}`;
}

function OrderItem({ order, onShowQr }: { order: PaymentOrderView; onShowQr: (order: PaymentOrderView) => void }) {
  const { t } = useTranslation();
  const productName = useProductName();
  const what =
    order.purpose === 'keys'
      ? t('gateway.orders.keys', { count: order.quantity ?? 0, product: productName(order.product_type) })
      : t('gateway.orders.emi', { name: order.customer_name ?? '' });
  return (
    <li className="card order-item">
      <div className="order-item__head">
        <span className="order-item__what">{what}</span>
        <OrderStatusBadge status={order.status} />
      </div>
      <p className="order-item__amount">{formatRupees(order.amount_paise)}</p>
      <p className="muted small">
        {order.paid_at ? t('gateway.orders.paidAt', { time: formatDateTime(order.paid_at) }) : t('gateway.orders.createdAt', { time: formatDateTime(order.created_at) })}
      </p>
      {order.status === 'held' ? <p className="small order-item__held">{t('gateway.orders.held')}</p> : null}
      {order.status === 'pending' && (order.upi_link || order.short_url) ? (
        <button type="button" className="button button--secondary button--small" onClick={() => onShowQr(order)}>
          {t('gateway.orders.showQr')}
        </button>
      ) : null}
      {order.purpose === 'emi' && order.status === 'paid' && order.receipt_no && order.customer_id !== null ? (
        <Link className="button button--secondary button--small" to={receiptPath(order.customer_id, order.receipt_no)}>
          {t('gateway.receipt', { number: order.receipt_no })}
        </Link>
      ) : null}
    </li>
  );
}

export function OrdersSection() {
  const { t } = useTranslation();
  const [showing, setShowing] = useState<PaymentOrderView | null>(null);
  const { data, error, isError, hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = useGetPaymentOrdersInfiniteQuery({});
  const items = mergeMorePages(data?.pages);
  return (
    <section className="stack" aria-labelledby="orders-title">
      <h2 id="orders-title">{t('gateway.orders.title')}</h2>
      {!data ? (
        isError ? <LoadErrorCard message={isOfflineFailure(error) ? t('gateway.offline') : t('gateway.orders.loadError')} onRetry={() => void refetch()} /> : null
      ) : items.length === 0 ? (
        <p className="card empty-state">{t('gateway.orders.empty')}</p>
      ) : (
        <ul className="list">
          {items.map((order) => (
            <OrderItem key={order.id} order={order} onShowQr={setShowing} />
          ))}
        </ul>
      )}
      <LoadMore hasMore={hasNextPage} loading={isFetchingNextPage} onLoadMore={() => void fetchNextPage()} />
      {showing ? <OrderQrDialog order={items.find((order) => order.id === showing.id) ?? showing} title={t('gateway.qr.title')} onClose={() => setShowing(null)} /> : null}
    </section>
  );
}
