/**
 * The one toast channel: a new toast replaces the old one (TOAST_MAX = 1). A notice nobody asked for (the app
 * ready to work offline) waits until the toast on screen has gone, so it never hides the answer to what the
 * retailer just did.
 */
import { TOAST_MAX } from '@kisht/domain/constants';

export type ToastKind = 'success' | 'error' | 'warning' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  /** Ready-to-show text, or a translation key resolved when rendered (see `translate`). */
  text: string;
  translate: boolean;
}

const DURATION_MS: Record<ToastKind, number> = { success: 3500, info: 4500, warning: 5000, error: 6000 };

type Listener = () => void;

export function createToastStore(schedule: (fn: () => void, ms: number) => unknown = setTimeout) {
  let toasts: readonly Toast[] = [];
  let nextId = 1;
  /** Notices waiting for the screen to be free of toasts. */
  const waiting: Array<() => void> = [];
  const listeners = new Set<Listener>();
  const emit = () => listeners.forEach((l) => l());

  function dismiss(id: number) {
    const remaining = toasts.filter((t) => t.id !== id);
    if (remaining.length === toasts.length) return;
    toasts = remaining;
    emit();
    if (toasts.length === 0) waiting.shift()?.();
  }

  function show(kind: ToastKind, text: string, options: { translate?: boolean; notice?: boolean } = {}): number {
    if (options.notice && toasts.length > 0) {
      waiting.push(() => show(kind, text, { translate: options.translate ?? false }));
      return 0;
    }
    const toast: Toast = { id: nextId++, kind, text, translate: options.translate ?? false };
    toasts = [...toasts, toast].slice(-TOAST_MAX);
    emit();
    schedule(() => dismiss(toast.id), DURATION_MS[kind]);
    return toast.id;
  }

  return {
    show,
    dismiss,
    getSnapshot: (): readonly Toast[] => toasts,
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const toasts = createToastStore();

export const toastSuccess = (text: string) => toasts.show('success', text);
export const toastError = (text: string) => toasts.show('error', text);
/** Shows a translation key, translated when rendered (works before the dictionary has loaded). */
export const toastKey = (kind: ToastKind, key: string) => toasts.show(kind, key, { translate: true });
/** A notice of the app's own (a translation key): shown once no other toast is on screen. */
export const toastNotice = (key: string) => toasts.show('info', key, { translate: true, notice: true });
/** A success the server described: its message, or the console's key only when the reply carried none. */
export const toastServerSuccess = (serverMessage: string | null, fallbackKey: string) =>
  serverMessage ? toastSuccess(serverMessage) : toastKey('success', fallbackKey);
