/**
 * The loan's EMI plan (the spec's emi_details, "add/edit"): the terms it was enrolled with and its
 * totals. Editing a plan arrives with later work and shows as "Coming soon".
 */
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { Page } from '../../../shared/ui/page.tsx';
import { Facts } from '../../../shared/ui/facts.tsx';
import { NotFoundScreen } from '../../../shared/ui/not-found-screen.tsx';
import { useGetCustomerProfileQuery, useGetEmiDetailsQuery } from '../../../shared/customers/customer-api.ts';
import { bpsToPercentText } from '../../../shared/rules/money-input.ts';
import { INTEREST_METHOD_LABEL_KEYS } from '../../../shared/labels.ts';
import { customerPath, parseCustomerId } from '../../../shared/routes.ts';

export function EmiPlanScreen() {
  const { t } = useTranslation();
  const customerId = parseCustomerId(useParams().customer_id);
  const { data: profile } = useGetCustomerProfileQuery(customerId ?? 0, { skip: customerId === null });
  const { data: details } = useGetEmiDetailsQuery(customerId ?? 0, { skip: customerId === null });
  if (customerId === null) return <NotFoundScreen />;
  const methodKey = profile ? INTEREST_METHOD_LABEL_KEYS[profile.interest_method as keyof typeof INTEREST_METHOD_LABEL_KEYS] : undefined;
  return (
    <Page title={t('emiPlan.title')}>
      {profile ? (
        <section className="card">
          <h2>{`${profile.first_name} ${profile.last_name}`.trim()}</h2>
          <Facts
            rows={[
              [t('loan.price'), formatRupees(profile.price_paise)],
              [t('loan.downPayment'), formatRupees(profile.down_payment_paise)],
              [t('loan.processingFee'), formatRupees(profile.processing_fee_paise)],
              [t('loan.financed'), formatRupees(profile.price_paise - profile.down_payment_paise)],
              [t('loan.rate'), t('loan.ratePerYear', { rate: bpsToPercentText(profile.annual_rate_bps) })],
              [t('loan.methodLabel'), methodKey ? t(methodKey) : profile.interest_method],
              [t('loan.tenure'), t('loan.months', { count: profile.tenure_months })],
              [t('loan.advanceEmis'), String(profile.advance_emis)],
              [t('loan.emi'), formatRupees(profile.emi_paise)],
              [t('loan.startDate'), formatDate(profile.start_date)],
              [t('loan.firstDueDate'), formatDate(profile.first_due_date)],
              ...(details
                ? ([
                    [t('emi.payable'), formatRupees(details.totals.payable_paise)],
                    [t('emi.paid'), formatRupees(details.totals.paid_paise)],
                    [t('emi.outstanding'), formatRupees(details.totals.outstanding_paise)],
                  ] as [string, string][])
                : []),
            ]}
          />
        </section>
      ) : null}
      <div className="stack">
        <Link className="button button--primary button--block" to={customerPath('view_emi_details', customerId)}>
          {t('customerDetails.viewEmis')}
        </Link>
        <button type="button" className="button button--secondary button--block" disabled aria-describedby="emi-edit-soon">
          {t('emiPlan.edit')}
        </button>
        <p id="emi-edit-soon" className="muted small">
          {t('common.comingSoon')}
        </p>
      </div>
    </Page>
  );
}
