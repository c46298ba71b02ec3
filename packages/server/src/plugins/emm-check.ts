/**
 * Server-side X-EMM-Auth-Session check with node:crypto. The key rule comes from the domain package (the
 * console builds the header with it through Web Crypto); node:crypto decrypts synchronously in a few
 * microseconds where Web Crypto's async round trip costs about 150, on every request.
 */
import { createDecipheriv } from 'node:crypto';
import { EMM_IV_BYTES } from '@kisht/domain/constants';
import { checkEmmTimestamp, deriveEmmKeyText, type EmmAuthCheck } from '@kisht/domain/emm-auth';

const HEX = /^[0-9a-fA-F]+$/;

export function checkEmmHeader(value: string, path: string, orgId: number, now: number, windowMs: number): EmmAuthCheck {
  const parts = value.split(':');
  if (parts.length !== 2) return { ok: false, reason: 'malformed' };
  const [ivHex, cipherHex] = parts as [string, string];
  if (ivHex.length !== EMM_IV_BYTES * 2 || cipherHex.length === 0 || cipherHex.length % 32 !== 0 || !HEX.test(ivHex) || !HEX.test(cipherHex)) {
    return { ok: false, reason: 'malformed' };
  }
  let text: string;
  try {
    const decipher = createDecipheriv('aes-256-cbc', Buffer.from(deriveEmmKeyText(path, orgId), 'utf8'), Buffer.from(ivHex, 'hex'));
    text = Buffer.concat([decipher.update(Buffer.from(cipherHex, 'hex')), decipher.final()]).toString('utf8');
  } catch {
    return { ok: false, reason: 'undecryptable' };
  }
  return checkEmmTimestamp(text, now, windowMs);
}
