/**
 * The few retailer calls fleet mode needs to get phones enrolled against a running server: sign in with the
 * OTP from the development outbox, add a customer, and fetch the customer's EMM QR. It sends the same
 * headers as the console.
 */
import { createEmmAuthSession, EMM_AUTH_HEADER } from '@kisht/domain/emm-auth';
import { APP_ORG_ID } from '@kisht/domain/constants';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { todayInIndia } from '@kisht/domain/format';
import { addDays } from '@kisht/domain/calendar';
import { HttpError } from './device-api.ts';

/** Ravi Kumar, the demo retailer the server seeds in development. */
export const DEMO_RETAILER_MOBILE = '+919876543210';

/** The headers the console sends about its device; `model` is what the retailer's Sessions screen names the session by. */
const clientHeaders = (model: string) => ({
  'x-auth-platform': 'mobile',
  'x-device-details': JSON.stringify({ model, os: 'Node' }),
  'x-browser-name': 'kisht-agent',
  'x-browser-version': '1.0',
  'x-device-type': 'desktop',
  'x-device-platform': 'Node',
});

export class RetailerApi {
  private token: string | null = null;
  private orgId = APP_ORG_ID;
  private readonly headers: Record<string, string>;

  /** `label` names the session in the retailer's Sessions screen. */
  constructor(readonly server: string, label = 'Kisht device agent') {
    this.headers = clientHeaders(label);
  }

  async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { ...this.headers, [EMM_AUTH_HEADER]: await createEmmAuthSession(path, this.orgId) };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.server.replace(/\/+$/, '')}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}), signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    const json = (() => {
      try {
        return JSON.parse(text) as { data?: T; code?: string };
      } catch {
        return null;
      }
    })();
    if (!res.ok) throw new HttpError(res.status, json?.code, text);
    return json?.data as T;
  }

  /** Signs in with the OTP the development SMS outbox holds (the server must run with SMS_PROVIDER=dev-outbox). */
  async signIn(mobile = DEMO_RETAILER_MOBILE): Promise<void> {
    const requested = await this.request<{ request_id: string }>('POST', '/api/auth/loginWithOtp', { mobile });
    const outbox = await this.request<Array<{ body: string }>>('GET', `/api/dev/outbox?to=${encodeURIComponent(mobile)}&limit=1`);
    const otp = /\b(\d{6})\b/.exec(outbox[0]?.body ?? '')?.[1];
    if (!otp) throw new Error(`no OTP for ${mobile} in the development outbox`);
    const verified = await this.request<{ token: string }>('POST', '/api/auth/verifyOtpAuth', { request_id: requested.request_id, otp });
    this.token = verified.token;
    const org = (JSON.parse(Buffer.from(verified.token.split('.')[1] ?? '', 'base64url').toString() || '{}') as { org?: number }).org;
    if (org) this.orgId = org;
  }

  /** Ends the session signIn opened, so it does not stay behind in the retailer's Sessions screen. */
  async signOut(): Promise<void> {
    if (!this.token) return;
    await this.request('POST', '/api/auth/logout', {});
    this.token = null;
  }

  /** Adds a DPC customer for a phone with this IMEI and returns the customer's id. */
  async addCustomer(imei1: string, name: string): Promise<number> {
    const products = await this.request<Array<{ id: number; product_type: number }>>('GET', '/api/products');
    const product = products.find((p) => p.product_type === 0);
    if (!product) throw new Error('the retailer has no DPC product');
    const today = todayInIndia();
    const created = await this.request<{ customer: { id: number } }>('POST', '/api/customer', {
      first_name: 'Fleet', last_name: name, mobile: '+919800000000', device_brand: 'Samsung', device_model: 'A05',
      imei1, provisioning_type: 0, product_id: product.id, price_paise: 1_200_000, down_payment_paise: 200_000, annual_rate_bps: 0,
      interest_method: 'flat', tenure_months: 6, start_date: today, first_due_date: addDays(today, 30),
    });
    return created.customer.id;
  }

  /** The customer's EMM QR text (a fresh single-use enrolment token inside). */
  async qrPayload(customerId: number): Promise<string> {
    return (await this.request<{ qr_payload: string }>('GET', `/api/customer/generate_emm_code?customer_id=${customerId}`)).qr_payload;
  }
}

/** A random valid IMEI (with its Luhn check digit). */
export function randomImei(): string {
  let body = '35';
  while (body.length < 14) body += Math.floor(Math.random() * 10);
  return withImeiCheckDigit(body);
}
