import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOCK_ACCESS, DEFAULT_USER_ACCESS, LANGUAGES } from '@kisht/domain/constants';
import { startTestApp, RAVI, SUNITA, MEENA, type TestApp } from './harness.ts';
import { runOperatorCommand } from '../src/modules/operator/operator.service.ts';
import { defaultClientId } from '../src/config.ts';
import { requireAccess } from '../src/plugins/access.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 } });
});
afterAll(() => t.stop());

const quiet = () => undefined;

describe('organisation config', () => {
  it('white-labels org 23 by name', async () => {
    const res = await t.get('/api/organizations/get_org_app_config');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      org_id: 23, short_name: 'one-touch', name: 'One Touch', main_layout: 'tabs', antihacking_layout: 'standard',
      company_name: expect.any(String), parent_company_name: expect.any(String), ai_assistant_name: expect.any(String),
    });
  });

  it("gives feature switches of the caller's own organisation, all off by default", async () => {
    const ravi = await t.signIn(RAVI);
    const meena = await t.signIn(MEENA);
    const res = await t.get('/api/config/get_app_configs', { token: ravi.token });
    expect(res.json().data).toMatchObject({ features: { witness_signature: false, payment_gateway: false, outstanding_amount: false }, languages: [...LANGUAGES], cache_seconds: { default: 60, query: 300, plans: 5 } });
    expect(await runOperatorCommand(t.db, ['feature', '46', 'witness_signature', 'on'], quiet)).toBe(0);
    expect((await t.get('/api/config/get_app_configs', { token: meena.token })).json().data.features.witness_signature).toBe(true);
    expect((await t.get('/api/config/get_app_configs', { token: ravi.token })).json().data.features.witness_signature).toBe(false);
    expect(await runOperatorCommand(t.db, ['feature', '46', 'nonsense', 'on'], quiet)).toBe(1);
  });
});

describe('access switches', () => {
  it('start at the spec defaults and are stored per user', async () => {
    const ravi = await t.signIn(RAVI);
    const sunita = await t.signIn(SUNITA);
    expect((await t.get('/api/user/user_access', { token: ravi.token })).json().data).toEqual(DEFAULT_USER_ACCESS);
    expect((await t.get('/api/config/access-config', { token: ravi.token })).json().data).toEqual(DEFAULT_LOCK_ACCESS);
    expect(await runOperatorCommand(t.db, ['access', SUNITA, 'lock_unlock=0', 'uninstall=0'], quiet)).toBe(0);
    expect((await t.get('/api/user/user_access', { token: sunita.token })).json().data.lock_unlock).toBe('0');
    expect((await t.get('/api/config/access-config', { token: sunita.token })).json().data.uninstall).toBe('0');
    expect((await t.get('/api/user/user_access', { token: ravi.token })).json().data.lock_unlock).toBe('1');
    expect(await runOperatorCommand(t.db, ['access', SUNITA, 'lock_unlock=2'], quiet)).toBe(1);
    expect(await runOperatorCommand(t.db, ['access', SUNITA, 'bogus=1'], quiet)).toBe(1);
  });

  it('are enforced by the server with 403, not only hidden in the console', async () => {
    // A gated route as later features declare it, registered on a second server of the same build.
    const gated = await startTestApp();
    gated.app.post('/api/test/gated-lock', { config: { callers: ['retailer', 'miniretailer'], scope: 'account' }, preHandler: requireAccess({ userAccess: ['lock_unlock'], lockAccess: ['lock'] }), schema: { hide: true } }, async () => ({ success: true, message: 'ok', data: {} }));
    const ravi = await gated.signIn(RAVI);
    expect((await gated.post('/api/test/gated-lock', {}, { token: ravi.token })).statusCode).toBe(200);
    await runOperatorCommand(gated.db, ['access', RAVI, 'lock=0'], quiet);
    const denied = await gated.post('/api/test/gated-lock', {}, { token: ravi.token });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('ACCESS_DENIED');
    await runOperatorCommand(gated.db, ['access', RAVI, 'lock=1', 'lock_unlock=0'], quiet);
    expect((await gated.post('/api/test/gated-lock', {}, { token: ravi.token })).statusCode).toBe(403);
    expect((await gated.post('/api/test/gated-lock', {})).statusCode).toBe(511);
    await gated.stop();
  });
});

