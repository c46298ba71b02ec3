/**
 * Bearer tokens for Google's APIs. Production: a service account's key signs a JWT assertion that Google's
 * token endpoint exchanges for an access token (OAuth 2.0 JWT bearer grant), kept until shortly before it
 * expires. Development and tests: a fixed token (AMAPI_TOKEN), which a local fake accepts.
 */
import { readFile } from 'node:fs/promises';
import { importPKCS8, SignJWT } from 'jose';

export interface GoogleTokenProvider {
  token(): Promise<string>;
}

export class StaticTokenProvider implements GoogleTokenProvider {
  constructor(private readonly value: string) {}
  token(): Promise<string> {
    return Promise.resolve(this.value);
  }
}

interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri?: string;
}

export const ANDROID_MANAGEMENT_SCOPE = 'https://www.googleapis.com/auth/androidmanagement';

export class ServiceAccountTokenProvider implements GoogleTokenProvider {
  private cached: { value: string; until: number } | null = null;
  private key: ServiceAccountKey | null = null;

  constructor(private readonly options: { keyFile: string; scope?: string; fetchImpl?: typeof fetch }) {}

  async token(): Promise<string> {
    if (this.cached && this.cached.until > Date.now()) return this.cached.value;
    this.key ??= JSON.parse(await readFile(this.options.keyFile, 'utf8')) as ServiceAccountKey;
    const tokenUri = this.key.token_uri ?? 'https://oauth2.googleapis.com/token';
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ scope: this.options.scope ?? ANDROID_MANAGEMENT_SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(this.key.private_key_id ? { kid: this.key.private_key_id } : {}) })
      .setIssuer(this.key.client_email).setAudience(tokenUri).setIssuedAt(now).setExpirationTime(now + 3600)
      .sign(await importPKCS8(this.key.private_key, 'RS256'));
    const res = await (this.options.fetchImpl ?? fetch)(tokenUri, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
      signal: AbortSignal.timeout(15_000),
    });
    if (!res.ok) throw new Error(`Google token endpoint answered ${res.status}`);
    const body = (await res.json()) as { access_token: string; expires_in?: number };
    this.cached = { value: body.access_token, until: Date.now() + ((body.expires_in ?? 3600) - 120) * 1000 };
    return body.access_token;
  }
}
