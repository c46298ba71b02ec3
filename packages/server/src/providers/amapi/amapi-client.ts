/**
 * The Android Management API calls we make: signupUrls.create and enterprises.create (binding an
 * organisation's enterprise), policies.patch (the financed-device policy) and enrollmentTokens.create
 * (the QR a phone scans at setup). JSON over HTTPS with a bearer token from the token provider.
 */
import type { GoogleTokenProvider } from './token-provider.ts';

export interface SignupUrl { name: string; url: string }
export interface Enterprise { name: string; enterpriseDisplayName?: string }
export interface EnrollmentToken { name: string; value: string; qrCode: string; expirationTimestamp?: string; policyName?: string }

export interface AmapiClient {
  createSignupUrl(projectId: string, callbackUrl: string): Promise<SignupUrl>;
  createEnterprise(projectId: string, signupUrlName: string, enterpriseToken: string, displayName: string): Promise<Enterprise>;
  patchPolicy(policyName: string, policy: object): Promise<void>;
  createEnrollmentToken(enterpriseName: string, token: { policyName: string; duration: string; oneTimeOnly: boolean; additionalData: string }): Promise<EnrollmentToken>;
}

export class AmapiError extends Error {
  constructor(readonly status: number, detail: string) {
    super(`Android Management API answered ${status}: ${detail.slice(0, 200)}`);
  }
}

export class HttpAmapiClient implements AmapiClient {
  constructor(private readonly options: { baseUrl: string; tokens: GoogleTokenProvider; fetchImpl?: typeof fetch }) {}

  private async call<T>(method: 'POST' | 'PATCH', path: string, query: Record<string, string>, body: object | undefined): Promise<T> {
    const url = `${this.options.baseUrl}/v1/${path}${Object.keys(query).length ? `?${new URLSearchParams(query).toString()}` : ''}`;
    const res = await (this.options.fetchImpl ?? fetch)(url, {
      method,
      headers: { authorization: `Bearer ${await this.options.tokens.token()}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    if (!res.ok) throw new AmapiError(res.status, await res.text());
    return (await res.json()) as T;
  }

  createSignupUrl(projectId: string, callbackUrl: string): Promise<SignupUrl> {
    return this.call('POST', 'signupUrls', { projectId, callbackUrl }, undefined);
  }

  createEnterprise(projectId: string, signupUrlName: string, enterpriseToken: string, displayName: string): Promise<Enterprise> {
    return this.call('POST', 'enterprises', { projectId, signupUrlName, enterpriseToken }, { enterpriseDisplayName: displayName });
  }

  async patchPolicy(policyName: string, policy: object): Promise<void> {
    await this.call('PATCH', policyName, {}, policy);
  }

  createEnrollmentToken(enterpriseName: string, token: { policyName: string; duration: string; oneTimeOnly: boolean; additionalData: string }): Promise<EnrollmentToken> {
    return this.call('POST', `${enterpriseName}/enrollmentTokens`, {}, token);
  }
}
