/**
 * Cancelling a plan sold (an anti-hacking code, an extended warranty): the question, with the reason the server
 * records (required). Each feature passes its own words and its own cancel call.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './dialog.tsx';
import { TextField } from './text-field.tsx';

/** The longest reason the server takes. */
export const CANCEL_REASON_MAX_LENGTH = 200;

export interface CancelSaleText {
  title: string;
  /** Which plan, for whom. */
  subject: string;
  message: string;
  reason: string;
  reasonPlaceholder: string;
  keep: string;
  confirm: string;
}

export function CancelSaleDialog({ text, busy, onCancelSale, onClose }: {
  text: CancelSaleText;
  busy: boolean;
  /** Rejects when the server refused; its message is already a toast, and the dialog stays for another try. */
  onCancelSale: (reason: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!reason.trim()) {
      setMissing(true);
      event.currentTarget.querySelector('input')?.focus();
      return;
    }
    try {
      await onCancelSale(reason.trim());
      onClose();
    } catch {
      // Stays open: the toast says why.
    }
  }

  return (
    <Dialog open title={text.title} onClose={onClose}>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <p className="cancel-sale__subject">{text.subject}</p>
        <p>{text.message}</p>
        <TextField
          label={text.reason}
          placeholder={text.reasonPlaceholder}
          autoComplete="off"
          maxLength={CANCEL_REASON_MAX_LENGTH}
          value={reason}
          error={missing ? t('common.required') : null}
          onChange={(event) => {
            setReason(event.target.value);
            setMissing(false);
          }}
        />
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            {text.keep}
          </button>
          <button type="submit" className="button button--danger" disabled={busy}>
            {text.confirm}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
