/**
 * Requests per second of the config and sessions endpoints, as a ratio to a bare Fastify route served by
 * the same process in the same run. Every API request carries a fresh X-EMM-Auth-Session (made before the
 * clock starts) and a bearer token, as the console sends them.
 * Then a sequential mode (one request in flight): the fixed cost of an authenticated GET whose handler does no
 * database work (GET /api/user/user_access) minus the bare route, p50 and mean, on a server with the anti-replay
 * guard and on a second one with EMM_AUTH=off, in alternating rounds, so the guard's share comes from one run.
 *   node --import tsx bench/api-throughput.ts [requests=4000] [concurrency=16] [sequential=4000]
 *   DATABASE_URL=postgres://... node --import tsx bench/api-throughput.ts
 * EMM_AUTH=off applies to the throughput table; sequential=0 skips the sequential mode.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createEmmAuthSession } from '@kisht/domain/emm-auth';
import { load, fmt, percentile, type LoadResult } from './lib.ts';

const total = Number(process.argv[2] ?? 4000);
const concurrency = Number(process.argv[3] ?? 16);
const sequentialTotal = Number(process.argv[4] ?? 4000);

interface ApiServer { child: ChildProcess; base: string; bareUrl: string; token: string; driver: string }

const children: ChildProcess[] = [];
// A failed run must not leave its servers behind (they hold the terminal's pipes open).
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
});

async function startApiServer(env: NodeJS.ProcessEnv): Promise<ApiServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./api-server.ts', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'inherit'], env });
  children.push(child);
  const first = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  const { api, bare, mobile, driver } = JSON.parse(first) as { api: number; bare: number; mobile: string; driver: string };
  const base = `http://127.0.0.1:${api}`;
  const call = async (path: string, body: unknown) => {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-emm-auth-session': await createEmmAuthSession(path, 23) },
      body: JSON.stringify(body),
    });
    return res.json() as Promise<{ data: Record<string, unknown> }>;
  };
  // Sign in once through the real flow; the OTP comes from the development outbox.
  const requested = await call('/api/auth/loginWithOtp', { mobile });
  const outbox = (await (await fetch(`${base}/api/dev/outbox?to=${encodeURIComponent(mobile)}&limit=1`)).json()) as { data: Array<{ body: string }> };
  const otp = /\b(\d{6})\b/.exec(outbox.data[0]!.body)![1]!;
  const signedIn = await call('/api/auth/verifyOtpAuth', { request_id: requested.data.request_id, otp });
  return { child, base, bareUrl: `http://127.0.0.1:${bare}/bare`, token: signedIn.data.token as string, driver };
}

async function headersFor(path: string, n: number, token: string | null) {
  const list: Record<string, string>[] = [];
  for (let i = 0; i < n; i++) {
    list.push({ 'x-emm-auth-session': await createEmmAuthSession(path, 23), 'x-auth-platform': 'mobile', ...(token ? { authorization: `Bearer ${token}` } : {}) });
  }
  return list;
}

const server = await startApiServer(process.env);
const { base, driver } = server;

const targets: Array<{ name: string; path: string; auth: boolean }> = [
  { name: 'GET /api/organizations/get_org_app_config (public)', path: '/api/organizations/get_org_app_config', auth: false },
  { name: 'GET /api/config/get_app_configs', path: '/api/config/get_app_configs', auth: true },
  { name: 'GET /api/user/user_access', path: '/api/user/user_access', auth: true },
  { name: 'GET /api/config/access-config', path: '/api/config/access-config', auth: true },
  { name: 'GET /api/sessions/my-sessions', path: '/api/sessions/my-sessions', auth: true },
];

// Warm both servers up first so JIT and caches do not favour whichever runs second.
await load(server.bareUrl, 500, concurrency, () => ({}));
await load(`${base}/api/health`, 500, concurrency, () => ({}));

const baseline = await load(server.bareUrl, total, concurrency, () => ({}));
const rows: Array<[string, LoadResult]> = [];
for (const target of targets) {
  const headers = await headersFor(target.path, total, target.auth ? server.token : null);
  rows.push([target.name, await load(base + target.path, total, concurrency, (i) => headers[i]!)]);
}

console.log(`\nAPI throughput (${driver}, ${total} requests, ${concurrency} in flight)`);
console.log(`${'endpoint'.padEnd(56)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'ratio'.padStart(7)} errors`);
console.log(`${'bare Fastify route (baseline)'.padEnd(56)} ${fmt(baseline.rps, 0).padStart(8)} ${fmt(baseline.p50, 2).padStart(8)} ${fmt(baseline.p99, 2).padStart(8)} ${'1.00'.padStart(7)} ${baseline.errors}`);
for (const [name, r] of rows) {
  console.log(`${name.padEnd(56)} ${fmt(r.rps, 0).padStart(8)} ${fmt(r.p50, 2).padStart(8)} ${fmt(r.p99, 2).padStart(8)} ${fmt(r.rps / baseline.rps, 2).padStart(7)} ${r.errors}`);
}

/** Latencies of one request at a time, gathered over alternating rounds so a change in the machine's load hits every series alike. */
async function sequentialMode() {
  const off = await startApiServer({ ...process.env, EMM_AUTH: 'off' });
  const probe = '/api/user/user_access';
  const series = {
    bare: [] as number[], api: [] as number[], bare_off: [] as number[], api_off: [] as number[],
  };
  let errors = 0;
  const ROUND = 500;
  const one = async (key: keyof typeof series, url: string, headers: Record<string, string>[]) => {
    const r = await load(url, headers.length, 1, (i) => headers[i]!);
    series[key].push(...r.latencies);
    errors += r.errors;
  };
  // Warm-up of the paths measured (JIT, the session cache, prepared plans).
  await one('bare', server.bareUrl, Array.from({ length: 200 }, () => ({})));
  await one('api', base + probe, await headersFor(probe, 200, server.token));
  await one('bare_off', off.bareUrl, Array.from({ length: 200 }, () => ({})));
  await one('api_off', off.base + probe, await headersFor(probe, 200, off.token));
  for (const key of Object.keys(series) as Array<keyof typeof series>) series[key] = [];
  for (let done = 0; done < sequentialTotal; done += ROUND) {
    const n = Math.min(ROUND, sequentialTotal - done);
    const plain = Array.from({ length: n }, () => ({}));
    await one('bare', server.bareUrl, plain);
    await one('api', base + probe, await headersFor(probe, n, server.token));
    await one('bare_off', off.bareUrl, plain);
    await one('api_off', off.base + probe, await headersFor(probe, n, off.token));
  }
  off.child.kill('SIGTERM');
  const stats = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), mean: sorted.reduce((s, v) => s + v, 0) / sorted.length };
  };
  const s = { bare: stats(series.bare), api: stats(series.api), bareOff: stats(series.bare_off), apiOff: stats(series.api_off) };
  const fixed = { p50: s.api.p50 - s.bare.p50, mean: s.api.mean - s.bare.mean };
  const fixedOff = { p50: s.apiOff.p50 - s.bareOff.p50, mean: s.apiOff.mean - s.bareOff.mean };
  return { requests: sequentialTotal, errors, s, fixed, fixedOff, guard: { p50: fixed.p50 - fixedOff.p50, mean: fixed.mean - fixedOff.mean } };
}

