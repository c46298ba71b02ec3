/** The birthday celebration. */
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../shared/ui/dialog.tsx';
import { useAppDispatch, useAppSelector } from '../../../shared/state/hooks.ts';
import { setBirthdayCelebration } from '../../../shared/state/main-slice.ts';
import './shell.css';

export function BirthdayDialog({ firstName }: { firstName: string }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const open = useAppSelector((state) => state.main.birthdayCelebration);
  const close = () => dispatch(setBirthdayCelebration(false));
  return (
    <Dialog
      open={open}
      title={t('dashboard.birthday.title', { name: firstName })}
      onClose={close}
      actions={
        <button type="button" className="button button--primary" onClick={close}>
          {t('dashboard.birthday.close')}
        </button>
      }
    >
      <div className="celebration" aria-hidden="true">
        <svg viewBox="0 0 120 80" width="120" height="80">
          <rect x="25" y="38" width="70" height="34" rx="6" fill="var(--color-accent)" />
          <rect x="25" y="38" width="70" height="10" rx="4" fill="var(--color-primary)" />
          <rect x="57" y="20" width="6" height="18" rx="2" fill="var(--color-primary)" />
          <path d="M60 8c4 5 4 9 0 11c-4-2-4-6 0-11z" fill="#f97316" />
          <circle cx="12" cy="14" r="4" fill="var(--color-accent)" />
          <circle cx="106" cy="20" r="5" fill="var(--color-primary)" />
          <circle cx="100" cy="60" r="3" fill="#f97316" />
          <circle cx="16" cy="58" r="3" fill="var(--color-primary)" />
        </svg>
      </div>
      <p>{t('dashboard.birthday.message')}</p>
    </Dialog>
  );
}
