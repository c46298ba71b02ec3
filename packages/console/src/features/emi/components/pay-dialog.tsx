/** Records a payment: one instalment (in full or part) or several at once, with the method and an optional reference. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { InstalmentView, Receipt } from '@kisht/contract/emi';
import { formatDate } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { FormDialog } from '../../../shared/ui/form-dialog.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { PAYMENT_METHODS, type PaymentMethod } from '../../../shared/payment-methods.ts';
import { PAYMENT_METHOD_LABEL_KEYS } from '../../../shared/labels.ts';
import { paiseToRupeesText, parseRupeesToPaise } from '@kisht/domain/money-input';
import { usePayInstalmentMutation, usePayInstalmentsMutation } from '../api/payments-api.ts';
import { totalOutstanding } from '../hooks/instalment-selection.ts';
import './emi.css';

export type PayTarget = { kind: 'one'; instalment: InstalmentView } | { kind: 'many'; instalments: InstalmentView[] };

const REFERENCE_MAX = 60;

export function PayDialog({ customerId, target, onClose, onPaid }: { customerId: number; target: PayTarget; onClose: () => void; onPaid: (receipt: Receipt) => void }) {
  const { t } = useTranslation();
  const due = target.kind === 'one' ? target.instalment.outstanding_paise : totalOutstanding(target.instalments);
  const [amount, setAmount] = useState(paiseToRupeesText(due));
  const [method, setMethod] = useState<PaymentMethod>('cash');
  const [reference, setReference] = useState('');
  const [amountError, setAmountError] = useState<string | null>(null);
  const [payOne, one] = usePayInstalmentMutation();
  const [payMany, many] = usePayInstalmentsMutation();
  const busy = one.isLoading || many.isLoading;
  // One key per opened dialog: a retry after a lost answer returns the first receipt, never a second payment.
  const [idempotencyKey] = useState(() => crypto.randomUUID());

  async function submit() {
    const ref = reference.trim() || undefined;
    try {
      let receipt: Receipt;
      if (target.kind === 'one') {
        if (!amount.trim()) return setAmountError(t('common.required'));
        const paise = parseRupeesToPaise(amount);
        if (paise === null || paise <= 0) return setAmountError(t('emi.pay.amountInvalid'));
        if (paise > due) return setAmountError(t('emi.pay.amountTooLarge', { amount: formatRupees(due) }));
        setAmountError(null);
        receipt = await payOne({ customer_id: customerId, instalment_id: target.instalment.id, amount_paise: paise, method, reference: ref, idempotency_key: idempotencyKey }).unwrap();
      } else {
        receipt = await payMany({ customer_id: customerId, instalment_ids: target.instalments.map((i) => i.id), method, reference: ref, idempotency_key: idempotencyKey }).unwrap();
      }
      onPaid(receipt);
    } catch {
      // The error toast already says what went wrong; the dialog stays open to try again.
    }
  }

  const title = target.kind === 'one' ? t('emi.pay.titleOne', { number: target.instalment.number }) : t('emi.pay.titleMany', { count: target.instalments.length });
  return (
    <FormDialog title={title} busy={busy} onClose={onClose} onSubmit={() => void submit()} submitLabel={t('emi.pay.confirm')}>
      {target.kind === 'many' ? (
        <ul className="pay-summary">
          {target.instalments.map((i) => (
            <li key={i.id}>
              <span>{t('emi.pay.instalmentLine', { number: i.number, date: formatDate(i.due_date) })}</span>
              <span>{formatRupees(i.outstanding_paise)}</span>
            </li>
          ))}
          <li className="pay-summary__total">
            <span>{t('emi.pay.total')}</span>
            <span>{formatRupees(due)}</span>
          </li>
        </ul>
      ) : (
        <TextField
          label={t('emi.pay.amount')}
          prefix="₹"
          inputMode="decimal"
          value={amount}
          error={amountError}
          hint={t('emi.pay.amountHint', { amount: formatRupees(due) })}
          onChange={(event) => {
            setAmount(event.target.value);
            if (amountError) setAmountError(null);
          }}
        />
      )}
      <SelectField label={t('emi.pay.method')} value={method} onChange={(event) => setMethod(event.target.value as PaymentMethod)}>
        {PAYMENT_METHODS.map((m) => (
          <option key={m} value={m}>
            {t(PAYMENT_METHOD_LABEL_KEYS[m])}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t('emi.pay.reference')}
        hint={t('emi.pay.referenceHint')}
        maxLength={REFERENCE_MAX}
        value={reference}
        onChange={(event) => setReference(event.target.value)}
      />
    </FormDialog>
  );
}
