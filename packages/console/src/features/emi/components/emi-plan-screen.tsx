/**
 * The loan's EMI plan (the spec's emi_details, "add/edit"): the terms it was enrolled with and its
 * totals, then the schedule, where each instalment not fully paid can have its due date and amount
 * changed or a penalty added (or, with the penalty_waiver switch, waived), and a new instalment can be
 * added. From here the loan can be closed early (its receipt opens here) and its statement opened; a loan product's
 * Key Fact Statement can be shared with the customer in their language.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { InstalmentView, Receipt } from '@kisht/contract/emi';
import { formatDate } from '@kisht/domain/format';
import { hasLoan } from '@kisht/domain/plans';
import { formatRupees } from '@kisht/domain/money';
import { Page } from '../../../shared/ui/page.tsx';
import { Facts } from '../../../shared/ui/facts.tsx';
import { NotFoundScreen } from '../../../shared/ui/not-found-screen.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { InstalmentAmountCell, InstalmentHeadCells } from '../../../shared/customers/instalment-table.tsx';
import { InstalmentStatusBadge } from '../../../shared/ui/status-badges.tsx';
import { methodText, rateText, tenureText } from '../../../shared/customers/loan-words.ts';
import { customerPath } from '../../../shared/routes.ts';
import { useAppSelector } from '../../../shared/state/hooks.ts';
import { selectUserAccessConfig } from '../../../shared/config/config-api.ts';
import { isEditable, unpaidPenaltyAtMost } from '../hooks/instalment-edit.ts';
import { useCustomerEmis } from '../hooks/use-customer-emis.ts';
import { InstalmentDialog, PenaltyDialog, WaiveDialog } from './instalment-dialogs.tsx';
import { ForecloseDialog } from './foreclose-dialog.tsx';
import { ReceiptDialog } from './receipt-dialog.tsx';
import { KfsShare } from './kfs-share.tsx';
import './emi.css';

type Editing =
  | { kind: 'edit'; instalment: InstalmentView }
  | { kind: 'add' }
  | { kind: 'penalty'; instalment: InstalmentView }
  | { kind: 'waive'; instalment: InstalmentView }
  | { kind: 'foreclose' }
  | { kind: 'receipt'; paymentId: number };

export function EmiPlanScreen() {
  const { t } = useTranslation();
  const { customerId, profile, details, instalments, loadFailed, retry } = useCustomerEmis();
  const [editing, setEditing] = useState<Editing | null>(null);
  // The server refuses a waiver without the switch too (ACCESS_DENIED); this only hides what would be refused.
  const mayWaive = useAppSelector(selectUserAccessConfig).penalty_waiver === '1';
  if (customerId === null) return <NotFoundScreen />;
  const terms = profile?.loan_terms ?? details?.loan_terms ?? null;
  const close = () => setEditing(null);
  const showReceipt = (receipt: Receipt) => setEditing({ kind: 'receipt', paymentId: receipt.payment_id });
  return (
    <Page title={t('emiPlan.title')}>
      {profile && !hasLoan(profile) ? (
        <p className="card empty-state">{t('planPhone.noLoan')}</p>
      ) : profile ? (
        <section className="card">
          <h2>{`${profile.first_name} ${profile.last_name}`.trim()}</h2>
          <Facts
            rows={[
              [t('loan.price'), formatRupees(profile.price_paise)],
              [t('loan.downPayment'), formatRupees(profile.down_payment_paise)],
              [t('loan.processingFee'), formatRupees(profile.processing_fee_paise)],
              [t('loan.financed'), formatRupees(profile.price_paise - profile.down_payment_paise)],
              ...(terms ? ([[t('addCustomer.loanProduct'), terms.product.name]] as [string, string][]) : []),
              [t('loan.rate'), rateText(profile, t)],
              [t('loan.methodLabel'), methodText(profile, t)],
              [t('loan.tenure'), tenureText(profile, t)],
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
              // The loan's Key Fact Statement figures, as kept when it was made (decision 027).
              ...(terms
                ? ([
                    [t('addCustomer.preview.apr'), `${terms.key_facts.apr}%`],
                    [t('addCustomer.preview.totalCost'), formatRupees(terms.key_facts.totalCostPaise)],
                    ...(terms.key_facts.taxPaise > 0 ? [[t('addCustomer.preview.gst'), formatRupees(terms.key_facts.taxPaise)]] : []),
                    ...(terms.key_facts.discountPaise > 0 ? [[t('addCustomer.preview.discount'), formatRupees(terms.key_facts.discountPaise)]] : []),
                  ] as [string, string][])
                : []),
            ]}
          />
          {terms ? <KfsShare profile={profile} terms={terms} instalments={details ? instalments : null} /> : null}
        </section>
      ) : null}

      {loadFailed ? <LoadErrorCard message={t('customerDetails.emiError')} onRetry={retry} /> : null}

      {details ? (
        <section className="card" aria-labelledby="emi-edit-title">
          <h2 id="emi-edit-title">{t('emi.schedule')}</h2>
          <div className="stack-table">
            <table className="data-table data-table--stack emi-table emi-table--plan" aria-labelledby="emi-edit-title">
              <thead>
                <tr>
                  <InstalmentHeadCells />
                  <th scope="col">{t('emi.table.status')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('emi.table.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {instalments.map((i) => (
                  <tr key={i.id}>
                    <td className="cell-number">
                      <span className="stack-only" aria-hidden="true">
                        #
                      </span>
                      {i.number}
                    </td>
                    <td className="cell-date">{formatDate(i.due_date)}</td>
                    <InstalmentAmountCell amountPaise={i.amount_paise} penaltyPaise={i.penalty_paise} />
                    <td className="cell-status">
                      <InstalmentStatusBadge status={i.status} />
                    </td>
                    <td className="cell-action">
                      {isEditable(i) ? (
                        <div className="button-row">
                          <button
                            type="button"
                            className="button button--secondary button--small"
                            aria-label={t('emiEdit.editTitle', { number: i.number })}
                            onClick={() => setEditing({ kind: 'edit', instalment: i })}
                          >
                            {t('customerDetails.edit')}
                          </button>
                          <button
                            type="button"
                            className="button button--secondary button--small"
                            onClick={() => setEditing({ kind: 'penalty', instalment: i })}
                          >
                            {t('emiEdit.penalty')}
                            <span className="visually-hidden">{` (${t('emi.table.number')} ${i.number})`}</span>
                          </button>
                          {mayWaive && unpaidPenaltyAtMost(i) > 0 ? (
                            <button
                              type="button"
                              className="button button--secondary button--small"
                              onClick={() => setEditing({ kind: 'waive', instalment: i })}
                            >
                              {t('ledger.waive.button')}
                              <span className="visually-hidden">{` (${t('emi.table.number')} ${i.number})`}</span>
                            </button>
                          ) : null}
                        </div>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="button-row">
            <button type="button" className="button button--secondary button--small" onClick={() => setEditing({ kind: 'add' })}>
              {t('emiEdit.add')}
            </button>
            {details.totals.outstanding_paise > 0 ? (
              <button type="button" className="button button--secondary button--small" aria-haspopup="dialog" onClick={() => setEditing({ kind: 'foreclose' })}>
                {t('ledger.foreclose.button')}
              </button>
            ) : null}
          </div>
        </section>
      ) : null}

      <div className="stack">
        {profile && hasLoan(profile) ? (
          <Link className="button button--secondary button--block" to={customerPath('emi_statement', customerId)}>
            {t('ledger.statement.title')}
          </Link>
        ) : null}
        <Link className="button button--primary button--block" to={customerPath('view_emi_details', customerId)}>
          {t('customerDetails.viewEmis')}
        </Link>
      </div>

      {editing?.kind === 'edit' ? <InstalmentDialog customerId={customerId} instalment={editing.instalment} onClose={close} /> : null}
      {editing?.kind === 'add' ? <InstalmentDialog customerId={customerId} instalment={null} onClose={close} /> : null}
      {editing?.kind === 'penalty' ? <PenaltyDialog customerId={customerId} instalment={editing.instalment} onClose={close} /> : null}
      {editing?.kind === 'waive' ? <WaiveDialog customerId={customerId} instalment={editing.instalment} onClose={close} /> : null}
      {editing?.kind === 'foreclose' ? <ForecloseDialog customerId={customerId} onClose={close} onClosed={showReceipt} /> : null}
      {editing?.kind === 'receipt' ? <ReceiptDialog key={editing.paymentId} paymentId={editing.paymentId} onClose={close} onReversed={showReceipt} /> : null}
    </Page>
  );
}
