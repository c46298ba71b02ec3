/**
 * The Android Management API provider through our real API, with a local fake of Google's documented
 * endpoints (signupUrls.create, enterprises.create, policies.patch, enrollmentTokens.create).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, RAVI, SUNITA, MEENA, type TestApp } from './harness.ts';
import { deviceFixtures } from './device-fixtures.ts';

interface Call { method: string; path: string; query: URLSearchParams; body: unknown }

async function fakeGoogle() {
  const calls: Call[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://fake');
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.headers.authorization !== 'Bearer static-test-token') return json(401, { error: { code: 401, status: 'UNAUTHENTICATED' } });
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      calls.push({ method: req.method!, path: url.pathname, query: url.searchParams, body });
      if (req.method === 'POST' && url.pathname === '/v1/signupUrls') {
        if (url.searchParams.get('projectId') !== 'kisht-test' || !url.searchParams.get('callbackUrl')) return json(400, { error: { code: 400 } });
        return json(200, { name: 'signupUrls/C0a1b2c3d4', url: 'https://enterprise.google.com/signup/android/email?callbackUrl=x&token=abc' });
      }
      if (req.method === 'POST' && url.pathname === '/v1/enterprises') {
        if (url.searchParams.get('signupUrlName') !== 'signupUrls/C0a1b2c3d4' || url.searchParams.get('enterpriseToken') !== 'EAJ-enterprise-token') return json(400, { error: { code: 400 } });
        return json(200, { name: 'enterprises/LC04abcdef', enterpriseDisplayName: (body as { enterpriseDisplayName?: string }).enterpriseDisplayName });
      }
      if (req.method === 'PATCH' && url.pathname === '/v1/enterprises/LC04abcdef/policies/financed') return json(200, { name: 'enterprises/LC04abcdef/policies/financed', ...body });
      if (req.method === 'POST' && url.pathname === '/v1/enterprises/LC04abcdef/enrollmentTokens') {
        return json(200, {
          name: 'enterprises/LC04abcdef/enrollmentTokens/tok1', value: 'WXYZ1234', policyName: (body as { policyName: string }).policyName,
          expirationTimestamp: '2030-01-02T03:04:05Z',
          qrCode: JSON.stringify({ 'android.app.extra.PROVISIONING_DEVICE_ADMIN_COMPONENT_NAME': 'com.google.android.apps.work.clouddpc/.receivers.CloudDeviceAdminReceiver', 'android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE': { 'com.google.android.apps.work.clouddpc.EXTRA_ENROLLMENT_TOKEN': 'WXYZ1234' } }),
        });
      }
      return json(404, { error: { code: 404 } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let t: TestApp;
let ravi: string;
let google: Awaited<ReturnType<typeof fakeGoogle>>;
let f: ReturnType<typeof deviceFixtures>;

beforeAll(async () => {
  google = await fakeGoogle();
  t = await startTestApp({
    limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 },
    env: { PUBLIC_URL: 'https://api.example.test', AMAPI_URL: google.url, AMAPI_PROJECT_ID: 'kisht-test', AMAPI_TOKEN: 'static-test-token' },
  });
  ravi = (await t.signIn(RAVI)).token;
  f = deviceFixtures(t, () => ravi);
});
afterAll(async () => {
  await t.stop();
  await google.close();
});

/** Signs the organisation up: getOauthUrl, then the browser comes back from Google to our callback. */
async function startSignup(token = ravi): Promise<string> {
  const res = await t.get('/api/auth/getOauthUrl', { token });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().data.url).toMatch(/^https:\/\/enterprise\.google\.com\/signup\//);
  const callbackUrl = new URL(google.calls.filter((c) => c.path === '/v1/signupUrls').at(-1)!.query.get('callbackUrl')!);
  expect(callbackUrl.origin + callbackUrl.pathname).toBe('https://api.example.test/api/amapi/callback');
  return callbackUrl.searchParams.get('state')!;
}
const callback = (state: string, enterpriseToken = 'EAJ-enterprise-token') =>
  t.get(`/api/amapi/callback?${new URLSearchParams({ state, enterpriseToken }).toString()}`, { emm: false });

