/** The view EMI screen's lower part: send an EMI alert to the device, the alerts sent, and the payments (each reopens its receipt). */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { CommandStateBadge, EMI_ALERT_STATE_LABEL_KEYS } from '../../../shared/ui/status-badges.tsx';
import { useGetEmiAlertsQuery } from '../../../shared/customers/emi-alert-api.ts';
import { SendEmiAlertDialog } from '../../../shared/customers/send-emi-alert-dialog.tsx';
import { useGetPaymentsQuery } from '../api/emi-edit-api.ts';
import './emi.css';

export function AlertsSection({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const { data: alerts } = useGetEmiAlertsQuery(customerId);
  const [sending, setSending] = useState(false);
  return (
    <section className="card" aria-labelledby="alerts-title">
      <h2 id="alerts-title">{t('emiAlert.title')}</h2>
      <button type="button" className="button button--secondary button--small" aria-haspopup="dialog" onClick={() => setSending(true)}>
        {t('emiAlert.send')}
      </button>
      {alerts && alerts.length === 0 ? <p className="muted small">{t('emiAlert.none')}</p> : null}
      {alerts && alerts.length > 0 ? (
        <ul className="pay-summary">
          {alerts.map((a) => (
            <li key={a.id}>
              <span>{formatDateTime(a.created_at)}</span>
              <span>
                {formatRupees(a.amount_paise)}{' '}
                <CommandStateBadge state={a.status} labelKeys={EMI_ALERT_STATE_LABEL_KEYS} />
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {sending ? <SendEmiAlertDialog customerId={customerId} title={t('emiAlert.send')} intro={t('emiAlert.confirm')} submitLabel={t('emiAlert.send')} onClose={() => setSending(false)} /> : null}
    </section>
  );
}

export function PaymentsSection({ customerId, onOpen }: { customerId: number; onOpen: (paymentId: number) => void }) {
  const { t } = useTranslation();
  const { data: payments } = useGetPaymentsQuery(customerId);
  return (
    <section className="card" aria-labelledby="payments-title">
      <h2 id="payments-title">{t('payments.title')}</h2>
      {payments && payments.length === 0 ? <p className="muted small">{t('payments.none')}</p> : null}
      {payments && payments.length > 0 ? (
        <ul className="nav-list">
          {payments.map((p) => (
            <li key={p.payment_id}>
              <button type="button" className="nav-list__item" onClick={() => onOpen(p.payment_id)}>
                <span>
                  <strong>{p.receipt_no}</strong>
                  <span className="muted small"> {formatDateTime(p.created_at)}</span>
                  <br />
                  <span className="small">{t(`payments.kind.${p.kind}`, { defaultValue: p.kind })}</span>
                  {p.reversed ? (
                    <>
                      {' '}
                      <span className="badge badge--danger">{t('payments.reversed')}</span>
                    </>
                  ) : null}
                </span>
                <span className="nowrap">{formatRupees(p.amount_paise)}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
