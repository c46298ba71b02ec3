/**
 * Records money the retailer has checked: a dialog with one rupee amount, prefilled with what was claimed or what
 * the gateway reported, checked as exact paise before `onSave` runs. Confirming an "I paid" claim and recording a
 * held gateway payment both use it.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../shared/ui/form-dialog.tsx';
import { RupeeField } from '../../../shared/ui/rupee-field.tsx';
import { checkAmount } from '../hooks/payment-rules.ts';

export function AmountDialog({ title, help, submitLabel, initial, busy, onSave, onClose }: {
  title: string;
  help: string;
  submitLabel: string;
  /** The amount in rupees as the field starts (may be empty). */
  initial: string;
  busy: boolean;
  /** Saves the amount; a rejection keeps the dialog open (the error toast says why). */
  onSave: (paise: number) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  async function submit() {
    const checked = checkAmount(text);
    if ('error' in checked) return setError(checked.error === 'required' ? t('common.required') : t('gateway.claims.amountInvalid'));
    try {
      await onSave(checked.paise);
      onClose();
    } catch {
      // The error toast says why (e.g. already decided or resolved elsewhere).
    }
  }
  return (
    <FormDialog title={title} busy={busy} onClose={onClose} onSubmit={() => void submit()} submitLabel={submitLabel}>
      <p className="muted small">{help}</p>
      <RupeeField
        label={t('gateway.claims.amountLabel')}
        value={text}
        error={error}
        onChange={(typed) => {
          setText(typed);
          setError(null);
        }}
      />
    </FormDialog>
  );
}
