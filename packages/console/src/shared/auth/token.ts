/** Reads the access token's payload (the JWT's middle segment). The signature is the server's business. */

export interface TokenPayload {
  /** User id. */
  sub?: string;
  /** Server-side session id. */
  sid?: string;
  /** Organisation id. */
  org?: number;
  /** Account id. */
  acc?: number;
  /** Expiry, seconds since the epoch. */
  exp?: number;
}

function decodeBase64Url(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The payload, or null when the token is missing or not a readable JWT. */
export function decodeTokenPayload(token: string | null | undefined): TokenPayload | null {
  if (!token) return null;
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const value: unknown = JSON.parse(decodeBase64Url(parts[1]));
    if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
    const raw = value as Record<string, unknown>;
    const payload: TokenPayload = {};
    if (raw.sub !== undefined && raw.sub !== null) payload.sub = String(raw.sub);
    if (typeof raw.sid === 'string') payload.sid = raw.sid;
    const org = Number(raw.org);
    if (raw.org !== undefined && Number.isInteger(org)) payload.org = org;
    const acc = Number(raw.acc);
    if (raw.acc !== undefined && Number.isInteger(acc)) payload.acc = acc;
    if (typeof raw.exp === 'number' && Number.isFinite(raw.exp)) payload.exp = raw.exp;
    return payload;
  } catch {
    return null;
  }
}

/** True when the payload carries an expiry that has passed. A token without `exp` is left to the server. */
export function isTokenExpired(payload: TokenPayload | null, now: number = Date.now()): boolean {
  return payload?.exp !== undefined && payload.exp * 1000 <= now;
}

/**
 * The organisation for the X-EMM-Auth-Session key: the token's `org` when signed in, else the
 * configured default (VITE_APP_ORG_ID when it is a positive integer, else APP_ORG_ID).
 */
export function resolveOrgId(token: string | null | undefined, configured: string | undefined, appOrgId: number): number {
  const fromToken = decodeTokenPayload(token)?.org;
  if (fromToken !== undefined && fromToken > 0) return fromToken;
  const override = Number(configured);
  if (configured && Number.isInteger(override) && override > 0) return override;
  return appOrgId;
}
