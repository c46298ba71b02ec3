/**
 * A customer's instalment schedule: what each owes, its status and days past due, with totals.
 * Pay one instalment, or tick several and pay them at once; the receipt opens afterwards (?receipt=). A receipt
 * is also opened by its number (?receipt_no=, from a gateway order or a confirmed "I paid" claim).
 */
import { useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { hasLoan } from '@kisht/domain/plans';
import type { Receipt } from '@kisht/contract/emi';
import { formatDate } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { Page } from '../../../shared/ui/page.tsx';
import { InstalmentStatusBadge } from '../../../shared/ui/status-badges.tsx';
import { NotFoundScreen } from '../../../shared/ui/not-found-screen.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { SummaryGrid } from '../../../shared/ui/summary-grid.tsx';
import { InstalmentAmountCell, InstalmentHeadCells } from '../../../shared/customers/instalment-table.tsx';
import { customerPath, parseId } from '../../../shared/routes.ts';
import { useCustomerEmis } from '../hooks/use-customer-emis.ts';
import { useGetPaymentsQuery } from '../api/emi-edit-api.ts';
import { isPayable, payableSelection, toggleAll, toggleId, totalOutstanding } from '../hooks/instalment-selection.ts';
import { PayDialog, type PayTarget } from './pay-dialog.tsx';
import { ReceiptDialog } from './receipt-dialog.tsx';
import { AlertsSection, PaymentsSection } from './emi-activity.tsx';
import './emi.css';

export function ViewEmiScreen() {
  const { t } = useTranslation();
  const { customerId, profile, details, instalments, loadFailed, retry } = useCustomerEmis();
  const [params, setParams] = useSearchParams();
  const receiptNo = params.get('receipt_no');
  const { data: payments } = useGetPaymentsQuery(customerId ?? 0, { skip: customerId === null || !receiptNo });
  const receiptId = parseId(params.get('receipt')) ?? payments?.find((p) => p.receipt_no === receiptNo)?.payment_id ?? null;
  const navigate = useNavigate();
  const location = useLocation();
  const [selected, setSelected] = useState<Set<number>>(() => new Set());
  const [payTarget, setPayTarget] = useState<PayTarget | null>(null);

  const chosen = payableSelection(instalments, selected);
  const payable = instalments.filter(isPayable);
  const allChosen = payable.length > 0 && chosen.length === payable.length;

  if (customerId === null) return <NotFoundScreen />;

  function showReceipt(receipt: Receipt) {
    setPayTarget(null);
    setSelected(new Set());
    openReceipt(receipt.payment_id);
  }

  function openReceipt(paymentId: number) {
    // A receipt opened here is its own history entry, so the phone's Back closes it; a reversal
    // receipt replaces the receipt it reverses.
    const replacing = receiptId !== null;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('receipt', String(paymentId));
        next.delete('receipt_no');
        return next;
      },
      { replace: replacing, state: { openedReceipt: true } },
    );
  }

  function closeReceipt() {
    if ((location.state as { openedReceipt?: boolean } | null)?.openedReceipt) {
      void navigate(-1);
      return;
    }
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('receipt');
        next.delete('receipt_no');
        return next;
      },
      { replace: true },
    );
  }

  const name = profile ? `${profile.first_name} ${profile.last_name}`.trim() : '';
  return (
    <Page title={t('emi.viewTitle')}>
      {profile ? (
        <p className="page-subtitle">
          <Link to={customerPath('customer_details', customerId)}>{name}</Link> · {profile.mobile}
        </p>
      ) : null}
      {loadFailed ? <LoadErrorCard message={t('customerDetails.emiError')} onRetry={retry} /> : null}
      {profile && !hasLoan(profile) ? <p className="card empty-state">{t('planPhone.noLoan')}</p> : null}
      {details ? (
        <>
          <SummaryGrid
            card
            four
            label={t('emi.totals')}
            items={[
              { label: t('emi.payable'), value: formatRupees(details.totals.payable_paise) },
              { label: t('emi.paid'), value: formatRupees(details.totals.paid_paise) },
              { label: t('emi.outstanding'), value: formatRupees(details.totals.outstanding_paise) },
              { label: t('emi.overdue'), value: formatRupees(details.totals.overdue_paise), danger: details.totals.overdue_paise > 0 },
            ]}
          />

          <div className="stack-table">
            <table className="data-table data-table--stack emi-table emi-table--schedule">
              <caption className="visually-hidden">{t('emi.schedule')}</caption>
              <thead>
                <tr>
                  <th scope="col" className="cell-select">
                    <input
                      type="checkbox"
                      checked={allChosen}
                      disabled={payable.length === 0}
                      aria-label={t('emi.selectAll')}
                      onChange={() => setSelected(toggleAll(instalments, selected))}
                    />
                    <span className="stack-only muted small" aria-hidden="true">
                      {t('emi.selectAll')}
                    </span>
                  </th>
                  <InstalmentHeadCells />
                  <th scope="col" className="num">
                    {t('emi.table.paid')}
                  </th>
                  <th scope="col" className="num">
                    {t('emi.table.outstanding')}
                  </th>
                  <th scope="col">{t('emi.table.status')}</th>
                  <th scope="col" className="num">
                    {t('emi.table.daysPastDue')}
                  </th>
                  <th scope="col">
                    <span className="visually-hidden">{t('emi.table.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {instalments.map((i) => {
                  const canPay = isPayable(i);
                  return (
                    <tr key={i.id} className={selected.has(i.id) && canPay ? 'is-selected' : undefined}>
                      <td className="cell-select">
                        {canPay ? (
                          <input
                            type="checkbox"
                            checked={selected.has(i.id)}
                            aria-label={t('emi.selectOne', { number: i.number })}
                            onChange={() => setSelected(toggleId(selected, i.id))}
                          />
                        ) : null}
                      </td>
                      <td className="cell-number">
                        <span className="stack-only" aria-hidden="true">
                          #
                        </span>
                        {i.number}
                        {i.advance ? <span className="muted small"> {t('emi.advance')}</span> : null}
                      </td>
                      <td className="cell-date">{formatDate(i.due_date)}</td>
                      <InstalmentAmountCell amountPaise={i.amount_paise} penaltyPaise={i.penalty_paise} />
                      <td className="num cell-paid" data-label={t('emi.table.paid')}>
                        {formatRupees(i.paid_paise)}
                      </td>
                      <td className="num cell-outstanding" data-label={t('emi.table.outstanding')}>
                        {formatRupees(i.outstanding_paise)}
                      </td>
                      <td className="cell-status">
                        <InstalmentStatusBadge status={i.status} />
                      </td>
                      <td className="num cell-dpd" data-label={t('emi.table.daysPastDue')}>
                        {i.days_past_due > 0 ? i.days_past_due : '–'}
                      </td>
                      <td className="cell-action">
                        {canPay ? (
                          <button
                            type="button"
                            className="button button--secondary button--small"
                            aria-label={t('emi.payOneNamed', { number: i.number })}
                            onClick={() => setPayTarget({ kind: 'one', instalment: i })}
                          >
                            {t('emi.payOne')}
                          </button>
                        ) : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>

          {payable.length === 0 ? <p className="muted">{t('customerDetails.allPaid')}</p> : null}
          <div className="sticky-actions">
            <span className="sticky-actions__text">
              {chosen.length > 0 ? t('emi.selectedTotal', { count: chosen.length, amount: formatRupees(totalOutstanding(chosen)) }) : t('emi.selectHint')}
            </span>
            <button
              type="button"
              className="button button--primary"
              disabled={chosen.length === 0}
              onClick={() => setPayTarget({ kind: 'many', instalments: chosen })}
            >
              {t('emi.paySelected')}
            </button>
          </div>
        </>
      ) : null}

      <AlertsSection customerId={customerId} />
      <PaymentsSection customerId={customerId} onOpen={openReceipt} />

      {payTarget ? <PayDialog customerId={customerId} target={payTarget} onClose={() => setPayTarget(null)} onPaid={showReceipt} /> : null}
      {receiptId !== null ? <ReceiptDialog key={receiptId} paymentId={receiptId} onClose={closeReceipt} onReversed={showReceipt} /> : null}
    </Page>
  );
}
