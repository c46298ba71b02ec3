/**
 * Apple Business Manager's device assignment service (DEP) and the Activation Lock escrow service.
 * DEP: a session token from `GET /session` signed with the server token's OAuth 1.0a credentials, then
 * JSON calls with `X-ADM-Auth-Session`; a 401 means the session ended and is answered by a new one.
 * Activation Lock is lifted with the device's bypass code at the escrow service (`escrowKeyUnlock`).
 */
import { createHmac, randomBytes } from 'node:crypto';

export interface DepServerToken {
  consumerKey: string;
  consumerSecret: string;
  accessToken: string;
  accessSecret: string;
}

export interface DepDevice {
  serial_number: string;
  model?: string;
  description?: string;
  color?: string;
  asset_tag?: string;
  os?: string;
  device_family?: string;
  profile_status?: string;
  profile_uuid?: string;
  profile_assign_time?: string;
  device_assigned_date?: string;
  device_assigned_by?: string;
  op_type?: string;
  op_date?: string;
}

export interface DepPage {
  devices: DepDevice[];
  cursor: string;
  more_to_follow: boolean;
  fetched_until?: string;
}

export interface EscrowUnlock {
  serial: string;
  productType: string;
  imei?: string | null;
  bypassCode: string;
  orgName: string;
  guid?: string | null;
}

export interface DepClient {
  /** First run (no cursor): every device assigned to our MDM server. */
  fetchDevices(cursor: string | null, limit: number): Promise<DepPage>;
  /** Later runs: what changed since the cursor (op_type added, modified, deleted). */
  syncDevices(cursor: string, limit: number): Promise<DepPage>;
  disableActivationLock(request: EscrowUnlock): Promise<void>;
}

export class VendorError extends Error {
  constructor(readonly vendor: string, readonly status: number, detail: string) {
    super(`${vendor} answered ${status}: ${detail.slice(0, 200)}`);
  }
}

const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** An OAuth 1.0a Authorization header (HMAC-SHA1) for a request without body parameters. */
export function oauth1Header(method: string, url: string, token: DepServerToken, now = Date.now(), nonce = randomBytes(16).toString('hex')): string {
  const u = new URL(url);
  const oauth: Record<string, string> = {
    oauth_consumer_key: token.consumerKey, oauth_token: token.accessToken, oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: String(Math.floor(now / 1000)), oauth_nonce: nonce, oauth_version: '1.0',
  };
  const params = [...Object.entries(oauth), ...u.searchParams.entries()].map(([k, v]) => [encode(k), encode(v)] as const).sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1));
  const base = [method.toUpperCase(), encode(`${u.origin}${u.pathname}`), encode(params.map(([k, v]) => `${k}=${v}`).join('&'))].join('&');
  const signature = createHmac('sha1', `${encode(token.consumerSecret)}&${encode(token.accessSecret)}`).update(base).digest('base64');
  return `OAuth ${Object.entries({ ...oauth, oauth_signature: signature }).map(([k, v]) => `${k}="${encode(v)}"`).join(', ')}`;
}

export class HttpDepClient implements DepClient {
  private session: string | null = null;

  constructor(private readonly options: { depUrl: string; escrowUrl: string; token: DepServerToken; fetchImpl?: typeof fetch }) {}

  private get fetch() {
    return this.options.fetchImpl ?? fetch;
  }

  private async newSession(): Promise<string> {
    const url = `${this.options.depUrl}/session`;
    const res = await this.fetch(url, { headers: { authorization: oauth1Header('GET', url, this.options.token) }, signal: AbortSignal.timeout(15_000) });
    if (!res.ok) throw new VendorError('DEP', res.status, await res.text());
    const body = (await res.json()) as { auth_session_token?: string };
    if (!body.auth_session_token) throw new VendorError('DEP', res.status, 'no auth_session_token');
    this.session = body.auth_session_token;
    return this.session;
  }

  private async call<T>(path: string, body: object): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const session = this.session ?? (await this.newSession());
      const res = await this.fetch(`${this.options.depUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json;charset=UTF8', 'x-adm-auth-session': session, 'x-server-protocol-version': '3' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      // Apple ends sessions after a while: one fresh session, then the error stands.
      if (res.status === 401 && attempt === 0) {
        this.session = null;
        continue;
      }
      if (!res.ok) throw new VendorError('DEP', res.status, await res.text());
      const next = res.headers.get('x-adm-auth-session');
      if (next) this.session = next;
      return (await res.json()) as T;
    }
  }

  fetchDevices(cursor: string | null, limit: number): Promise<DepPage> {
    return this.call('/server/devices', { limit, ...(cursor ? { cursor } : {}) });
  }

  syncDevices(cursor: string, limit: number): Promise<DepPage> {
    return this.call('/devices/sync', { cursor, limit });
  }

  async disableActivationLock(request: EscrowUnlock): Promise<void> {
    const query = new URLSearchParams({ serial: request.serial, productType: request.productType, ...(request.imei ? { imei: request.imei } : {}) });
    const form = new URLSearchParams({ orgName: request.orgName, escrowKey: request.bypassCode, ...(request.guid ? { guid: request.guid } : {}) });
    const res = await this.fetch(`${this.options.escrowUrl}/deviceservicesworkers/escrowKeyUnlock?${query.toString()}`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString(), signal: AbortSignal.timeout(30_000),
    });
    if (!res.ok) throw new VendorError('Activation Lock', res.status, await res.text());
  }
}
