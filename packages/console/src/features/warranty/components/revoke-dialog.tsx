/** Cancelling an extended warranty: the question, with the reason the server records (required). */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { WarrantySale } from '@kisht/contract/warranty';
import { Dialog } from '../../../shared/ui/dialog.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { useRevokeWarrantyMutation } from '../api/warranty-api.ts';
import { REASON_MAX_LENGTH } from '../hooks/claims.ts';

export function RevokeDialog({ sale, onClose }: { sale: WarrantySale; onClose: () => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const [revoke, { isLoading }] = useRevokeWarrantyMutation();
  const name = `${sale.first_name} ${sale.last_name}`.trim();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!reason.trim()) {
      setMissing(true);
      event.currentTarget.querySelector('input')?.focus();
      return;
    }
    try {
      // The server's "cancelled" message shows as the toast; the sale is read again (its tag).
      await revoke({ sale_id: sale.id, reason: reason.trim() }).unwrap();
      onClose();
    } catch {
      // The failure's message is already a toast; the dialog stays for another try.
    }
  }

  return (
    <Dialog open title={t('warranty.revoke.title')} onClose={onClose}>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <p className="warranty-dialog__for">{t('antihacking.sold.planFor', { plan: sale.plan_name, name })}</p>
        <p>{t('warranty.revoke.message')}</p>
        <TextField
          label={t('warranty.revoke.reason')}
          placeholder={t('warranty.revoke.reasonPlaceholder')}
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
            {t('warranty.revoke.keep')}
          </button>
          <button type="submit" className="button button--danger" disabled={isLoading}>
            {t('warranty.revoke.confirm')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
