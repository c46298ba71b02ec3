/**
 * Dialogs holding one form: Cancel, and one or more submit buttons (Save, or e.g. Turn on / Turn off);
 * the submit buttons are disabled while busy.
 */
import { useRef, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './dialog.tsx';

export interface SubmitChoice {
  label: string;
  value: string;
  danger?: boolean;
}

export function ChoiceFormDialog({
  open = true,
  title,
  busy,
  onClose,
  onSubmit,
  choices,
  children,
}: {
  /** Shown unless false (a dialog that keeps its state while hidden stays mounted with open false). */
  open?: boolean;
  title: string;
  busy: boolean;
  onClose: () => void;
  onSubmit: (choice: string) => void;
  choices: SubmitChoice[];
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  // Which submit button was pressed (SubmitEvent.submitter is missing in older WebViews); Enter picks the first.
  const chosen = useRef<string | null>(null);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit(chosen.current ?? choices[0]!.value);
    chosen.current = null;
  }
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      <form className="form" noValidate onSubmit={submit}>
        {children}
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          {choices.map((choice) => (
            <button
              key={choice.value}
              type="submit"
              value={choice.value}
              className={`button ${choice.danger ? 'button--danger' : 'button--primary'}`}
              disabled={busy}
              onClick={() => {
                chosen.current = choice.value;
              }}
            >
              {choice.label}
            </button>
          ))}
        </div>
      </form>
    </Dialog>
  );
}

export interface FormDialogProps {
  open?: boolean;
  title: string;
  busy: boolean;
  onClose: () => void;
  onSubmit: () => void;
  /** The submit button's text; Save when left out. */
  submitLabel?: string;
  children: ReactNode;
}

/** The common case: one submit button (Save unless named). */
export function FormDialog({ open, title, busy, onClose, onSubmit, submitLabel, children }: FormDialogProps) {
  const { t } = useTranslation();
  return (
    <ChoiceFormDialog open={open} title={title} busy={busy} onClose={onClose} onSubmit={() => onSubmit()} choices={[{ value: 'save', label: submitLabel ?? t('customerEdit.save') }]}>
      {children}
    </ChoiceFormDialog>
  );
}
