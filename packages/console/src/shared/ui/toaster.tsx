/**
 * Renders the current toast: role="status" for success and information, role="alert" for errors and warnings.
 * It sits above the bottom tabs and publishes its height (--toast-space), so the page, sticky action bars and
 * dialogs move up out of its way instead of lying underneath it.
 */
import { useRef, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { toasts } from './toast-store.ts';
import { CloseIcon } from './icons.tsx';
import { useReservedSpace } from './reserved-space.ts';

export function Toaster() {
  const { t } = useTranslation();
  const list = useSyncExternalStore(toasts.subscribe, toasts.getSnapshot);
  const region = useRef<HTMLDivElement>(null);
  useReservedSpace(region, '--toast-space', { gap: 8, fromBottom: true });
  return (
    <div className="toast-region" ref={region}>
      {list.map((toast) => (
        <div key={toast.id} className={`toast toast--${toast.kind}`} role={toast.kind === 'error' || toast.kind === 'warning' ? 'alert' : 'status'}>
          <span className="toast__text">{toast.translate ? t(toast.text) : toast.text}</span>
          <button type="button" className="icon-button" aria-label={t('common.close')} onClick={() => toasts.dismiss(toast.id)}>
            <CloseIcon />
          </button>
        </div>
      ))}
    </div>
  );
}
