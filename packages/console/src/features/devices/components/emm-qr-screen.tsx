/**
 * EMM QR (?customer_id=): the code a DPC phone scans at setup (a fresh single-use token each time), or
 * for LINKFL phones the enrolment deep link, for iPhones the way to Apple details (they enrol there, by MDM).
 * Other provisioning types get the server's answer.
 */
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PROVISIONING_TYPE } from '@kisht/domain/constants';
import { formatDateTime } from '@kisht/domain/format';
import { Page } from '../../../shared/ui/page.tsx';
import { NotFoundScreen } from '../../../shared/ui/not-found-screen.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { isApiFailure } from '../../../shared/api/api-failure.ts';
import { useGetCustomerProfileQuery } from '../../../shared/customers/customer-api.ts';
import { appleDetailsPath, customerPath, parseCustomerId } from '../../../shared/routes.ts';
import { toastKey } from '../../../shared/ui/toast-store.ts';
import { useGetDeepLinkQuery, useGetEmmCodeQuery } from '../api/enrolment-api.ts';
import { qrImage } from '../../../shared/ui/qr-svg.ts';
import './devices.css';

function QrCard({ text, expiresAt, onRenew, renewing, label }: { text: string; expiresAt: string; onRenew: () => void; renewing: boolean; label: string }) {
  const { t } = useTranslation();
  const image = useMemo(() => qrImage(text), [text]);
  return (
    <article className="card emm-qr">
      <img className="emm-qr__image" role="img" aria-label={label} alt={label} src={image.dataUrl} />
      <p className="muted small">{t('emmQr.expires', { time: formatDateTime(expiresAt) })}</p>
      <div className="button-row">
        <button type="button" className="button button--secondary button--small" onClick={onRenew} disabled={renewing}>
          {t('emmQr.newCode')}
        </button>
      </div>
      <details className="emm-qr__payload">
        <summary>{t('emmQr.showText')}</summary>
        <pre>{text}</pre>
      </details>
    </article>
  );
}

function failureText(error: unknown, fallback: string): string {
  return isApiFailure(error) ? error.message : fallback;
}

function DeviceQr({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const { data, error, isFetching, refetch } = useGetEmmCodeQuery(customerId, { refetchOnMountOrArgChange: true });
  if (!data) return error ? <LoadErrorCard message={failureText(error, t('emmQr.loadError'))} /> : null;
  return (
    <>
      <ol className="steps">
        <li>{t('emmQr.step1')}</li>
        <li>{t('emmQr.step2')}</li>
        <li>{t('emmQr.step3')}</li>
      </ol>
      <QrCard text={data.qr_payload} expiresAt={data.expires_at} onRenew={() => void refetch()} renewing={isFetching} label={t('emmQr.imageLabel')} />
    </>
  );
}

function DeepLink({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const { data, error, isFetching, refetch } = useGetDeepLinkQuery(customerId, { refetchOnMountOrArgChange: true });
  if (!data) return error ? <LoadErrorCard message={failureText(error, t('emmQr.loadError'))} /> : null;
  async function copy(link: string) {
    try {
      await navigator.clipboard.writeText(link);
      toastKey('success', 'emmQr.linkCopied');
    } catch {
      toastKey('error', 'device.code.copyFailed');
    }
  }
  return (
    <>
      <p>{t('emmQr.deepLinkIntro')}</p>
      <p className="code-view__link">
        <a href={data.link}>{data.link}</a>
      </p>
      <div className="button-row">
        <button type="button" className="button button--primary button--small" onClick={() => void copy(data.link)}>
          {t('emmQr.copyLink')}
        </button>
      </div>
      <QrCard text={data.link} expiresAt={data.expires_at} onRenew={() => void refetch()} renewing={isFetching} label={t('emmQr.linkImageLabel')} />
    </>
  );
}

export function EmmQrScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const customerId = parseCustomerId(params.get('customer_id'));
  const { data: profile, error, refetch } = useGetCustomerProfileQuery(customerId ?? 0, { skip: customerId === null });
  if (customerId === null) return <NotFoundScreen />;

  return (
    <Page title={t('emmQr.title')}>
      {profile ? (
        <>
          <p className="page-subtitle">
            <Link to={customerPath('customer_details', customerId)}>{`${profile.first_name} ${profile.last_name}`.trim()}</Link>
            {` · ${profile.imei1}`}
          </p>
          {profile.provisioning_type === PROVISIONING_TYPE.APPLE ? (
            <div className="card stack">
              <p>{t('emmQr.appleIntro')}</p>
              <Link className="button button--primary button--block" to={appleDetailsPath(customerId)}>
                {t('apple.details.title')}
              </Link>
            </div>
          ) : profile.provisioning_type === PROVISIONING_TYPE.LINKFL ? (
            <DeepLink customerId={customerId} />
          ) : (
            <DeviceQr customerId={customerId} />
          )}
        </>
      ) : error ? (
        <LoadErrorCard message={failureText(error, t('customerDetails.loadError'))} onRetry={() => void refetch()} />
      ) : null}
    </Page>
  );
}
