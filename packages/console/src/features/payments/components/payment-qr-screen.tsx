/**
 * retailer_payment_qr: the retailer's own UPI QR, large, to print or show at the counter; its UPI ID and name
 * (read by the server from the uploaded QR); replacing it; and what a payment to a personal UPI ID means:
 * nothing comes back, so it is recorded by hand or confirmed from the customer's "I paid".
 * The QR shown is drawn from the stored UPI ID (shared/network/upi-qr), like the locked phones' QR.
 */
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../shared/ui/page.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { Facts } from '../../../shared/ui/facts.tsx';
import { ROUTES } from '../../../shared/routes.ts';
import { useGetMemberQuery } from '../../../shared/network/member-api.ts';
import { MemberImageUpload } from '../../../shared/network/member-image.tsx';
import { UpiQr } from '../../../shared/network/upi-qr.tsx';
import { isOfflineFailure } from '../hooks/offline.ts';
import './payments.css';

export function PaymentQrScreen() {
  const { t } = useTranslation();
  const { data: me, error, isError, refetch } = useGetMemberQuery(undefined);

  if (!me) {
    return (
      <Page title={t('paymentQr.title')}>
        {isError ? <LoadErrorCard message={isOfflineFailure(error) ? t('paymentQr.offline') : t('paymentQr.loadError')} onRetry={() => void refetch()} /> : null}
      </Page>
    );
  }

  const hasQr = me.upi_id !== null;
  const shop = me.shop_name || `${me.first_name} ${me.last_name}`.trim();
  return (
    <Page
      title={t('paymentQr.title')}
      actions={
        hasQr ? (
          <button type="button" className="button button--secondary button--small" onClick={() => window.print()}>
            {t('paymentQr.print')}
          </button>
        ) : undefined
      }
    >
      {me.upi_id ? (
        <section className="card payment-qr-print" aria-labelledby="payment-qr-shop">
          <h2 id="payment-qr-shop" className="payment-qr__shop">{shop}</h2>
          <UpiQr vpa={me.upi_id} name={me.upi_name ?? shop} alt={t('paymentQr.imageLabel')} className="payment-qr__image" />
          <Facts
            rows={[
              [t('paymentQr.upiId'), me.upi_id],
              [t('paymentQr.upiName'), me.upi_name],
            ]}
          />
          <p className="payment-qr__scan">{t('paymentQr.scanToPay')}</p>
        </section>
      ) : (
        <p className="card empty-state">{t('paymentQr.empty')}</p>
      )}

      <section className="card stack payment-qr__notice" aria-labelledby="payment-qr-notice">
        <h2 id="payment-qr-notice">{t('paymentQr.noticeTitle')}</h2>
        <p>{t('paymentQr.notice')}</p>
        <Link className="button button--secondary button--small" to={ROUTES.payment_gateway}>
          {t('paymentQr.openClaims')}
        </Link>
      </section>

      <section className="card stack" aria-labelledby="payment-qr-upload">
        <h2 id="payment-qr-upload">{hasQr ? t('paymentQr.replaceTitle') : t('paymentQr.uploadTitle')}</h2>
        <p className="muted small">{t('paymentQr.uploadHelp')}</p>
        <MemberImageUpload imageType="payment_qr" label={t('paymentQr.pick')} />
      </section>
    </Page>
  );
}
