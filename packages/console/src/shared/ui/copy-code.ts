/**
 * Copying a code the retailer reads out or sends on (an offline code, an anti-hacking code): no code says so, a
 * copy says it was copied. Older WebViews without the Clipboard API (or a refused permission) copy through a
 * selected text area. The toasts' words are the caller's (translation keys).
 */
import { toastKey } from './toast-store.ts';

export interface CopyMessages {
  notFound: string;
  copied: string;
  failed: string;
}

function copyBySelection(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

export async function copyCode(text: string | null | undefined, messages: CopyMessages): Promise<void> {
  if (!text) {
    toastKey('error', messages.notFound);
    return;
  }
  let copied = false;
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      copied = true;
    }
  } catch {
    // Refused (no permission, not a secure context): the older way below.
  }
  if (!copied) copied = copyBySelection(text);
  toastKey(copied ? 'success' : 'error', copied ? messages.copied : messages.failed);
}
