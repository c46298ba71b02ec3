/** A modal dialog (role="dialog", aria-modal): focus moves in, Tab stays in, Escape and the backdrop close it. */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { DRAWER_HEIGHT } from '@kisht/domain/constants';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children?: ReactNode;
  actions?: ReactNode;
  /** 'drawer' slides in from the start edge (the navigation menu); 'sheet' is a bottom drawer, DRAWER_HEIGHT tall at least (codes). */
  variant?: 'center' | 'drawer' | 'sheet';
  /** Keeps the title for assistive technology only. */
  hideTitle?: boolean;
}

export function Dialog({ open, title, onClose, children, actions, variant = 'center', hideTitle = false }: DialogProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const node = panel.current;
    (node?.querySelector<HTMLElement>(FOCUSABLE) ?? node)?.focus();
    function onKey(event: KeyboardEvent) {
      if (event.key === 'Escape') {
        event.stopPropagation();
        closeRef.current();
        return;
      }
      if (event.key !== 'Tab' || !node) return;
      const items = Array.from(node.querySelectorAll<HTMLElement>(FOCUSABLE));
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
    document.addEventListener('keydown', onKey);
    document.body.classList.add('no-scroll');
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.classList.remove('no-scroll');
      previous?.focus();
    };
  }, [open]);

  if (!open) return null;
  return (
    <div className={`backdrop backdrop--${variant}`} onClick={() => closeRef.current()}>
      <div
        ref={panel}
        className={`dialog dialog--${variant}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        style={variant === 'sheet' ? { minHeight: DRAWER_HEIGHT } : undefined}
        onClick={(event) => event.stopPropagation()}
      >
        <h2 id={titleId} className={hideTitle ? 'visually-hidden' : 'dialog__title'}>
          {title}
        </h2>
        {children}
        {actions ? <div className="dialog__actions">{actions}</div> : null}
      </div>
    </div>
  );
}
