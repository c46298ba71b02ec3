/** Cancelling an anti-hacking plan sold: the question, with the reason the server records (required). */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AntihackingSale } from '@kisht/contract/plans';
import { Dialog } from '../../../shared/ui/dialog.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { useRevokeAntihackingMutation } from '../api/antihacking-api.ts';

export const REASON_MAX_LENGTH = 200;

export function RevokeDialog({ sale, onClose }: { sale: AntihackingSale; onClose: () => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const [revoke, { isLoading }] = useRevokeAntihackingMutation();
  const name = `${sale.first_name} ${sale.last_name}`.trim();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!reason.trim()) {
      setMissing(true);
      event.currentTarget.querySelector('input')?.focus();
      return;
    }
    try {
      // The server's "cancelled" message shows as the toast; the list reads the sale again (its tag).
      await revoke({ sale_id: sale.id, reason: reason.trim() }).unwrap();
      onClose();
    } catch {
      // The failure's message is already a toast; the dialog stays for another try.
    }
  }

  return (
    <Dialog open title={t('antihacking.revoke.title')} onClose={onClose}>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <p className="antihacking-code-for">{t('antihacking.sold.planFor', { plan: sale.plan_name, name })}</p>
        <p>{t('antihacking.revoke.message')}</p>
        <TextField
          label={t('antihacking.revoke.reason')}
          placeholder={t('antihacking.revoke.reasonPlaceholder')}
          autoComplete="off"
          maxLength={REASON_MAX_LENGTH}
          value={reason}
          error={missing ? t('common.required') : null}
          onChange={(event) => {
            setReason(event.target.value);
            setMissing(false);
          }}
        />
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('antihacking.revoke.keep')}
          </button>
          <button type="submit" className="button button--danger" disabled={isLoading}>
            {t('antihacking.revoke.confirm')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
