/**
 * One customer: profile, device, loan, status, EMI summary, documents and the edit menu (skeletons while
 * loading). The device channel's sections fill the DeviceSection slot, collecting by UPI the PaymentSection slot,
 * the plans sold for the customer's phone the PlansSection slot (composed in src/app).
 */
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { hasLoan } from '@kisht/domain/plans';
import type { CustomerProfile } from '@kisht/contract/customers';
import { formatDate } from '@kisht/domain/format';
import { PROVISIONING_TYPE } from '@kisht/domain/constants';
import { formatRupees } from '@kisht/domain/money';
import { Page } from '../../../shared/ui/page.tsx';
import { Facts } from '../../../shared/ui/facts.tsx';
import { Skeleton, SKELETON_LARGE, SKELETON_SMALL } from '../../../shared/ui/skeleton.tsx';
import { DocumentImage } from '../../../shared/ui/document-image.tsx';
import { InstallStatusBadge, LockStatusBadge } from '../../../shared/ui/status-badges.tsx';
import { NotFoundScreen } from '../../../shared/ui/not-found-screen.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { SummaryGrid } from '../../../shared/ui/summary-grid.tsx';
import { isApiFailure } from '../../../shared/api/api-failure.ts';
import { useGetCustomerProfileQuery, useGetEmiDetailsQuery } from '../../../shared/customers/customer-api.ts';
import { summariseEmis } from '../../../shared/customers/emi-summary.ts';
import { editMenuFor } from '@kisht/domain/edit-menu';
import { methodText, rateText, tenureText } from '../../../shared/customers/loan-words.ts';
import { PROVISIONING_LABEL_KEYS } from '../../../shared/labels.ts';
import { appleDetailsPath, customerPath, parseCustomerId } from '../../../shared/routes.ts';
import { useGetPlansQuery } from '../../../shared/catalogue/catalogue-api.ts';
import { selectFeatures } from '../../../shared/config/config-api.ts';
import { useAppSelector } from '../../../shared/state/hooks.ts';
import type { CustomerDeviceSection } from '../../../shared/customers/device-section.ts';
import type { CustomerPaymentSection } from '../../../shared/customers/payment-section.ts';
import type { CustomerPlansSection } from '../../../shared/customers/plans-section.ts';
import { EditMenuDialog } from './edit-menu-dialog.tsx';
import { DetailsEditDialog, ImeiEditDialog } from './customer-edit-dialogs.tsx';
import { customerPlan, planYearsLeft } from '../hooks/plan-validity.ts';
import './customers.css';

function initials(profile: CustomerProfile): string {
  return `${profile.first_name.charAt(0)}${profile.last_name.charAt(0)}`.toUpperCase();
}

