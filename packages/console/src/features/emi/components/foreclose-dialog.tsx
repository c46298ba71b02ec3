/**
 * Closes a loan early: today's quote by the loan product's rule (principal, interest to today, GST, penalties,
 * the fee, and what that saves against the schedule), the payment method, and a confirm that sends the total as
 * shown. A quote that moved meanwhile is refused (QUOTE_CHANGED): the new one is read and shown to confirm again.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Receipt } from '@kisht/contract/emi';
import { formatDate } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { FormDialog } from '../../../shared/ui/form-dialog.tsx';
import { Facts, type Fact } from '../../../shared/ui/facts.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { PAYMENT_METHODS, type PaymentMethod } from '../../../shared/payment-methods.ts';
import { PAYMENT_METHOD_LABEL_KEYS } from '../../../shared/labels.ts';
import { isApiFailure, isOffline } from '../../../shared/api/api-failure.ts';
import { randomDeviceId } from '../../../shared/device-details.ts';
import { useForecloseMutation, useGetForeclosureQuoteQuery } from '../api/ledger-api.ts';
import './emi.css';

const REFERENCE_MAX = 60;

export function ForecloseDialog({ customerId, onClose, onClosed }: { customerId: number; onClose: () => void; onClosed: (receipt: Receipt) => void }) {
  const { t } = useTranslation();
  // A quote is for today: read afresh each time the dialog opens, never from an earlier day's cache.
  const { data: quote, error, isFetching, refetch } = useGetForeclosureQuoteQuery(customerId, { refetchOnMountOrArgChange: true });
  const [foreclose, { isLoading }] = useForecloseMutation();
  const [method, setMethod] = useState<PaymentMethod>('cash');
  const [reference, setReference] = useState('');
  const [changed, setChanged] = useState(false);
  // One key per quote confirmed: a retry after a lost answer returns the first receipt. A UUID from
  // getRandomValues, which (unlike randomUUID) a WebView on a plain-http address also has.
  const [idempotencyKey, setIdempotencyKey] = useState(randomDeviceId);

  async function submit() {
    if (!quote) return;
    try {
      const receipt = await foreclose({
        customer_id: customerId,
        amount_paise: quote.total_paise,
        method,
        reference: reference.trim() || undefined,
        idempotency_key: idempotencyKey,
      }).unwrap();
      onClosed(receipt);
    } catch (failure) {
      if (isApiFailure(failure) && failure.code === 'QUOTE_CHANGED') {
        setChanged(true);
        setIdempotencyKey(randomDeviceId());
        void refetch();
      }
      // Anything else: the error toast says what went wrong; the dialog stays open to try again.
    }
  }

  const code = isApiFailure(error) ? error.code : null;
  const failed = !quote && !isFetching && error !== undefined;
  const rows: Fact[] = quote
    ? [
        [t('ledger.foreclose.principal'), formatRupees(quote.principal_paise)],
        [t('ledger.foreclose.interest'), formatRupees(quote.interest_paise)],
        ...(quote.tax_paise > 0 ? ([[t('ledger.foreclose.tax'), formatRupees(quote.tax_paise)]] as Fact[]) : []),
        [t('ledger.foreclose.penalty'), formatRupees(quote.penalty_paise)],
        ...(quote.fee_paise > 0 ? ([[t('ledger.foreclose.fee'), formatRupees(quote.fee_paise)]] as Fact[]) : []),
      ]
    : [];
  return (
    <FormDialog
      title={t('ledger.foreclose.title')}
      busy={isLoading || isFetching || !quote}
      onClose={onClose}
      onSubmit={() => void submit()}
      submitLabel={quote && !isFetching ? t('ledger.foreclose.confirm', { amount: formatRupees(quote.total_paise) }) : t('ledger.foreclose.button')}
    >
      {isFetching ? <p className="muted">{t('common.loading')}</p> : null}
      {failed ? (
        code === 'NOTHING_DUE' ? (
          <p>{t('ledger.foreclose.nothingDue')}</p>
        ) : (
          <div>
            <p>{isOffline(error) ? t('ledger.offline') : t('ledger.foreclose.loadError')}</p>
            <button type="button" className="button button--secondary button--small" onClick={() => void refetch()}>
              {t('common.retry')}
            </button>
          </div>
        )
      ) : null}
      {quote && !isFetching ? (
        <>
          {changed ? (
            <p className="ledger-notice" role="status">
              {t('ledger.foreclose.changed', { amount: formatRupees(quote.total_paise) })}
            </p>
          ) : null}
          <p className="muted small">{t('ledger.foreclose.asOf', { date: formatDate(quote.as_of) })}</p>
          <Facts rows={rows} />
          <ul className="pay-summary ledger-quote">
            <li className="pay-summary__total">
              <span>{t('ledger.foreclose.total')}</span>
              <span className="nowrap">{formatRupees(quote.total_paise)}</span>
            </li>
            <li className="ledger-saving">
              <span>{t('ledger.foreclose.saving')}</span>
              <span className="nowrap">{formatRupees(quote.saving_paise)}</span>
            </li>
          </ul>
        </>
      ) : null}
      {quote ? (
        <>
          <SelectField label={t('emi.pay.method')} value={method} onChange={(event) => setMethod(event.target.value as PaymentMethod)}>
            {PAYMENT_METHODS.map((m) => (
              <option key={m} value={m}>
                {t(PAYMENT_METHOD_LABEL_KEYS[m])}
              </option>
            ))}
          </SelectField>
          <TextField label={t('emi.pay.reference')} hint={t('emi.pay.referenceHint')} maxLength={REFERENCE_MAX} value={reference} onChange={(event) => setReference(event.target.value)} />
        </>
      ) : null}
    </FormDialog>
  );
}
