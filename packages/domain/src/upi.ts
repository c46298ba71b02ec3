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

/** What a `upi://pay` link asks for. */
export interface UpiPayRequest {
  /** The payee's address (pa). */
  vpa: string;
  /** The payee's name as the payer's app shows it (pn). */
  name: string;
  /** The amount in paise (am, in rupees with two decimals); left out when nothing is asked, so the payer types it. */
  amountPaise?: number | null;
  /** A note the payer's app shows and sends on (tn), cut to 50 characters. */
  note?: string | null;
  /** Our reference for the payment (tr), where we have one. */
  reference?: string | null;
}

/**
 * Percent-encodes one parameter value the way UPI apps read it: a space is %20 (URLSearchParams writes '+',
 * which some apps show as a plus), and the '@' of an address stays as written, as in the banks' own QR codes.
 */
function upiValue(value: string): string {
  return encodeURIComponent(value).replace(/%40/g, '@');
}

/** Text for pn and tn: no control or direction-changing characters, spaces collapsed, at most `max` characters. */
function upiText(value: string, max: number): string {
  return Array.from(value.replace(CONTROL, '').trim().replace(/\s+/g, ' ')).slice(0, max).join('').trim();
}

/**
 * The one builder of `upi://pay` links (NPCI's linking specification): pa, pn, then tr, tn and am when given,
 * and cu=INR. Every screen that shows a UPI QR for a payment to us or to a shop builds it here.
 */
export function upiPayLink(request: UpiPayRequest): string {
  const params: Array<[string, string]> = [['pa', request.vpa.trim()], ['pn', upiText(request.name, 99)]];
  if (request.reference) params.push(['tr', upiText(request.reference, 35)]);
  const note = request.note ? upiText(request.note, 50) : '';
  if (note) params.push(['tn', note]);
  if (request.amountPaise && request.amountPaise > 0) params.push(['am', (request.amountPaise / 100).toFixed(2)]);
  params.push(['cu', 'INR']);
  return `upi://pay?${params.map(([key, value]) => `${key}=${upiValue(value)}`).join('&')}`;
}
