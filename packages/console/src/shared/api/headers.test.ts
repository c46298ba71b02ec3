import { describe, expect, it } from 'vitest';
import { verifyEmmAuthSession } from '@kisht/domain/emm-auth';
import { buildRequestHeaders, toHeaderSafe } from './headers.ts';

const client = { browserName: 'Android WebView', browserVersion: '120.0', deviceType: 'mobile' as const, devicePlatform: 'Android' };

describe('buildRequestHeaders', () => {
  it('sends the platform headers, the bearer token and an EMM header bound to the path and organisation', async () => {
    const now = Date.now();
    const headers = await buildRequestHeaders({
      url: '/api/sessions/my-sessions?x=1',
      token: 'a.b.c',
      deviceDetails: '{"device_id":"d1","model":"A15"}',
      client,
      orgId: 23,
      now,
    });
    expect(headers).toMatchObject({
      authorization: 'Bearer a.b.c',
      'x-auth-platform': 'mobile',
      'x-device-details': '{"device_id":"d1","model":"A15"}',
      'x-browser-name': 'Android WebView',
      'x-browser-version': '120.0',
      'x-device-type': 'mobile',
      'x-device-platform': 'Android',
    });
    const emm = headers['x-emm-auth-session']!;
    expect(emm).toMatch(/^[0-9a-f]{32}:[0-9a-f]+$/);
    await expect(verifyEmmAuthSession(emm, '/api/sessions/my-sessions', 23, now)).resolves.toEqual({ ok: true, timestamp: now });
    await expect(verifyEmmAuthSession(emm, '/api/sessions/my-sessions', 46, now)).resolves.toMatchObject({ ok: false });
  });

  it('leaves Authorization out without a token and survives broken device details', async () => {
    const headers = await buildRequestHeaders({ url: '/api/pricing', token: null, deviceDetails: '{oops', client, orgId: 23 });
    expect(headers.authorization).toBeUndefined();
    expect(headers['x-device-details']).toBe('{}');
  });

  it('keeps every header value in ISO-8859-1 so fetch accepts it', async () => {
    const headers = await buildRequestHeaders({
      url: '/api/pricing',
      token: null,
      deviceDetails: JSON.stringify({ model: 'फ़ोन', owner: 'Zoë' }),
      client: { ...client, devicePlatform: 'Andróid' },
      orgId: 23,
    });
    for (const value of Object.values(headers)) expect(value).toMatch(/^[\x20-\x7e]*$/);
    expect(JSON.parse(headers['x-device-details']!)).toEqual({ model: 'फ़ोन', owner: 'Zoë' });
  });
});

describe('toHeaderSafe', () => {
  it('escapes characters outside printable ASCII', () => {
    expect(toHeaderSafe('abc')).toBe('abc');
    expect(toHeaderSafe('é\n')).toBe('\\u00e9\\u000a');
  });
});
