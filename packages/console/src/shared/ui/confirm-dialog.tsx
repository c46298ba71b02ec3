/** A yes/no question in a dialog. */
import { useTranslation } from 'react-i18next';
import { Dialog } from './dialog.tsx';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  danger?: boolean;
  /** The button that answers no; Cancel unless named (a question about cancelling something names it otherwise). */
  cancelLabel?: string;
}

export function ConfirmDialog({ open, title, message, confirmLabel, onConfirm, onCancel, busy, danger, cancelLabel }: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onCancel}>
            {cancelLabel ?? t('common.cancel')}
          </button>
          <button
            type="button"
            className={`button ${danger ? 'button--danger' : 'button--primary'}`}
            onClick={onConfirm}
            disabled={busy}
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      <p>{message}</p>
    </Dialog>
  );
}
