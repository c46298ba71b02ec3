/**
 * A gateway order to pay now: the amount, its UPI QR code (what `upi_link` holds, for any UPI app to scan), a link
 * that opens a UPI app on this phone, and the gateway's payment page where it offers one.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { PaymentOrderView } from '@kisht/contract/payments';
import { formatDateTime } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { Dialog } from '../../../shared/ui/dialog.tsx';
import { qrImage } from '../../../shared/ui/qr-svg.ts';
import { OrderStatusBadge } from './payment-badges.tsx';
import './payments.css';

export function OrderQr({ order }: { order: PaymentOrderView }) {
  const { t } = useTranslation();
  const image = useMemo(() => (order.upi_link ? qrImage(order.upi_link) : null), [order.upi_link]);
  const payable = order.status === 'pending';
  return (
    <div className="order-qr">
      <p className="order-qr__amount">{formatRupees(order.amount_paise)}</p>
      <OrderStatusBadge status={order.status} />
      {payable && image ? (
        <>
          <img className="order-qr__image" src={image.dataUrl} alt={t('gateway.qr.imageLabel', { amount: formatRupees(order.amount_paise) })} />
          <p className="muted small">{t('gateway.qr.scan')}</p>
        </>
      ) : null}
      {payable ? (
        <div className="button-row order-qr__links">
          {order.upi_link ? (
            <a className="button button--secondary button--small" href={order.upi_link}>
              {t('gateway.qr.openUpiApp')}
            </a>
          ) : null}
          {order.short_url ? (
            <a className="button button--secondary button--small" href={order.short_url} target="_blank" rel="noopener noreferrer">
              {t('gateway.qr.openPage')}
            </a>
          ) : null}
        </div>
      ) : null}
      {payable && order.expires_at ? <p className="muted small">{t('gateway.qr.expires', { time: formatDateTime(order.expires_at) })}</p> : null}
      <p className="muted small order-qr__ref">{t('gateway.qr.reference', { id: order.id })}</p>
    </div>
  );
}

export function OrderQrDialog({ order, title, onClose }: { order: PaymentOrderView; title: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open
      title={title}
      onClose={onClose}
      actions={
        <button type="button" className="button button--primary" onClick={onClose}>
          {t('common.close')}
        </button>
      }
    >
      <OrderQr order={order} />
    </Dialog>
  );
}