const sequential = sequentialTotal > 0 ? await sequentialMode() : null;
if (sequential) {
  const { s, fixed, fixedOff, guard } = sequential;
  const line = (name: string, v: { p50: number; mean: number }) => console.log(`${name.padEnd(56)} ${fmt(v.p50, 3).padStart(8)} ${fmt(v.mean, 3).padStart(8)}`);
  console.log(`\nSequential, one request in flight (${driver}, ${sequential.requests} requests per series, rounds of 500; errors ${sequential.errors})`);
  console.log(`${''.padEnd(56)} ${'p50 ms'.padStart(8)} ${'mean ms'.padStart(8)}`);
  line('bare Fastify route', s.bare);
  line('GET /api/user/user_access', s.api);
  line('GET /api/user/user_access, EMM_AUTH=off (own server)', s.apiOff);
  line('fixed per-request cost (GET minus bare)', fixed);
  line('fixed per-request cost with EMM_AUTH=off', fixedOff);
  line("the anti-replay guard's share", guard);
}
const ms = (n: number) => Number(n.toFixed(3));
console.log(JSON.stringify({
  bench: 'api-throughput', driver, requests: total, concurrency, bare_rps: Math.round(baseline.rps), bare_p50_ms: Number(baseline.p50.toFixed(2)),
  endpoints: Object.fromEntries(rows.map(([name, r]) => [name, { rps: Math.round(r.rps), p50_ms: Number(r.p50.toFixed(2)), p99_ms: Number(r.p99.toFixed(2)), ratio: Number((r.rps / baseline.rps).toFixed(2)), errors: r.errors }])),
  ...(sequential ? {
    sequential: {
      requests: sequential.requests, errors: sequential.errors,
      bare_p50_ms: ms(sequential.s.bare.p50), bare_mean_ms: ms(sequential.s.bare.mean),
      fixed_p50_ms: ms(sequential.fixed.p50), fixed_mean_ms: ms(sequential.fixed.mean),
      fixed_emm_off_p50_ms: ms(sequential.fixedOff.p50), fixed_emm_off_mean_ms: ms(sequential.fixedOff.mean),
      guard_p50_ms: ms(sequential.guard.p50), guard_mean_ms: ms(sequential.guard.mean),
    },
  } : {}),
}));
server.child.kill('SIGTERM');
