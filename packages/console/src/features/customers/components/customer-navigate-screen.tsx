/**
 * Customer navigate (?customer_id=): where an enrolled but not yet installed customer goes next: first
 * the device setup (EMM QR) screen, then the customer's other screens.
 */
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { hasLoan } from '@kisht/domain/plans';
import { formatRupees } from '@kisht/domain/money';
import { Page } from '../../../shared/ui/page.tsx';
import { Facts } from '../../../shared/ui/facts.tsx';
import { InstallStatusBadge } from '../../../shared/ui/status-badges.tsx';
import { NotFoundScreen } from '../../../shared/ui/not-found-screen.tsx';
import { useGetCustomerProfileQuery } from '../../../shared/customers/customer-api.ts';
import { INSTALL_STATUS, PROVISIONING_TYPE } from '@kisht/domain/constants';
import { appleDetailsPath, customerPath, emmQrPath, parseCustomerId } from '../../../shared/routes.ts';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { CancelEnrolmentButton } from './cancel-enrolment-button.tsx';

export function CustomerNavigateScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const customerId = parseCustomerId(params.get('customer_id'));
  const { data: profile, isError, refetch } = useGetCustomerProfileQuery(customerId ?? 0, { skip: customerId === null });
  if (customerId === null) return <NotFoundScreen />;

  return (
    <Page title={t('customerNavigate.title')}>
      {profile ? (
        <article className="card">
          <div className="session-card__title">
            <h2>{`${profile.first_name} ${profile.last_name}`.trim()}</h2>
            <InstallStatusBadge status={profile.install_status} />
          </div>
          <p className="muted">{t('customerNavigate.intro')}</p>
          <Facts
            rows={[
              [t('customers.mobile'), profile.mobile],
              [t('customerNavigate.device'), [profile.device_brand, profile.device_model].filter(Boolean).join(' ')],
              [t('device.imei1'), profile.imei1],
              [t('device.imei2'), profile.imei2],
              [t('loan.emi'), hasLoan(profile) ? t('customerNavigate.emiLine', { amount: formatRupees(profile.emi_paise), count: profile.tenure_months }) : t('customers.planOnly')],
            ]}
          />
        </article>
      ) : isError ? (
        <LoadErrorCard message={t('customerDetails.loadError')} onRetry={() => void refetch()} />
      ) : null}
      <nav className="stack" aria-label={t('customerNavigate.next')}>
        {/* An iPhone is set up from Apple details (MDM), every other phone from the EMM QR. */}
        <Link
          className="button button--primary button--block"
          to={profile?.provisioning_type === PROVISIONING_TYPE.APPLE ? appleDetailsPath(customerId) : emmQrPath(customerId)}
        >
          {t('customerNavigate.deviceSetup')}
        </Link>
        <Link className="button button--secondary button--block" to={customerPath('customer_details', customerId)}>
          {t('customerNavigate.details')}
        </Link>
        <Link className="button button--secondary button--block" to={customerPath('view_emi_details', customerId)}>
          {t('customerNavigate.emis')}
        </Link>
        <Link className="button button--secondary button--block" to={customerPath('customer_documents', customerId)}>
          {t('customerNavigate.documents')}
        </Link>
      </nav>
      {profile && profile.install_status === INSTALL_STATUS.inactive ? (
        <section className="card stack" aria-labelledby="cancel-title">
          <h2 id="cancel-title">{t('customerNavigate.cancelHeading')}</h2>
          <p className="muted">{t('customerNavigate.cancelHelp')}</p>
          <CancelEnrolmentButton customerId={customerId} name={`${profile.first_name} ${profile.last_name}`.trim()} />
        </section>
      ) : null}
    </Page>
  );
}
