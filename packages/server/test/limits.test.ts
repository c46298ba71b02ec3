import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, RAVI, ARJUN, SUNITA, type TestApp } from './harness.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { WebhookSmsProvider } from '../src/providers/sms/webhook.ts';

describe('OTP send limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 3, otpSendsPerIpPerHour: 1000, otpResendAfterSeconds: 30, otpMaxResends: 2 } });
  });
  afterAll(() => t.stop());

  it('throttles resends: too soon, then at most the allowed number', async () => {
    const requestId = (await t.post('/api/auth/loginWithOtp', { mobile: RAVI })).json().data.request_id;
    const soon = await t.post('/api/auth/resend-otp', { request_id: requestId });
    expect(soon.statusCode).toBe(429);
    expect(soon.json().code).toBe('OTP_RESEND_TOO_SOON');
    expect(soon.json().retry_after_seconds).toBeGreaterThan(25);
    expect(soon.headers['retry-after']).toBeDefined();
    for (let i = 0; i < 2; i++) {
      await t.db.query(`UPDATE otp_requests SET last_sent_at = now() - interval '31 seconds' WHERE id = $1`, [requestId]);
      expect((await t.post('/api/auth/resend-otp', { request_id: requestId })).statusCode).toBe(200);
    }
    await t.db.query(`UPDATE otp_requests SET last_sent_at = now() - interval '31 seconds' WHERE id = $1`, [requestId]);
    expect((await t.post('/api/auth/resend-otp', { request_id: requestId })).json().code).toBe('OTP_RESEND_LIMIT');
  });

  it('limits sends per number per hour (resends count), the same for unknown numbers', async () => {
    // RAVI has used three sends above (one request, two resends).
    const res = await t.post('/api/auth/loginWithOtp', { mobile: RAVI });
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('RATE_LIMITED');
    const unknown = '+919000000002';
    for (let i = 0; i < 3; i++) {
      const ok = await t.post('/api/auth/loginWithOtp', { mobile: unknown });
      expect(ok.statusCode).toBe(200);
    }
    expect((await t.post('/api/auth/loginWithOtp', { mobile: unknown })).json().code).toBe('RATE_LIMITED');
  });

});

describe('OTP sends per IP address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 3 } });
  });
  afterAll(() => t.stop());

  it('are limited across numbers and free again after the hour', async () => {
    for (const mobile of [RAVI, ARJUN, '+919000000003']) expect((await t.post('/api/auth/loginWithOtp', { mobile })).statusCode).toBe(200);
    const res = await t.post('/api/auth/loginWithOtp', { mobile: SUNITA });
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('RATE_LIMITED');
    await t.db.query(`UPDATE otp_sends SET sent_at = now() - interval '61 minutes'`);
    expect((await t.post('/api/auth/loginWithOtp', { mobile: SUNITA })).statusCode).toBe(200);
  });
});

describe('configuration', () => {
  it('lists every wrong variable at once', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', APP_ENV: 'production', EMM_AUTH: 'off' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'DATABASE_URL', 'APP_SECRET', 'SMS_PROVIDER', 'EMM_AUTH']) expect(problems).toContain(name);
    }
  });

  it('keeps the development outbox out of a production configuration', async () => {
    expect(() => loadConfig({ APP_ENV: 'production', APP_SECRET: 'x'.repeat(40) })).toThrow(/SMS_PROVIDER/);
    const prodLike = await startTestApp({ env: { SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'http://127.0.0.1:9/sms' }, sms: { name: 'null', send: async () => undefined } });
    expect((await prodLike.get('/api/dev/outbox', { emm: false })).statusCode).toBe(404);
    await prodLike.stop();
  });

  it('defaults to the embedded broker on a port other than 1883', () => {
    const config = loadConfig({});
    expect(config.MQTT_PORT).not.toBe(1883);
    expect(config.PORT).toBe(8080);
    expect(config.DATABASE_URL).toBeUndefined();
  });
});

describe('webhook SMS provider', () => {
  it('posts the message to the gateway with its token and fails loudly on an error answer', async () => {
    const received: Array<{ auth: string | undefined; body: unknown }> = [];
    let status = 202;
    const gateway = http.createServer((req, res) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => {
        received.push({ auth: req.headers.authorization, body: JSON.parse(data) });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/sms`;
    const provider = new WebhookSmsProvider(url, 'gateway-token');
    await provider.send({ to: '+919876543210', body: 'hello', purpose: 'LOGIN' });
    expect(received).toEqual([{ auth: 'Bearer gateway-token', body: { to: '+919876543210', body: 'hello', purpose: 'LOGIN' } }]);
    status = 500;
    await expect(provider.send({ to: '+919876543210', body: 'x', purpose: 'LOGIN' })).rejects.toThrow(/500/);
    gateway.close();
  });
});
