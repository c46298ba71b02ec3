/**
 * Hands text to the phone's share sheet (WhatsApp, SMS), or copies it where there is none or it is refused
 * (a WebView may expose navigator.share and still reject it). Cancelling the sheet is not a failure.
 */
export type ShareOutcome = 'shared' | 'copied' | 'cancelled' | 'failed';

export async function shareTextOrCopy(title: string, text: string, nav: Pick<Navigator, 'share' | 'clipboard'> = navigator): Promise<ShareOutcome> {
  if (typeof nav.share === 'function') {
    try {
      await nav.share({ title, text });
      return 'shared';
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
    }
  }
  try {
    await nav.clipboard.writeText(text);
    return 'copied';
  } catch {
    return 'failed';
  }
}
