/**
 * "Collect by UPI" on customer details, where the organisation's payment gateway is on: an order for what the
 * customer owes now, shown as a UPI QR to scan at the counter, or also sent to the customer's mobile by SMS.
 * The payment is recorded (with its receipt) when the gateway confirms it; nothing to type.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PaymentOrderView } from '@kisht/contract/payments';
import { INSTALL_STATUS } from '@kisht/domain/constants';
import { selectFeatures } from '../../../shared/config/config-api.ts';
import { useAppSelector } from '../../../shared/state/hooks.ts';
import type { CustomerPaymentSectionProps } from '../../../shared/customers/payment-section.ts';
import { useCreateCustomerOrderMutation, useGetPaymentOrdersInfiniteQuery } from '../api/payments-api.ts';
import { newIdempotencyKey } from '../hooks/payment-rules.ts';
import { mergeMorePages } from '../../../shared/api/paging.ts';
import { OrderQrDialog } from './order-qr.tsx';
import './payments.css';

/** A finished loan (removed or all EMIs paid) has nothing to collect. */
const CLOSED: readonly number[] = [INSTALL_STATUS.uninstall, INSTALL_STATUS.emis_completed];

export function CollectByUpi({ customerId, profile }: CustomerPaymentSectionProps) {
  const { t } = useTranslation();
  const gatewayOn = useAppSelector(selectFeatures).payment_gateway;
  const [create, { isLoading }] = useCreateCustomerOrderMutation();
  // One request id per order being opened: a retry after a failed answer opens the same order.
  const [key, setKey] = useState(newIdempotencyKey);
  const [order, setOrder] = useState<PaymentOrderView | null>(null);
  // Once an order is open, its status as the server's payment events move it: paid shows as paid, with no reload.
  const { data: orders } = useGetPaymentOrdersInfiniteQuery({ customer_id: customerId }, { skip: !order });
  const shown = (order && mergeMorePages(orders?.pages).find((row) => row.id === order.id)) ?? order;
  if (!gatewayOn || CLOSED.includes(profile.install_status)) return null;

  async function collect(sendSms: boolean) {
    try {
      const created = await create({ customer_id: customerId, idempotency_key: key, ...(sendSms ? { send_sms: true } : {}) }).unwrap();
      setKey(newIdempotencyKey());
      setOrder(created);
    } catch {
      // The error toast says why (nothing due, gateway not set up).
    }
  }

  return (
    <section className="card stack" aria-labelledby="collect-upi-title">
      <h2 id="collect-upi-title">{t('gateway.collect.title')}</h2>
      <p className="muted small">{t('gateway.collect.help')}</p>
      <div className="button-row">
        <button type="button" className="button button--primary button--small" disabled={isLoading} onClick={() => void collect(false)}>
          {t('gateway.collect.showQr')}
        </button>
        <button type="button" className="button button--secondary button--small" disabled={isLoading} onClick={() => void collect(true)}>
          {t('gateway.collect.sendSms')}
        </button>
      </div>
      {shown ? <OrderQrDialog order={shown} title={t('gateway.collect.title')} onClose={() => setOrder(null)} /> : null}
    </section>
  );
}