function EmiSummaryCard({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const { data, isLoading, isError } = useGetEmiDetailsQuery(customerId);
  if (isLoading) return <Skeleton height={SKELETON_SMALL} />;
  const summary = data ? summariseEmis(data) : null;
  return (
    <section className="card" aria-labelledby="emi-summary-title">
      <h2 id="emi-summary-title">{t('customerDetails.emiSummary')}</h2>
      {summary ? (
        <>
          <SummaryGrid
            items={[
              { label: t('emi.outstanding'), value: formatRupees(summary.outstandingPaise) },
              { label: t('emi.overdue'), value: formatRupees(summary.overduePaise), danger: summary.overduePaise > 0 },
            ]}
          />
          <p className="muted">
            {summary.next
              ? t('customerDetails.nextDue', { date: formatDate(summary.next.due_date), amount: formatRupees(summary.next.outstanding_paise) })
              : t('customerDetails.allPaid')}
          </p>
          <p className="muted small">{t('customerDetails.paidCount', { paid: summary.paidCount, count: summary.count })}</p>
        </>
      ) : isError ? (
        <p>{t('customerDetails.emiError')}</p>
      ) : null}
      <div className="button-row">
        <Link className="button button--primary button--small" to={customerPath('view_emi_details', customerId)}>
          {t('customerDetails.viewEmis')}
        </Link>
        <Link className="button button--secondary button--small" to={customerPath('emi_details', customerId)}>
          {t('customerDetails.emiPlan')}
        </Link>
      </div>
    </section>
  );
}

export function CustomerDetailsScreen({
  DeviceSection,
  PaymentSection,
  PlansSection,
}: {
  DeviceSection?: CustomerDeviceSection;
  PaymentSection?: CustomerPaymentSection;
  PlansSection?: CustomerPlansSection;
}) {
  const { t } = useTranslation();
  const customerId = parseCustomerId(useParams().customer_id);
  // currentData: moving from one customer to another must not show (or ask for the EMIs of) the previous one's
  // profile while the next loads; a phone on a plan alone has no EMIs to ask for.
  const { currentData: profile, isFetching, isError, error, refetch } = useGetCustomerProfileQuery(customerId ?? 0, { skip: customerId === null });
  const isLoading = !profile && isFetching;
  const [menuOpen, setMenuOpen] = useState(false);
  const [editing, setEditing] = useState<'imei' | 'details' | null>(null);
  const [checkStatusRequest, setCheckStatusRequest] = useState(0);
  const features = useAppSelector(selectFeatures);
  const { data: plans } = useGetPlansQuery(profile?.product_id ?? 0, { skip: !profile });

  if (customerId === null) return <NotFoundScreen />;
  if (isLoading) {
    return (
      <Page title={t('customerDetails.title')}>
        <div className="stack" aria-busy="true" aria-label={t('common.loading')}>
          <Skeleton height={SKELETON_LARGE} />
          <Skeleton height={SKELETON_SMALL} />
          <Skeleton height={SKELETON_LARGE} />
          <Skeleton height={SKELETON_SMALL} />
        </div>
      </Page>
    );
  }
  if (!profile) {
    const notFound = isError && isApiFailure(error) && error.code === 'NOT_FOUND';
    return (
      <Page title={t('customerDetails.title')}>
        <LoadErrorCard
          message={notFound ? t('customerDetails.notFound') : t('customerDetails.loadError')}
          onRetry={notFound ? undefined : () => void refetch()}
        />
      </Page>
    );
  }

  const name = `${profile.first_name} ${profile.last_name}`.trim();
  const plan = customerPlan(plans, profile.plan_id);
  const years = plan ? planYearsLeft(plan.validity_days, profile.created_at) : null;
  const provisioningKey = PROVISIONING_LABEL_KEYS[profile.provisioning_type];
  // A phone on a plan alone (anti-theft or family care without a loan) has no loan, EMIs or collection.
  const loan = hasLoan(profile) ? profile : null;
  const documents: [string, boolean][] = [
    [t('documents.type.photo'), profile.has_photo],
    [t('documents.type.signature'), profile.has_signature],
    // The witness signature is listed where the organisation uses it, or when one was stored before.
    ...(features.witness_signature || profile.has_witness_signature
      ? ([[t('documents.type.witness_signature'), profile.has_witness_signature]] as [string, boolean][])
      : []),
    [t('documents.type.invoice'), profile.has_invoice],
  ];

  return (
    <Page
      title={t('customerDetails.title')}
      actions={
        <button type="button" className="button button--secondary button--small" aria-haspopup="dialog" onClick={() => setMenuOpen(true)}>
          {t('customerDetails.edit')}
        </button>
      }
    >
      <article className="card profile-card">
        {profile.has_photo ? (
          <DocumentImage
            className="profile-card__photo"
            customerId={customerId}
            documentType="photo"
            available
            alt={t('customerDetails.photoOf', { name })}
            placeholderHeight={72}
          />
        ) : (
          <span className="profile-card__avatar" aria-hidden="true">
            {initials(profile)}
          </span>
        )}
        <div className="profile-card__text">
          <h2>{name}</h2>
          <p className="muted">{profile.mobile}</p>
          <div className="badge-row">
            <InstallStatusBadge status={profile.install_status} />
            <LockStatusBadge status={profile.lock_status} />
          </div>
          <button type="button" className="button button--secondary button--small" aria-haspopup="dialog" onClick={() => setEditing('details')}>
            {t('customerEdit.editDetails')}
          </button>
        </div>
      </article>

      {loan ? <EmiSummaryCard customerId={customerId} /> : null}
      {PaymentSection && loan ? <PaymentSection customerId={customerId} profile={profile} /> : null}

      <section className="card" aria-labelledby="device-title">
        <h2 id="device-title">{t('customerDetails.device')}</h2>
        <Facts
          rows={[
            [t('device.brand'), profile.device_brand],
            [t('device.model'), profile.device_model],
            [t('device.imei1'), profile.imei1],
            [t('device.imei2'), profile.imei2],
            [t('device.serial'), profile.serial_number],
            [t('device.provisioning'), provisioningKey ? t(provisioningKey) : String(profile.provisioning_type)],
            [t('customerDetails.plan'), plan?.name],
            [t('customerDetails.yearsLeft'), years === null ? null : String(years)],
          ]}
        />
        {profile.provisioning_type === PROVISIONING_TYPE.APPLE ? (
          <Link className="button button--secondary button--small" to={appleDetailsPath(customerId)}>
            {t('apple.details.title')}
          </Link>
        ) : null}
      </section>

      {DeviceSection ? <DeviceSection customerId={customerId} profile={profile} checkStatusRequest={checkStatusRequest} /> : null}

      <section className="card" aria-labelledby="loan-title">
        <h2 id="loan-title">{loan ? t('customerDetails.loan') : t('planPhone.planOnlyTitle')}</h2>
        {loan ? (
          <Facts
            rows={[
              [t('loan.price'), formatRupees(loan.price_paise)],
              [t('loan.downPayment'), formatRupees(loan.down_payment_paise)],
              [t('loan.processingFee'), formatRupees(loan.processing_fee_paise)],
              [t('loan.emi'), formatRupees(loan.emi_paise)],
              ...(loan.loan_terms ? ([[t('addCustomer.loanProduct'), loan.loan_terms.product.name]] as [string, string][]) : []),
              [t('loan.tenure'), tenureText(loan, t)],
              [t('loan.advanceEmis'), String(loan.advance_emis)],
              [t('loan.rate'), rateText(loan, t)],
              [t('loan.methodLabel'), methodText(loan, t)],
              [t('loan.firstDueDate'), formatDate(loan.first_due_date)],
              [t('customerDetails.enrolledOn'), formatDate(profile.created_at)],
            ]}
          />
        ) : (
          <>
            <p className="muted">{t('planPhone.planOnly')}</p>
            <Facts rows={[[t('customerDetails.enrolledOn'), formatDate(profile.created_at)]]} />
          </>
        )}
      </section>

      {PlansSection ? <PlansSection customerId={customerId} profile={profile} /> : null}

      <section className="card" aria-labelledby="documents-title">
        <h2 id="documents-title">{t('customerDetails.documents')}</h2>
        <ul className="doc-checklist">
          {documents.map(([label, present]) => (
            <li key={label} className={present ? 'doc-checklist__item--done' : 'doc-checklist__item--missing'}>
              <span>{label}</span>
              <span className="muted small">{present ? t('documents.uploaded') : t('documents.notUploaded')}</span>
            </li>
          ))}
        </ul>
        <Link className="button button--secondary button--small" to={customerPath('customer_documents', customerId)}>
          {t('customerDetails.manageDocuments')}
        </Link>
      </section>

      <EditMenuDialog
        open={menuOpen}
        onClose={() => setMenuOpen(false)}
        actions={editMenuFor(profile)}
        customerId={customerId}
        onImeiEdit={() => {
          setMenuOpen(false);
          setEditing('imei');
        }}
        onCheckStatus={() => {
          setMenuOpen(false);
          setCheckStatusRequest((count) => count + 1);
        }}
      />
      {editing === 'imei' ? <ImeiEditDialog profile={profile} onClose={() => setEditing(null)} /> : null}
      {editing === 'details' ? <DetailsEditDialog profile={profile} onClose={() => setEditing(null)} /> : null}
    </Page>
  );
}
