/**
 * Every route says who may call it and whose data it reaches (config.callers and config.scope): a route
 * without a declaration stops the server from building, and the declared callers are enforced.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localesDir } from '@kisht/locales/path';
import security from '../src/plugins/security.ts';
import { CALLERS, TENANT_SCOPES } from '../src/plugins/route-config.ts';
import { startTestApp, RAVI, SUNITA, type TestApp } from './harness.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 } });
});
afterAll(() => t.stop());

/** A bare server with only the security plugin (its repositories are not reached at registration). */
async function bareServer(): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(security, {
    emmSeen: {} as never, sessions: {} as never, tokenKey: Buffer.alloc(32), emm: 'off', appOrgId: 23, emmWindowMs: 60_000, sessionTouchSeconds: 60,
  });
  return app;
}

describe('route declarations', () => {
  it('compiles every route schema it deferred to first use, and a deferred validator still refuses bad input', async () => {
    // A fresh app has compiled nothing yet: every schema is pending until its route is called.
    const refused = await t.call('POST', '/api/auth/loginWithOtp', { body: { mobile: 12 } });
    expect(refused.statusCode).toBe(400);
    const compiled = t.compileSchemas();
    expect(compiled).toBeGreaterThan(100);
    expect(t.compileSchemas()).toBe(0);
  });

  it("names each audited route's action in the console's words (the Activity screen's label)", () => {
    const en = JSON.parse(readFileSync(path.join(localesDir, 'en.json'), 'utf8')) as Record<string, Record<string, Record<string, string>>>;
    const actions = [...new Set(t.app.routeRules.flatMap((r) => (r.audit ? [r.audit] : [])))];
    expect(actions.length).toBeGreaterThan(30);
    const unlabelled = actions.filter((a) => !en.audit?.action?.[a.replaceAll('.', '_')] && !(a.startsWith('device.') && en.device?.action?.[a.slice('device.'.length)]));
    expect(unlabelled).toEqual([]);
  });

  it('declares callers and scope on every route of the built server', () => {
    const rules = t.app.routeRules;
    expect(rules.length).toBeGreaterThan(80);
    for (const rule of rules) {
      expect(rule.callers.length, `${rule.method} ${rule.url}`).toBeGreaterThan(0);
      for (const caller of rule.callers) expect(CALLERS, `${rule.method} ${rule.url}`).toContain(caller);
      expect(TENANT_SCOPES, `${rule.method} ${rule.url}`).toContain(rule.scope);
    }
    // No route is listed twice (the same method and URL would be a registration error anyway).
    const keys = rules.map((r) => `${r.method} ${r.url}`);
    expect(new Set(keys).size).toBe(keys.length);
    const counts = new Map<string, number>();
    for (const r of rules) counts.set(`${r.callers.join('+')} / ${r.scope}`, (counts.get(`${r.callers.join('+')} / ${r.scope}`) ?? 0) + 1);
    console.info(`${rules.length} routes declared: ${[...counts].map(([k, n]) => `${k}: ${n}`).join(', ')}`);
  });

  it('covers every operation of the OpenAPI document', async () => {
    const doc = (await t.get('/api/openapi.json', { emm: false })).json() as { paths: Record<string, Record<string, unknown>> };
    const declared = new Set(t.app.routeRules.map((r) => `${r.method} ${r.url}`));
    const operations = Object.entries(doc.paths).flatMap(([p, methods]) =>
      Object.keys(methods).filter((m) => m !== 'parameters').map((m) => `${m.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`));
    expect(operations.length).toBeGreaterThan(80);
    expect(operations.filter((o) => !declared.has(o))).toEqual([]);
  });

  it('keeps `public` and the callers in step, and names the routes only a retailer may call', () => {
    for (const rule of t.app.routeRules.filter((r) => r.url.startsWith('/api/'))) {
      const signedIn = rule.callers.includes('retailer') || rule.callers.includes('miniretailer');
      const publicRoute = rule.callers.includes('public') || rule.callers.includes('device') || rule.callers.includes('operator');
      expect(signedIn !== publicRoute, `${rule.method} ${rule.url}`).toBe(true);
    }
    const retailerOnly = t.app.routeRules.filter((r) => r.callers.includes('retailer') && !r.callers.includes('miniretailer')).map((r) => `${r.method} ${r.url}`);
    expect(retailerOnly).toEqual(['GET /api/auth/getOauthUrl']);
    // The phone's and the operator's routes reach nothing of a network by a retailer's session.
    for (const rule of t.app.routeRules.filter((r) => r.callers.includes('device'))) expect(['own'], `${rule.method} ${rule.url}`).toContain(rule.scope);
    for (const rule of t.app.routeRules.filter((r) => r.callers.includes('operator'))) expect(rule.scope).toBe('all');
  });

  it('refuses to build a server with a route that declares nothing, or something wrong', async () => {
    const cases: Array<[string, Record<string, unknown> | undefined, RegExp]> = [
      ['/api/undeclared', undefined, /GET \/api\/undeclared does not declare config\.callers/],
      ['/api/no-scope', { callers: ['retailer'] }, /does not declare config\.scope/],
      ['/api/bad-scope', { callers: ['retailer'], scope: 'network' }, /does not declare config\.scope/],
      ['/api/unknown-caller', { callers: ['customer'], scope: 'account' }, /unknown callers: customer/],
      ['/api/public-and-more', { public: true, callers: ['public', 'retailer'], scope: 'none' }, /'public' with others/],
      ['/api/public-for-retailers', { public: true, callers: ['retailer'], scope: 'account' }, /skips the session its callers sign in with/],
      ['/api/device-with-session', { callers: ['device'], scope: 'own' }, /needs config\.public: its callers have no session/],
    ];
    for (const [url, config, message] of cases) {
      const app = await bareServer();
      await expect((async () => {
        app.get(url, config ? { config } : {}, async () => ({}));
        await app.ready();
      })(), url).rejects.toThrow(message);
      await app.close();
    }
    const app = await bareServer();
    app.get('/api/declared', { config: { callers: ['retailer', 'miniretailer'], scope: 'account' } }, async () => ({}));
    await app.ready();
    expect(app.routeRules).toEqual([{ method: 'GET', url: '/api/declared', callers: ['retailer', 'miniretailer'], scope: 'account' }]);
    await app.close();
  });

  it('lets the console build, served as it is by the static plugin, through without declarations', async () => {
    const dist = await mkdtemp(path.join(tmpdir(), 'kisht-dist-'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html>');
    const app = await bareServer();
    await app.register(fastifyStatic, { root: dist, wildcard: false, index: false });
    await app.ready();
    expect((await app.inject({ method: 'GET', url: '/index.html' })).statusCode).toBe(200);
    expect(app.routeRules).toEqual([]);
    await app.close();
  });
});

describe('declared callers are enforced', () => {
  it('answers 403 to a mini-retailer on a retailer-only route, before the handler runs', async () => {
    const sunita = (await t.signIn(SUNITA)).token;
    const ravi = (await t.signIn(RAVI)).token;
    const refused = await t.get('/api/auth/getOauthUrl', { token: sunita });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('ACCESS_DENIED');
    // The retailer passes the check (what the handler answers depends on the AMAPI settings, not on the caller).
    expect((await t.get('/api/auth/getOauthUrl', { token: ravi })).json().code).not.toBe('ACCESS_DENIED');
    // Both user types pass on the routes declared for both.
    expect((await t.get('/api/user/get-details', { token: sunita })).statusCode).toBe(200);
  });

  it("leaves a phone's route to the phone's own credentials, whatever session comes along", async () => {
    const ravi = (await t.signIn(RAVI)).token;
    for (const token of [ravi, undefined]) {
      const res = await t.post('/api/device/check-in', { v: 1, locked: false, last_seq: 0 }, { token, emm: false });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('DEVICE_CREDENTIALS_INVALID');
    }
  });

  it('lets any caller, signed in or not, through a public route', async () => {
    const sunita = (await t.signIn(SUNITA)).token;
    expect((await t.get('/api/organizations/get_org_app_config', { token: sunita })).statusCode).toBe(200);
    expect((await t.get('/api/organizations/get_org_app_config')).statusCode).toBe(200);
  });
});
