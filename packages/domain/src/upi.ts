/**
 * UPI payment addresses (VPA, "name@bank") and the `upi://pay` links a UPI QR code carries (NPCI's linking
 * specification: pa = payee address, pn = payee name, am = amount in rupees, cu = INR, tn = note, tr = reference).
 */

/** NUL and other control characters, and the bidirectional overrides that can make text read backwards. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** A VPA: a handle of letters, digits, dots, hyphens or underscores, then @ and the provider's letters. */
const VPA = /^[a-zA-Z0-9][a-zA-Z0-9._-]{1,255}@[a-zA-Z][a-zA-Z0-9]{1,63}$/;

export function isValidVpa(value: string): boolean {
  return VPA.test(value);
}

export interface UpiPayee {
  /** The payee's address, as written (UPI addresses are case-insensitive; shown as given). */
  vpa: string;
  /** The payee's name, when the link names one. */
  name: string | null;
}

/** The payee of a `upi://pay?...` link (what a UPI QR code holds), or null when the text is not one. */
export function parseUpiLink(text: string): UpiPayee | null {
  const trimmed = text.trim();
  if (!/^upi:\/\/pay\?/i.test(trimmed)) return null;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(trimmed.slice(trimmed.indexOf('?') + 1));
  } catch {
    return null;
  }
  const vpa = params.get('pa')?.trim() ?? '';
  if (!isValidVpa(vpa)) return null;
  // A name is shown to customers and stored: control and direction-changing characters are dropped.
  const name = params.get('pn')?.replace(CONTROL, '').trim().replace(/\s+/g, ' ').slice(0, 100) || null;
  return { vpa, name };
}