describe('Android Management API', () => {
  it('AMAPI QR needs the enterprise first', async () => {
    const c = await f.customer({ provisioning_type: 1 });
    expect((await t.get(`/api/amapi/qr?customer_id=${c.id}`, { token: ravi })).json().code).toBe('AMAPI_NOT_LINKED');
  });

  it('getOauthUrl and the callback bind the enterprise to the organisation, once, only with our state', async () => {
    const state = await startSignup();
    // A made-up state binds nothing.
    expect((await callback('A'.repeat(43))).statusCode).toBe(404);
    const res = await callback(state);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ organisation_id: 23, enterprise_name: 'enterprises/LC04abcdef' });
    const created = google.calls.find((c) => c.path === '/v1/enterprises')!;
    expect(created.query.get('projectId')).toBe('kisht-test');
    expect(created.body).toMatchObject({ enterpriseDisplayName: expect.any(String) });
    expect(google.calls.some((c) => c.method === 'PATCH' && c.path === '/v1/enterprises/LC04abcdef/policies/financed')).toBe(true);
    expect((await t.db.query('SELECT org_id, enterprise_name FROM amapi_enterprises')).rows).toEqual([{ org_id: 23, enterprise_name: 'enterprises/LC04abcdef' }]);
    // The state is single-use.
    expect((await callback(state)).statusCode).toBe(404);
  });

  it('only a retailer may start the sign-up', async () => {
    const sunita = (await t.signIn(SUNITA)).token;
    expect((await t.get('/api/auth/getOauthUrl', { token: sunita })).json().code).toBe('ACCESS_DENIED');
    expect((await t.get('/api/auth/getOauthUrl')).statusCode).toBe(511);
  });

  it('gives an AMAPI customer the enrollment token QR, tagged with the customer', async () => {
    const c = await f.customer({ provisioning_type: 1 });
    const res = await t.get(`/api/amapi/qr?customer_id=${c.id}`, { token: ravi });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ customer_id: c.id, expires_at: '2030-01-02T03:04:05.000Z' });
    expect(JSON.parse(res.json().data.qr_payload)['android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE']).toEqual({ 'com.google.android.apps.work.clouddpc.EXTRA_ENROLLMENT_TOKEN': 'WXYZ1234' });
    const call = google.calls.filter((x) => x.path === '/v1/enterprises/LC04abcdef/enrollmentTokens').at(-1)!;
    expect(call.body).toMatchObject({ policyName: 'enterprises/LC04abcdef/policies/financed', oneTimeOnly: true, duration: '86400s' });
    expect(JSON.parse((call.body as { additionalData: string }).additionalData)).toMatchObject({ customer_id: c.id });
    // A DPC customer enrols through the DPC QR, not this one.
    const dpc = await f.customer();
    expect((await t.get(`/api/amapi/qr?customer_id=${dpc.id}`, { token: ravi })).json().code).toBe('WRONG_ENROLMENT_CHANNEL');
  });

  it("refuses another network's customers (404)", async () => {
    const c = await f.customer({ provisioning_type: 1 });
    const meena = (await t.signIn(MEENA)).token;
    expect((await t.get(`/api/amapi/qr?customer_id=${c.id}`, { token: meena })).statusCode).toBe(404);
  });

  it('Apple is off here: its routes answer FEATURE_OFF', async () => {
    const c = await f.customer({ provisioning_type: 3, product_type: 2 });
    expect((await t.get(`/api/apple/qr?customer_id=${c.id}`, { token: ravi })).json().code).toBe('FEATURE_OFF');
    expect((await t.post('/api/apple/sync', undefined, { token: ravi })).json().code).toBe('FEATURE_OFF');
    expect((await t.post('/api/apple/disable_activation_lock', { customer_id: c.id }, { token: ravi })).json().code).toBe('FEATURE_OFF');
    expect((await t.post('/api/apple/install_onemodapp', { customer_id: c.id }, { token: ravi })).json().code).toBe('FEATURE_OFF');
  });
});
