/** The console's hashed assets go out precompressed (Brotli or gzip, as the browser accepts) with a year's cache; the per-request anti-replay guard does not wait for the disk. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmmAuthSession } from '@kisht/domain/emm-auth';
import { startTestApp, type TestApp } from './harness.ts';

const dist = mkdtempSync(path.join(tmpdir(), 'kisht-dist-'));
const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `screen-${i % 37}`))};\n`;
let t: TestApp;

beforeAll(async () => {
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Kisht</title>');
  mkdirSync(path.join(dist, 'prerender'));
  for (const lng of ['en', 'tm']) {
    writeFileSync(path.join(dist, 'prerender', `login.${lng}.html`), `<!doctype html><head><meta name="kisht-prerendered" content="${lng}" /></head><div id="root"><main data-prerendered="${lng}"><p class="auth-brand__name">%KISHT_ORG_NAME%</p></main></div>`);
  }
  writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js'), script);
  writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js.gz'), gzipSync(script));
  t = await startTestApp({ env: { CONSOLE_DIST: dist } });
  // Before the first sign-in page is sent, which keeps the branding for a minute.
  await t.db.query('UPDATE organizations SET company_name = $2 WHERE id = $1', [t.config.APP_ORG_ID, `Shree <Ganesh> & "Sons" $' Finance`]);
});
afterAll(async () => {
  await t.stop();
  rmSync(dist, { recursive: true, force: true });
});

describe('console assets', () => {
  const get = (encoding?: string) => t.app.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js', headers: encoding ? { 'accept-encoding': encoding } : {} });

  it('sends the Brotli copy to a browser that takes it, gzip to one that takes only gzip, the file itself otherwise', async () => {
    const br = await get('gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(script.length / 4);

    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    for (const res of [br, gz, plain]) {
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    expect(br.headers.vary).toMatch(/accept-encoding/i);
  });
});

describe('the sign-in page', () => {
  const page = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });

  it("goes with its screen drawn in the language of the console's cookie, English without one; other pages and languages not drawn get index.html", async () => {
    const tamil = await page('/login', 'theme=1; i18next=tm');
    expect(tamil.statusCode).toBe(200);
    expect(tamil.headers['content-type']).toMatch(/text\/html/);
    expect(tamil.headers['cache-control']).toBe('no-cache');
    expect(tamil.body).toContain('data-prerendered="tm"');
    expect((await page('/login?next=%2Fdashboard')).body).toContain('data-prerendered="en"');
    // The build drew no Hindi page here: the app draws the screen itself.
    expect((await page('/login', 'i18next=hn')).body).toBe('<!doctype html><title>Kisht</title>');
    expect((await page('/login', 'i18next=../../etc')).body).toContain('data-prerendered="en"');
    expect((await page('/dashboard', 'i18next=tm')).body).toBe('<!doctype html><title>Kisht</title>');
    expect((await page('/login/other')).body).toBe('<!doctype html><title>Kisht</title>');
  });

  it("names the organisation the console is built for, escaped, and carries its colours for the boot script", async () => {
    const body = (await page('/login', 'i18next=tm')).body;
    const escaped = 'Shree &#60;Ganesh&#62; &#38; &#34;Sons&#34; $&#39; Finance';
    expect(body).toContain(`<p class="auth-brand__name">${escaped}</p>`);
    expect(body).toContain(`<meta name="kisht-org-name" content="${escaped}" />`);
    expect(body).not.toContain('%KISHT_ORG_NAME%');
    const theme = /<meta name="kisht-theme" content="([^"]*)"/.exec(body)?.[1];
    expect(JSON.parse(theme!.replaceAll('&#34;', '"'))).toEqual((await t.get('/api/organizations/get_org_app_config')).json().data.theme);
  });
});

describe('the console\'s pages', () => {
  it('go out compressed as the browser accepts, the same text either way, and vary with the encoding', async () => {
    const get = (url: string, encoding?: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', cookie: 'i18next=tm', ...(encoding ? { 'accept-encoding': encoding } : {}) } });
    for (const url of ['/login', '/dashboard']) {
      const plain = await get(url);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('accept-encoding');
      const br = await get(url, 'gzip, deflate, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
      const gz = await get(url, 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(plain.body);
      expect(gz.headers['cache-control']).toBe('no-cache');
    }
  });
});

describe('the anti-replay guard', () => {
  it("writes through the database's relaxed connections (no wait for the disk on PostgreSQL), and still refuses a replay", async () => {
    const setting = async (q: { query: <T>(sql: string) => Promise<{ rows: T[] }> }) => (await q.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]!.synchronous_commit;
    if (t.db.driver === 'postgres') {
      expect(await setting(t.db.relaxed)).toBe('off');
      expect(await setting(t.db)).toBe('on');
    } else {
      expect(t.db.relaxed).toBe(t.db);
    }
    const header = { 'x-emm-auth-session': await createEmmAuthSession('/api/organizations/get_org_app_config', t.config.APP_ORG_ID) };
    const first = await t.get('/api/organizations/get_org_app_config', { emm: header['x-emm-auth-session'] });
    const again = await t.get('/api/organizations/get_org_app_config', { emm: header['x-emm-auth-session'] });
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('EMM_AUTH_REPLAYED');
  });
});

describe('translation dictionaries', () => {
  it('go out compressed as the browser accepts (Brotli, else gzip), the same text either way', async () => {
    const get = (encoding?: string) => t.app.inject({ method: 'GET', url: '/locales/hn.json', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await get('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    const gz = await get('br;q=0, gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    for (const res of [plain, br, gz]) {
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    }
    console.info(`locales: hn.json ${plain.rawPayload.length} bytes, ${br.rawPayload.length} as Brotli, ${gz.rawPayload.length} as gzip`);
  });
});
