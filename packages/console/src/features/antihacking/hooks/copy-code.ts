/**
 * Copying an anti-hacking code (spec section 5): no code says "Code not found", a copy says "Code Copied
 * Successfully.". The code goes out in its four groups of four, as the screen shows it and as the security app
 * accepts it; older WebViews without the Clipboard API copy through a selected text area.
 */
import { formatActivationCode } from '@kisht/domain/activation-code';
import { toastKey } from '../../../shared/ui/toast-store.ts';

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

export async function copyActivationCode(code: string | null | undefined): Promise<void> {
  if (!code) {
    toastKey('error', 'antihacking.code.notFound');
    return;
  }
  const text = formatActivationCode(code);
  let copied = false;
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      copied = true;
    }
  } catch {
    // Refused (no permission, not a secure context): try the older way.
  }
  if (!copied) copied = copyBySelection(text);
  if (copied) toastKey('success', 'antihacking.code.copied');
  else toastKey('error', 'antihacking.code.copyFailed');
}
