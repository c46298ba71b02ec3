/** The headers every API request carries (specification section 7). */
import { createEmmAuthSession, EMM_AUTH_HEADER } from '@kisht/domain/emm-auth';
import type { ClientDescription } from '../device-details.ts';

export interface HeaderInput {
  /** The request URL (path with or without origin); the EMM key is derived from its path. */
  url: string;
  token: string | null;
  /** The stored deviceDetails JSON text, if any. */
  deviceDetails: string | null;
  client: ClientDescription;
  orgId: number;
  now?: number;
}

/**
 * Header values must be ISO-8859-1: fetch throws on anything else. Device names and languages can
 * hold other characters, so they are sent as JSON \u escapes (still valid JSON for the server).
 */
export function toHeaderSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Re-serialises the stored details so a broken value never breaks the request. */
function deviceDetailsHeader(stored: string | null): string {
  if (!stored) return '{}';
  try {
    return toHeaderSafe(JSON.stringify(JSON.parse(stored)));
  } catch {
    return '{}';
  }
}

export async function buildRequestHeaders(input: HeaderInput): Promise<Record<string, string>> {
  const headers: Record<string, string> = {
    'x-auth-platform': 'mobile',
    'x-device-details': deviceDetailsHeader(input.deviceDetails),
    'x-browser-name': toHeaderSafe(input.client.browserName),
    'x-browser-version': toHeaderSafe(input.client.browserVersion),
    'x-device-type': input.client.deviceType,
    'x-device-platform': toHeaderSafe(input.client.devicePlatform),
  };
  if (input.token) headers.authorization = `Bearer ${input.token}`;
  try {
    headers[EMM_AUTH_HEADER] = await createEmmAuthSession(input.url, input.orgId, input.now);
  } catch (error) {
    // Web Crypto exists only on secure origins (https or localhost); the server will then answer 401.
    console.error('X-EMM-Auth-Session could not be computed', error);
  }
  return headers;
}
