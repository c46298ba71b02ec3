/** The cryptography of sign-in: OTP codes, MPIN hashes and access tokens. Keys derive from APP_SECRET. */
import { createHmac, randomInt, scrypt as scryptCb, timingSafeEqual, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number }) => Promise<Buffer>;

export function generateOtp(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** Binds a code to its request: the same code under another request id hashes differently. */
export function hashOtp(key: Buffer, requestId: string, code: string): string {
  return createHmac('sha256', key).update(`${requestId}:${code}`).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

const SCRYPT = { N: 16384, r: 8, p: 1 };

export async function hashMpin(mpin: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(mpin, salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function checkMpin(mpin: string, stored: string): Promise<boolean> {
  const [scheme, n, saltText, hashText] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !saltText || !hashText) return false;
  const expected = Buffer.from(hashText, 'base64url');
  const actual = await scrypt(mpin, Buffer.from(saltText, 'base64url'), expected.length, { ...SCRYPT, N: Number(n) });
  return timingSafeEqual(actual, expected);
}

/** All one digit, or a straight run up or down (1234, 9876): the first guesses anyone tries. */
export function isWeakMpin(mpin: string): boolean {
  const digits = [...mpin].map(Number);
  const steps = digits.slice(1).map((d, i) => d - digits[i]!);
  return steps.every((s) => s === 0) || steps.every((s) => s === 1) || steps.every((s) => s === -1);
}

export interface AccessClaims {
  sub: string;
  sid: string;
  org: number;
  acc: number;
}

const ISSUER = 'kisht';

export async function signAccessToken(key: Buffer, claims: AccessClaims, expiresAt: Date): Promise<string> {
  return new SignJWT({ sid: claims.sid, org: claims.org, acc: claims.acc })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(key);
}

/** The claims of a token signed by us and not expired; null for anything else. */
export async function readAccessToken(key: Buffer, token: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.org !== 'number' || typeof payload.acc !== 'number') {
      return null;
    }
    return { sub: payload.sub, sid: payload.sid, org: payload.org, acc: payload.acc };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}

/** The org claim of a token without checking it: only to pick the X-EMM-Auth-Session key. */
export function peekOrg(token: string): number | null {
  const middle = token.split('.')[1];
  if (!middle) return null;
  try {
    const payload = JSON.parse(Buffer.from(middle, 'base64url').toString('utf8')) as { org?: unknown };
    return typeof payload.org === 'number' ? payload.org : null;
  } catch {
    return null;
  }
}
