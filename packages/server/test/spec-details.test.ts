/**
 * Spec details the server owns: 405 (with Allow) for a known URL asked with a method it does not have,
 * each OTP SMS naming the organisation of the account, and the lock screen's amount when nothing is due.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import hindi from '@kisht/locales/hn.json' with { type: 'json' };
import { MEENA, RAVI } from './harness.ts';
import { startDeviceApp } from './device-fixtures.ts';
import type { TestApp } from './harness.ts';
import type { deviceFixtures } from './device-fixtures.ts';

let t: TestApp;
let f: ReturnType<typeof deviceFixtures>;

beforeAll(async () => {
  ({ t, f } = await startDeviceApp());
});
afterAll(() => t.stop());

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

describe('a known URL with a method it does not have', () => {
  it('answers 405 METHOD_NOT_ALLOWED with an Allow header, in the caller\'s language', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/device/pin_change', headers: { cookie: 'i18next=hn' } });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json()).toMatchObject({ success: false, code: 'METHOD_NOT_ALLOWED', message: hindi.errors.METHOD_NOT_ALLOWED });

    const products = await t.app.inject({ method: 'DELETE', url: '/api/products?page=1' });
    expect(products.statusCode).toBe(405);
    expect(products.headers.allow).toBe('GET, HEAD');

    const locale = await t.app.inject({ method: 'POST', url: '/locales/en.json' });
    expect(locale.statusCode).toBe(405);
    expect(locale.headers.allow).toBe('GET, HEAD');
  });

  it('still answers 404 ROUTE_NOT_FOUND for a URL no method has', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/api/no/such/route' });
      expect(res.statusCode, method).toBe(404);
      expect(res.headers.allow).toBeUndefined();
      expect(res.json().code).toBe('ROUTE_NOT_FOUND');
    }
  });

  it('holds for every documented route: each other method gets 405 listing exactly the methods it has', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const paths = Object.entries(doc.paths).filter(([path]) => !path.includes('{'));
    expect(paths.length).toBeGreaterThan(50);
    let checked = 0;
    for (const [path, operations] of paths) {
      const has = new Set(Object.keys(operations).map((m) => m.toUpperCase()));
      if (has.has('GET')) has.add('HEAD');
      const missing = METHODS.filter((m) => !has.has(m));
      const method: Method | undefined = missing.find((m) => m === 'PUT') ?? missing[0];
      if (!method) continue;
      const res = await t.app.inject({ method, url: path });
      expect(res.statusCode, `${method} ${path}`).toBe(405);
      expect(res.json().code).toBe('METHOD_NOT_ALLOWED');
      const allow = (res.headers.allow as string).split(', ');
      expect(new Set(allow), `${method} ${path}`).toEqual(new Set(METHODS.filter((m) => has.has(m))));
      checked++;
    }
    expect(checked).toBe(paths.length);
  });
});

describe('the OTP SMS', () => {
  const lastSms = async (mobile: string) =>
    (await t.db.query<{ body: string }>('SELECT body FROM sms_outbox WHERE recipient = $1 ORDER BY id DESC LIMIT 1', [mobile])).rows[0]!.body;

  it("names the account's own organisation: Zen Lock for org 46's retailer, One Touch for org 23's", async () => {
    const meena = await t.post('/api/auth/loginWithOtp', { mobile: MEENA });
    expect(meena.statusCode, meena.body).toBe(200);
    expect(await lastSms(MEENA)).toContain('Zen Lock');
    expect(await lastSms(MEENA)).not.toContain('One Touch');

    // A resend names it too.
    await t.db.query(`UPDATE otp_requests SET last_sent_at = now() - interval '10 minutes' WHERE id = $1`, [meena.json().data.request_id]);
    const resent = await t.post('/api/auth/resend-otp', { request_id: meena.json().data.request_id });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(await lastSms(MEENA)).toContain('Zen Lock');
    expect(await lastSms(MEENA)).not.toContain('One Touch');

    await t.post('/api/auth/loginWithOtp', { mobile: RAVI });
    expect(await lastSms(RAVI)).toContain('One Touch');
  });
});

describe('the lock screen amount', () => {
  it('is 0 with no amount in the UPI link when nothing is overdue, and what is overdue otherwise', async () => {
    const customer = await f.customer({ first_due_date: addDays(todayInIndia(), 30) });
    const calm = await t.services.devices.lockScreen(customer.id);
    expect(calm.amount_due).toBe(0);
    if (calm.upi) expect(new URL(calm.upi.replace('upi://', 'https://')).searchParams.has('am')).toBe(false);

    await t.db.query(`UPDATE emi_instalments SET due_date = (now() AT TIME ZONE 'Asia/Kolkata')::date - 1 WHERE id = (SELECT min(id) FROM emi_instalments WHERE customer_id = $1)`, [customer.id]);
    const due = await t.services.devices.lockScreen(customer.id);
    expect(due.amount_due).toBeGreaterThan(0);
    if (due.upi) expect(new URL(due.upi.replace('upi://', 'https://')).searchParams.get('am')).toBe((due.amount_due / 100).toFixed(2));
  });
});
