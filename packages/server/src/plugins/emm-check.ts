/**
 * Server-side X-EMM-Auth-Session check with node:crypto. The key rule comes from the domain package (the
 * console builds the header with it through Web Crypto); node:crypto decrypts synchronously in a few
 * microseconds where Web Crypto's async round trip costs about 150, on every request.
 */
import { createDecipheriv } from 'node:crypto';
import { checkEmmTimestamp, deriveEmmKeyText, parseEmmHeader, type EmmAuthCheck } from '@kisht/domain/emm-auth';

export function checkEmmHeader(value: string, path: string, orgId: number, now: number, windowMs: number): EmmAuthCheck {
  const parts = parseEmmHeader(value);
  if (!parts) return { ok: false, reason: 'malformed' };
  let text: string;
  try {
    const decipher = createDecipheriv('aes-256-cbc', Buffer.from(deriveEmmKeyText(path, orgId), 'utf8'), parts.iv);
    text = Buffer.concat([decipher.update(parts.cipher), decipher.final()]).toString('utf8');
  } catch {
    return { ok: false, reason: 'undecryptable' };
  }
  return checkEmmTimestamp(text, now, windowMs);
}