describe('public pages and documents', () => {
  it('serves the price list with null for "ask the admin"', async () => {
    const list = (await t.get('/api/pricing')).json().data as Array<{ price_paise: number | null; name: string }>;
    expect(list.length).toBeGreaterThan(3);
    expect(list.some((p) => p.price_paise === null)).toBe(true);
    expect(list.every((p) => p.price_paise === null || Number.isInteger(p.price_paise))).toBe(true);
  });

  it('serves the ten locale files and 404s anything else', async () => {
    for (const lng of LANGUAGES) {
      const res = await t.get(`/locales/${lng}.json`, { emm: false });
      expect(res.statusCode, lng).toBe(200);
      expect(res.json().errors?.SESSION_INVALID, lng).toEqual(expect.any(String));
    }
    expect((await t.get('/locales/xx.json', { emm: false })).statusCode).toBe(404);
    expect((await t.get('/locales/..%2Fpackage.json', { emm: false })).statusCode).toBeGreaterThanOrEqual(400);
  });

  it('reports database and broker health', async () => {
    const res = await t.get('/api/health', { emm: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ok',
      database: { ok: true, driver: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite' },
      broker: { ok: true, mode: process.env.TEST_MQTT_URL ? 'external' : 'embedded' },
    });
  });

  it('describes every API route in the OpenAPI document', async () => {
    const doc = (await t.get('/api/openapi.json', { emm: false })).json();
    expect(doc.openapi).toBe('3.1.0');
    const documented = new Set(Object.keys(doc.paths));
    const expected = [
      '/api/auth/loginWithOtp', '/api/auth/verifyOtpAuth', '/api/auth/resend-otp', '/api/auth/forgot-password',
      '/api/auth/reset-password', '/api/auth/send-otp-to-user', '/api/auth/logout', '/api/auth/set-mpin', '/api/auth/verify-mpin',
      '/api/user/signup_request', '/api/user/get-details', '/api/user/user_access', '/api/sessions/my-sessions',
      '/api/sessions/logout-my-session', '/api/organizations/get_org_app_config', '/api/config/get_app_configs',
      '/api/config/access-config', '/api/pricing', '/api/health', '/api/dev/outbox', '/locales/{file}',
      '/api/customer', '/api/customer/create-customer-hdb', '/api/customer/get_customers_keygen', '/api/country/getCustomerProfile',
      '/api/customer/financer_list', '/api/products', '/api/plans', '/api/plans/readById', '/api/brands', '/api/countries', '/api/states',
      '/api/cities', '/api/emi/customer_emi_details', '/api/country/get_emi_details', '/api/emi/update_emi_status',
      '/api/emi/multiple_emi_paid', '/api/emi/reverse_payment', '/api/emi/receipt', '/api/emi/getUpcomingEmi',
      '/api/emi/upcoming_emi_counts', '/api/emi/getTotalOutStanding', '/api/operator/run',
      '/api/customer/update_profile_image', '/api/customer/update_customer_signature', '/api/customer/update_witness_signature',
      '/api/customer/update_customer_invoice', '/api/customer/customer_document', '/api/customer/get_keygen_dashboardV1',
      '/api/customer/update_customer_detailsV3', '/api/customer/customerRegistrationByKegenUpdateV3', '/api/emi/send_penalty',
      '/api/emi/update_emi_details', '/api/emi/add_emi_details', '/api/emi/send_emialert', '/api/emi/emi_alerts', '/api/user/license_balance',
      '/api/emi/payments', '/api/customer/generate_emm_code', '/api/customer/get_customers_qrCode', '/api/device/enrol',
      '/api/device/lock', '/api/device/unlock', '/api/device/commands',
    ];
    for (const p of expected) expect(documented, p).toContain(p);
    for (const [p, item] of Object.entries(doc.paths as Record<string, Record<string, { responses?: object }>>)) {
      for (const op of Object.values(item)) expect(op.responses, p).toBeDefined();
    }
    expect((await t.get('/api/docs', { emm: false })).statusCode).toBeLessThan(400);
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const res = await t.get('/api/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, code: 'ROUTE_NOT_FOUND', message: 'No route matches URL' });
  });

  it('translates errors and messages into the language of the i18next cookie', async () => {
    const res = await t.post('/api/auth/loginWithOtp', { mobile: 'bad' }, { headers: { cookie: 'i18next=hn' } });
    const english = (await import('@kisht/locales/en.json', { with: { type: 'json' } })).default as { errors: Record<string, string> };
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(res.json().message).not.toBe(english.errors.VALIDATION_FAILED);
    expect(res.json().message).toMatch(/[\u0900-\u097F]/);
  });
});

describe('signup requests', () => {
  it('are approved by an operator, after which the number can sign in', async () => {
    const mobile = '+919111111111';
    const body = { first_name: 'Kiran', last_name: 'Rao', mobile, shop_name: 'Kiran Mobile Care', city: 'Pune' };
    expect((await t.post('/api/user/signup_request', body)).statusCode).toBe(200);
    // A repeat gets the same answer and files nothing new.
    expect((await t.post('/api/user/signup_request', body)).statusCode).toBe(200);
    const filed = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM signup_requests WHERE mobile = $1', [mobile]);
    expect(filed.rows[0]!.n).toBe(1);
    expect((await t.post('/api/user/signup_request', { ...body, first_name: '' })).statusCode).toBe(400);
    // Not yet an account: no SMS goes out.
    await t.post('/api/auth/loginWithOtp', { mobile });
    await expect(t.latestOtp(mobile)).rejects.toThrow();
    const lines: string[] = [];
    await runOperatorCommand(t.db, ['signups'], (l) => lines.push(l));
    const id = lines.find((l) => l.includes(mobile))!.split('\t')[0]!;
    expect(await runOperatorCommand(t.db, ['approve', id], quiet)).toBe(0);
    expect(await runOperatorCommand(t.db, ['approve', id], quiet)).toBe(1);
    const session = await t.signIn(mobile);
    expect((await t.get('/api/user/get-details', { token: session.token })).json().data).toMatchObject({ first_name: 'Kiran', user_type: 'retailer', org_id: 23 });
  });
});

describe('white-label for a signed-in retailer of another organisation', () => {
  it("answers with the caller's organisation when a token comes along, the app's without one", async () => {
    const meena = await t.signIn(MEENA);
    const res = await t.get('/api/organizations/get_org_app_config', { token: meena.token });
    expect(res.json().data).toMatchObject({ org_id: 46, short_name: 'zen-lock', main_layout: 'drawer' });
    expect((await t.get('/api/organizations/get_org_app_config')).json().data.org_id).toBe(23);
  });
});

describe('the default MQTT client id', () => {
  it('is the same on every start of a node (host name and port), so the broker session it left is taken over', () => {
    const id = defaultClientId({ APP_ENV: 'production', PORT: 8080 }, 'API Node #1.example');
    expect(id).toBe('kisht-api-api-node-1.example-8080');
    expect(defaultClientId({ APP_ENV: 'development', PORT: 8080 }, 'API Node #1.example')).toBe(id);
    expect(defaultClientId({ APP_ENV: 'production', PORT: 8081 }, 'API Node #1.example')).not.toBe(id);
    expect(id).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
  });
  it('differs for each server in tests, which start many on one host at once', () => {
    expect(defaultClientId({ APP_ENV: 'test', PORT: 8080 }, 'ci')).not.toBe(defaultClientId({ APP_ENV: 'test', PORT: 8080 }, 'ci'));
  });
});
