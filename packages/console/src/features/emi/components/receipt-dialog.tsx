/** A payment's (or reversal's) receipt: details, each instalment's share split by part, Share (or copy) and Reverse with a reason. */
import { Fragment, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Receipt } from '@kisht/contract/emi';
import { formatDate, formatDateTime } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { Dialog } from '../../../shared/ui/dialog.tsx';
import { Facts } from '../../../shared/ui/facts.tsx';
import { InstalmentHeadCells } from '../../../shared/customers/instalment-table.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { toastKey } from '../../../shared/ui/toast-store.ts';
import { PAYMENT_METHOD_LABEL_KEYS } from '../../../shared/labels.ts';
import { useGetReceiptQuery, useReversePaymentMutation } from '../api/payments-api.ts';
import { isReversible, receiptNote, receiptText } from '../hooks/receipt-text.ts';
import { partLabels } from '../hooks/ledger-words.ts';
import { shareTextOrCopy } from '../hooks/share-text.ts';
import './emi.css';

const REASON_MIN = 3;
const REASON_MAX = 200;

function ReverseForm({ receipt, onReversed, onCancel }: { receipt: Receipt; onReversed: (r: Receipt) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [reverse, { isLoading }] = useReversePaymentMutation();
  async function submit(event: FormEvent) {
    event.preventDefault();
    const text = reason.trim();
    if (!text) return setError(t('common.required'));
    if (text.length < REASON_MIN) return setError(t('receipt.reasonTooShort', { count: REASON_MIN }));
    try {
      onReversed(await reverse({ payment_id: receipt.payment_id, reason: text }).unwrap());
    } catch {
      // The error toast already says what went wrong.
    }
  }
  return (
    <form className="form reverse-form" noValidate onSubmit={submit}>
      <p className="muted">{t('receipt.reverseIntro', { amount: formatRupees(receipt.amount_paise) })}</p>
      <TextField
        label={t('receipt.reason')}
        maxLength={REASON_MAX}
        value={reason}
        error={error}
        onChange={(event) => {
          setReason(event.target.value);
          if (error) setError(null);
        }}
      />
      <div className="button-row">
        <button type="button" className="button button--secondary button--small" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button button--danger button--small" disabled={isLoading}>
          {t('receipt.confirmReverse')}
        </button>
      </div>
    </form>
  );
}

export function ReceiptDialog({ paymentId, onClose, onReversed }: { paymentId: number; onClose: () => void; onReversed: (r: Receipt) => void }) {
  const { t } = useTranslation();
  const { data: receipt, isLoading, isError, refetch } = useGetReceiptQuery(paymentId);
  const [reversing, setReversing] = useState(false);

  async function share(r: Receipt) {
    const methodKey = PAYMENT_METHOD_LABEL_KEYS[r.method as keyof typeof PAYMENT_METHOD_LABEL_KEYS];
    const text = receiptText(r, (key, vars) => t(key, vars), methodKey ? t(methodKey) : r.method);
    const outcome = await shareTextOrCopy(t('receipt.title'), text);
    if (outcome === 'copied') toastKey('success', 'receipt.copied');
    else if (outcome === 'failed') toastKey('error', 'receipt.copyFailed');
  }

  const reversible = receipt ? isReversible(receipt) : false;
  return (
    <Dialog
      open
      title={receipt?.kind === 'reversal' ? t('receipt.reversalTitle') : t('receipt.title')}
      onClose={onClose}
      actions={
        <>
          {receipt && reversible && !reversing ? (
            <button type="button" className="button button--danger" onClick={() => setReversing(true)}>
              {t('receipt.reverse')}
            </button>
          ) : null}
          {receipt ? (
            <button type="button" className="button button--secondary" onClick={() => void share(receipt)}>
              {t('receipt.share.button')}
            </button>
          ) : null}
          <button type="button" className="button button--primary" onClick={onClose}>
            {t('common.close')}
          </button>
        </>
      }
    >
      {isLoading ? <p className="muted">{t('common.loading')}</p> : null}
      {isError && !receipt ? (
        <div>
          <p>{t('receipt.loadError')}</p>
          <button type="button" className="button button--secondary button--small" onClick={() => void refetch()}>
            {t('common.retry')}
          </button>
        </div>
      ) : null}
      {receipt ? (
        <div className="receipt">
          <p className="receipt__amount">{formatRupees(receipt.amount_paise)}</p>
          <Facts
            rows={[
              [t('receipt.number'), receipt.receipt_no],
              [t('receipt.date'), formatDateTime(receipt.created_at)],
              [t('receipt.customer'), `${receipt.customer.name} · ${receipt.customer.mobile}`],
              [t('receipt.device'), `${receipt.customer.device} · ${receipt.customer.imei1}`],
              ...(receipt.loan_product ? ([[t('addCustomer.loanProduct'), receipt.loan_product]] as [string, string][]) : []),
              [t('receipt.shop'), receipt.retailer.shop_name || receipt.retailer.name],
              [t('receipt.method'), t(PAYMENT_METHOD_LABEL_KEYS[receipt.method as keyof typeof PAYMENT_METHOD_LABEL_KEYS] ?? receipt.method)],
              [t('receipt.reference'), receipt.reference],
              ...(receipt.note ? ([[t('receipt.note'), receiptNote(receipt, (key) => t(key))]] as [string, string][]) : []),
            ]}
          />
          <table className="data-table receipt__allocations">
            <caption className="visually-hidden">{t('receipt.allocations')}</caption>
            <thead>
              <tr>
                <InstalmentHeadCells />
              </tr>
            </thead>
            <tbody>
              {receipt.allocations.map((a) => (
                <Fragment key={`${a.instalment_number}-${a.due_date}`}>
                  <tr className={a.parts ? 'receipt__split-above' : undefined}>
                    <td>{a.instalment_number}</td>
                    <td>{formatDate(a.due_date)}</td>
                    <td className="num">{formatRupees(a.amount_paise)}</td>
                  </tr>
                  {a.parts ? (
                    // The split under its instalment, across the row: three narrow columns cannot hold it at 320 px.
                    <tr className="receipt__split">
                      <td colSpan={3}>
                        <span className="visually-hidden">{t('ledger.parts.label', { number: a.instalment_number })} </span>
                        {partLabels(a.parts, (key, vars) => t(key, vars)).join(' · ')}
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              ))}
            </tbody>
          </table>
          <p className="receipt__outstanding">
            {t('receipt.outstandingAfter')} <strong>{formatRupees(receipt.outstanding_after_paise)}</strong>
          </p>
          {reversing ? <ReverseForm receipt={receipt} onCancel={() => setReversing(false)} onReversed={onReversed} /> : null}
        </div>
      ) : null}
    </Dialog>
  );
}
