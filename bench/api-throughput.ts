/**
 * Requests per second of the config and sessions endpoints, as a ratio to a bare Fastify route served by
 * the same process in the same run. Every API request carries a fresh X-EMM-Auth-Session (made before the
 * clock starts) and a bearer token, as the console sends them.
 *   node --import tsx bench/api-throughput.ts [requests=4000] [concurrency=16]
 *   DATABASE_URL=postgres://... node --import tsx bench/api-throughput.ts
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createEmmAuthSession } from '@kisht/domain/emm-auth';
import { load, fmt, type LoadResult } from './lib.ts';

const total = Number(process.argv[2] ?? 4000);
const concurrency = Number(process.argv[3] ?? 16);

const child = spawn(process.execPath, ['--import', 'tsx', new URL('./api-server.ts', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
const first = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
const { api, bare, mobile, driver } = JSON.parse(first) as { api: number; bare: number; mobile: string; driver: string };
const base = `http://127.0.0.1:${api}`;

async function call(path: string, body?: unknown, token?: string) {
  const res = await fetch(base + path, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json', 'x-emm-auth-session': await createEmmAuthSession(path, 23), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return res.json() as Promise<{ data: Record<string, unknown> }>;
}

// Sign in once through the real flow; the OTP comes from the development outbox.
const requested = await call('/api/auth/loginWithOtp', { mobile });
const outbox = (await (await fetch(`${base}/api/dev/outbox?to=${encodeURIComponent(mobile)}&limit=1`)).json()) as { data: Array<{ body: string }> };
const otp = /\b(\d{6})\b/.exec(outbox.data[0]!.body)![1]!;
const signedIn = await call('/api/auth/verifyOtpAuth', { request_id: requested.data.request_id, otp });
const token = signedIn.data.token as string;

async function headersFor(path: string, n: number, withToken: boolean) {
  const list: Record<string, string>[] = [];
  for (let i = 0; i < n; i++) {
    list.push({ 'x-emm-auth-session': await createEmmAuthSession(path, 23), 'x-auth-platform': 'mobile', ...(withToken ? { authorization: `Bearer ${token}` } : {}) });
  }
  return list;
}

const targets: Array<{ name: string; path: string; auth: boolean }> = [
  { name: 'GET /api/organizations/get_org_app_config (public)', path: '/api/organizations/get_org_app_config', auth: false },
  { name: 'GET /api/config/get_app_configs', path: '/api/config/get_app_configs', auth: true },
  { name: 'GET /api/user/user_access', path: '/api/user/user_access', auth: true },
  { name: 'GET /api/config/access-config', path: '/api/config/access-config', auth: true },
  { name: 'GET /api/sessions/my-sessions', path: '/api/sessions/my-sessions', auth: true },
];

// Warm both servers up first so JIT and caches do not favour whichever runs second.
await load(`http://127.0.0.1:${bare}/bare`, 500, concurrency, () => ({}));
await load(`${base}/api/health`, 500, concurrency, () => ({}));

const baseline = await load(`http://127.0.0.1:${bare}/bare`, total, concurrency, () => ({}));
const rows: Array<[string, LoadResult]> = [];
for (const target of targets) {
  const headers = await headersFor(target.path, total, target.auth);
  rows.push([target.name, await load(base + target.path, total, concurrency, (i) => headers[i]!)]);
}

console.log(`\nAPI throughput (${driver}, ${total} requests, ${concurrency} in flight)`);
console.log(`${'endpoint'.padEnd(56)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'ratio'.padStart(7)} errors`);
console.log(`${'bare Fastify route (baseline)'.padEnd(56)} ${fmt(baseline.rps, 0).padStart(8)} ${fmt(baseline.p50, 2).padStart(8)} ${fmt(baseline.p99, 2).padStart(8)} ${'1.00'.padStart(7)} ${baseline.errors}`);
for (const [name, r] of rows) {
  console.log(`${name.padEnd(56)} ${fmt(r.rps, 0).padStart(8)} ${fmt(r.p50, 2).padStart(8)} ${fmt(r.p99, 2).padStart(8)} ${fmt(r.rps / baseline.rps, 2).padStart(7)} ${r.errors}`);
}
child.kill('SIGTERM');
