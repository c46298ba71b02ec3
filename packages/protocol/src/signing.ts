/**
 * Every command the server publishes and every event a phone publishes is signed with HMAC-SHA256 under
 * the device's secret, over the exact JSON text of the message body. The wire form is
 * `{ "body": "<message JSON>", "sig": "<base64url>" }`, so nothing depends on how a JSON library orders keys.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Derived keys kept at most; past it the memory starts again empty (each device's key is derived again once). */
const DERIVED_KEYS_MAX = 50_000;
const derivedKeys = new Map<string, Buffer>();

/**
 * The key a device's messages are signed with, derived from its secret once and kept: deriving it is an HMAC of its
 * own, half the cost of each signature when done every time (a server signs and checks thousands a second).
 */
function signingKey(secret: string): Buffer {
  let key = derivedKeys.get(secret);
  if (!key) {
    key = createHmac('sha256', Buffer.from(secret, 'base64url')).update('kisht/sign/v1').digest();
    if (derivedKeys.size >= DERIVED_KEYS_MAX) derivedKeys.clear();
    derivedKeys.set(secret, key);
  }
  return key;
}

export function sign(secret: string, text: string): string {
  return createHmac('sha256', signingKey(secret)).update(text).digest('base64url');
}

export function seal(secret: string, message: object): string {
  const body = JSON.stringify(message);
  return JSON.stringify({ body, sig: sign(secret, body) });
}

/** The message inside a sealed text, or null when it is malformed or its signature is wrong. */
export function unseal<T = unknown>(secret: string, text: string | Buffer): T | null {
  let outer: { body?: unknown; sig?: unknown };
  try {
    outer = JSON.parse(text.toString()) as typeof outer;
  } catch {
    return null;
  }
  if (!outer || typeof outer.body !== 'string' || typeof outer.sig !== 'string') return null;
  const expected = Buffer.from(sign(secret, outer.body));
  const given = Buffer.from(outer.sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    return JSON.parse(outer.body) as T;
  } catch {
    return null;
  }
}
