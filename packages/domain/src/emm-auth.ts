/**
 * X-EMM-Auth-Session: the request timestamp encrypted with AES-CBC under a key derived from the
 * request path and the organisation id. It is an anti-replay and anti-tamper check bound to one path,
 * not a secret: the key derivation ships in the console. The bearer session is the security boundary.
 */
import { EMM_IV_BYTES } from './constants.ts';

export const EMM_AUTH_HEADER = 'x-emm-auth-session';
/** A header older or newer than this is refused. */
export const EMM_AUTH_WINDOW_MS = 60_000;

/** Path only: no origin, no query string. */
export function emmPathOf(url: string): string {
  const withoutOrigin = url.replace(/^[a-z]+:\/\/[^/]+/i, '');
  const path = withoutOrigin.split(/[?#]/, 1)[0] ?? '';
  return path.startsWith('/') ? path : `/${path}`;
}

/**
 * Key text: organisation id times 3, then the last 3 characters of the path, then the path itself,
 * padded and cut to 32 characters (AES-256).
 */
export function deriveEmmKeyText(path: string, orgId: number): string {
  return `${orgId * 3}${path.slice(-3)}${path}`.padEnd(32, '#').slice(0, 32);
}

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> | null {
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

async function importKey(path: string, orgId: number, usage: 'encrypt' | 'decrypt'): Promise<CryptoKey> {
  const raw = new TextEncoder().encode(deriveEmmKeyText(path, orgId));
  return crypto.subtle.importKey('raw', raw, { name: 'AES-CBC' }, false, [usage]);
}

/** Builds the header value `iv:ciphertext` (hex) for a request to `url`. */
export async function createEmmAuthSession(url: string, orgId: number, now: number = Date.now()): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(EMM_IV_BYTES));
  const key = await importKey(emmPathOf(url), orgId, 'encrypt');
  const cipher = await crypto.subtle.encrypt({ name: 'AES-CBC', iv }, key, new TextEncoder().encode(String(now)));
  return `${toHex(iv)}:${toHex(new Uint8Array(cipher))}`;
}

/** Splits `iv:ciphertext` (hex) into bytes; null unless the IV is 16 bytes and the ciphertext whole AES blocks. */
export function parseEmmHeader(value: string): { iv: Uint8Array<ArrayBuffer>; cipher: Uint8Array<ArrayBuffer> } | null {
  const [ivHex, cipherHex, extra] = value.split(':');
  if (extra !== undefined || !ivHex || !cipherHex) return null;
  const iv = fromHex(ivHex);
  const cipher = fromHex(cipherHex);
  if (!iv || !cipher || iv.length !== EMM_IV_BYTES || cipher.length === 0 || cipher.length % 16 !== 0) return null;
  return { iv, cipher };
}

export type EmmAuthCheck = { ok: true; timestamp: number } | { ok: false; reason: 'malformed' | 'undecryptable' | 'stale' };

/** Decrypts and checks the freshness of a header value; replay detection is the caller's (it needs shared state). */
export async function verifyEmmAuthSession(
  value: string,
  path: string,
  orgId: number,
  now: number = Date.now(),
  windowMs: number = EMM_AUTH_WINDOW_MS,
): Promise<EmmAuthCheck> {
  const parts = parseEmmHeader(value);
  if (!parts) return { ok: false, reason: 'malformed' };
  const { iv, cipher } = parts;
  let text: string;
  try {
    const key = await importKey(path, orgId, 'decrypt');
    const plain = await crypto.subtle.decrypt({ name: 'AES-CBC', iv }, key, cipher);
    text = new TextDecoder().decode(plain);
  } catch {
    return { ok: false, reason: 'undecryptable' };
  }
  return checkEmmTimestamp(text, now, windowMs);
}

/** The decrypted text must be a millisecond timestamp within the window around `now`. */
export function checkEmmTimestamp(text: string, now: number, windowMs: number): EmmAuthCheck {
  if (!/^\d{10,16}$/.test(text)) return { ok: false, reason: 'undecryptable' };
  const timestamp = Number(text);
  if (Math.abs(now - timestamp) > windowMs) return { ok: false, reason: 'stale' };
  return { ok: true, timestamp };
}
