/**
 * The phone's HTTPS calls: enrolment (no credentials); check-in, the lock screen's payment buttons and an offer's
 * picture (Basic device credentials).
 */
import type { CheckInBody, CheckInReply, Sim } from '@kisht/protocol/messages';

export class NetworkDownError extends Error {
  constructor() {
    super('no network');
  }
}

export class HttpError extends Error {
  constructor(readonly status: number, readonly code: string | undefined, text: string, readonly retryAfterSeconds: number | null = null) {
    super(`HTTP ${status}${code ? ` ${code}` : ''}: ${text.slice(0, 200)}`);
  }
}

/** Retry-After in seconds (the delay form; an HTTP date is not used by our server), or null. */
function retryAfter(res: Response): number | null {
  const value = Number(res.headers.get('retry-after'));
  return Number.isInteger(value) && value > 0 ? value : null;
}

export interface EnrolBody {
  token: string;
  imei1: string;
  imei2?: string;
  serial_number?: string;
  sims?: Sim[];
}

export interface EnrolAnswer {
  device_id: string;
  mqtt: { url?: string; username: string; password: string; command_topic: string; event_topic: string };
  offline_secret: string;
  check_in_seconds: number;
}

const TIMEOUT_MS = 15_000;

export const basicAuth = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/** Posts JSON and returns the envelope's `data` (the server answers `{ success, message, data }`). */
export async function postJson<T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new Error(`cannot reach ${url}: ${(error as Error).message}`, { cause: error });
  }
  const text = await res.text();
  let json: { data?: unknown; code?: string } | null;
  try {
    json = JSON.parse(text) as { data?: unknown; code?: string } | null;
  } catch {
    json = null;
  }
  if (!res.ok) throw new HttpError(res.status, json?.code, text, retryAfter(res));
  return (json && 'data' in json ? json.data : json) as T;
}

const join = (server: string, path: string) => `${server.replace(/\/+$/, '')}${path}`;

export function enrolDevice(server: string, body: EnrolBody): Promise<EnrolAnswer> {
  return postJson<EnrolAnswer>(join(server, '/api/device/enrol'), body);
}

export function checkIn(server: string, username: string, password: string, body: CheckInBody): Promise<CheckInReply> {
  return postJson<CheckInReply>(join(server, '/api/device/check-in'), body, { authorization: basicAuth(username, password) });
}

/** "Pay now": the gateway's order for what the customer owes now (POST /api/device/pay_order). */
export interface PayOrder {
  order_id: string;
  amount_paise: number;
  /** A `upi://pay` link for the amount, shown as a QR code. */
  upi_link: string | null;
  /** The gateway's hosted payment page, where it offers one. */
  short_url: string | null;
}

/** "I paid": what the customer says was paid to the retailer's own UPI ID (POST /api/device/payment_claim). */
export interface ClaimBody {
  amount_paise?: number;
  /** The UPI transaction reference the payer app showed. */
  reference?: string;
}

export interface ClaimAnswer {
  id: number;
  status: 'open' | 'confirmed' | 'rejected';
  amount_paise: number | null;
  reference: string | null;
}

export function requestPayOrder(server: string, username: string, password: string): Promise<PayOrder> {
  return postJson<PayOrder>(join(server, '/api/device/pay_order'), {}, { authorization: basicAuth(username, password) });
}

export function sendPaymentClaim(server: string, username: string, password: string, body: ClaimBody): Promise<ClaimAnswer> {
  return postJson<ClaimAnswer>(join(server, '/api/device/payment_claim'), body, { authorization: basicAuth(username, password) });
}

/** The anti-hacking activation (POST /api/antihacking/activate): the code, the mobile it was sold to, this installation. */
export interface ActivationBody {
  code: string;
  mobile: string;
  install_id: string;
  device_model?: string;
}

export interface ActivationAnswer {
  plan_name: string;
  app_type: number;
  activated_at: string;
  expires_at: string;
}

export function activateProtection(server: string, body: ActivationBody): Promise<ActivationAnswer> {
  return postJson<ActivationAnswer>(join(server, '/api/antihacking/activate'), body);
}

/** An offer's picture (revision 6), as the server stores creatives: JPEG or PNG, 5 MB at most. */
export interface OfferImage {
  contentType: 'image/jpeg' | 'image/png';
  bytes: Buffer;
}

const OFFER_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/**
 * Fetches an offer's picture from `path` on the phone's own server with its device credentials. The answer must
 * stay on that server: a redirect elsewhere is not followed, so the credentials never leave it.
 */
export async function fetchOfferImage(server: string, username: string, password: string, path: string): Promise<OfferImage> {
  const url = join(server, path);
  if (!path.startsWith('/') || new URL(url).origin !== new URL(server).origin) throw new Error(`not a path on the server: ${path}`);
  let res: Response;
  try {
    res = await fetch(url, { headers: { authorization: basicAuth(username, password) }, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new Error(`cannot reach ${url}: ${(error as Error).message}`, { cause: error });
  }
  if (!res.ok) {
    const text = await res.text();
    let code: string | undefined;
    try {
      code = (JSON.parse(text) as { code?: string } | null)?.code;
    } catch {
      code = undefined;
    }
    throw new HttpError(res.status, code, text, retryAfter(res));
  }
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'image/jpeg' && type !== 'image/png') throw new Error(`the offer's picture is ${type || 'of no type'}, not JPEG or PNG`);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > OFFER_IMAGE_MAX_BYTES) throw new Error(`the offer's picture is ${bytes.length} bytes, above ${OFFER_IMAGE_MAX_BYTES}`);
  return { contentType: type, bytes };
}
