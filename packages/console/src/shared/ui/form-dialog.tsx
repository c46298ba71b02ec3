/** A dialog holding one form, with Cancel and Save under it (Save is disabled while busy). */
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './dialog.tsx';

export interface FormDialogProps {
  title: string;
  busy: boolean;
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
}

export function FormDialog({ title, busy, onClose, onSubmit, children }: FormDialogProps) {
  const { t } = useTranslation();
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit();
  }
  return (
    <Dialog open title={title} onClose={onClose}>
      <form className="form" noValidate onSubmit={submit}>
        {children}
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('customerEdit.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
