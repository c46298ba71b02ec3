/**
 * Lighthouse (mobile: simulated 4x CPU slowdown, 150 ms RTT, 1.6 Mbps) on the console's sign-in screen, served
 * by the real server from the built console, against the same build without its Brotli and gzip copies (the
 * baseline, in the same run) and the same build without the sign-in page drawn at build time (`not drawn`: the
 * app draws it once its scripts have run). Two runs each, taken in turn. Ends with one JSON line.
 *   npm run build -w @kisht/console
 *   LIGHTHOUSE_BIN=/path/to/node_modules/.bin/lighthouse node --import tsx bench/lighthouse.ts
 * BENCH_PORT=n serves the three builds on n, n+1 and n+2 (otherwise three random ports from 19100).
 * Lighthouse is not a dependency of the project (about 185 MB): install lighthouse@12 (it runs on Node 20)
 * anywhere and point LIGHTHOUSE_BIN at it; Chromium is Debian's (CHROMIUM_PATH, default /usr/bin/chromium).
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fmt } from './lib.ts';

const root = new URL('..', import.meta.url).pathname;
const dist = path.join(root, 'packages', 'console', 'dist');
const lighthouse = process.env.LIGHTHOUSE_BIN ?? 'lighthouse';
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = Number(process.env.RUNS ?? 2);

function withoutCompressedCopies(from: string): string {
  const to = copyOf(from);
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.br') || name.endsWith('.gz')) rmSync(full);
    }
  };
  walk(to);
  return to;
}

function copyOf(from: string): string {
  const to = mkdtempSync(path.join(tmpdir(), 'kisht-dist-copy-'));
  cpSync(from, to, { recursive: true });
  return to;
}

/** The build as it was before the sign-in page was drawn at build time: /login gets index.html. */
function withoutDrawnSignIn(from: string): string {
  const to = copyOf(from);
  rmSync(path.join(to, 'prerender'), { recursive: true, force: true });
  return to;
}

async function startServer(consoleDist: string, port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/server.ts'], {
    cwd: root, stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: 'memory://', MQTT_PORT: '0', LOG_LEVEL: 'warn', DEMO_SHOP: 'false', CONSOLE_DIST: consoleDist, APP_SECRET: 'bench-secret-bench-secret-bench-secret!' },
  });
  for (let i = 0; i < 600; i++) {
    if (await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false)) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('the server did not start');
}

/** kib: bytes transferred; unusedKib: JavaScript downloaded but not run by the time the page settled (transfer size). */
interface Run { score: number; lcp: number; fcp: number; tbt: number; cls: number; kib: number; unusedKib: number }

function audit(url: string, out: string): Run {
  execFileSync(lighthouse, [
    url, '--quiet', '--output=json', `--output-path=${out}`, '--only-categories=performance', '--form-factor=mobile', '--throttling-method=simulate',
    `--chrome-path=${chromium}`, '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run',
  ], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, CHROME_PATH: chromium } });
  const report = JSON.parse(readFileSync(out, 'utf8')) as {
    categories: { performance: { score: number } };
    audits: Record<string, { numericValue?: number; details?: { overallSavingsBytes?: number } }>;
  };
  return {
    score: Math.round(report.categories.performance.score * 100),
    lcp: report.audits['largest-contentful-paint']!.numericValue!,
    fcp: report.audits['first-contentful-paint']!.numericValue!,
    tbt: report.audits['total-blocking-time']!.numericValue!,
    cls: report.audits['cumulative-layout-shift']!.numericValue!,
    kib: report.audits['total-byte-weight']!.numericValue! / 1024,
    unusedKib: (report.audits['unused-javascript']?.details?.overallSavingsBytes ?? 0) / 1024,
  };
}

const plainDist = withoutCompressedCopies(dist);
const notDrawnDist = withoutDrawnSignIn(dist);
const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : 19100 + Math.floor(Math.random() * 500);
const servers = [await startServer(dist, port), await startServer(plainDist, port + 1), await startServer(notDrawnDist, port + 2)];
const work = mkdtempSync(path.join(tmpdir(), 'kisht-lh-'));
const results: Record<'compressed' | 'plain' | 'not drawn', Run[]> = { compressed: [], plain: [], 'not drawn': [] };
try {
  for (let i = 0; i < RUNS; i++) {
    results.compressed.push(audit(`http://127.0.0.1:${port}/login`, path.join(work, `c${i}.json`)));
    results.plain.push(audit(`http://127.0.0.1:${port + 1}/login`, path.join(work, `p${i}.json`)));
    results['not drawn'].push(audit(`http://127.0.0.1:${port + 2}/login`, path.join(work, `n${i}.json`)));
  }
} finally {
  // Wait for all to exit, so a next run on the same BENCH_PORT finds the ports free.
  await Promise.all(servers.map((s) => new Promise((resolve) => (s.exitCode === null ? (s.once('exit', resolve), s.kill('SIGTERM')) : resolve(null)))));
  for (const copy of [plainDist, notDrawnDist]) rmSync(copy, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}

console.log('\nLighthouse, mobile, /login');
console.log('build                         score   LCP ms   FCP ms   TBT ms    CLS   KiB  unused JS KiB');
for (const [name, runs] of Object.entries(results)) {
  for (const r of runs) console.log(`${name.padEnd(28)} ${String(r.score).padStart(5)} ${fmt(r.lcp, 0).padStart(8)} ${fmt(r.fcp, 0).padStart(8)} ${fmt(r.tbt, 0).padStart(8)} ${fmt(r.cls, 3).padStart(6)} ${fmt(r.kib, 0).padStart(5)} ${fmt(r.unusedKib, 0).padStart(14)}`);
}
const mean = (runs: Run[], key: keyof Run) => runs.reduce((s, r) => s + r[key], 0) / runs.length;
console.log(JSON.stringify({
  bench: 'lighthouse', runs: RUNS,
  score: results.compressed.map((r) => r.score), lcp_ms: results.compressed.map((r) => Math.round(r.lcp)), kib: Math.round(mean(results.compressed, 'kib')),
  unused_js_kib: Math.round(mean(results.compressed, 'unusedKib')),
  baseline_score: results.plain.map((r) => r.score), baseline_lcp_ms: results.plain.map((r) => Math.round(r.lcp)), baseline_kib: Math.round(mean(results.plain, 'kib')),
  baseline_unused_js_kib: Math.round(mean(results.plain, 'unusedKib')),
  cls: results.compressed.map((r) => Number(r.cls.toFixed(3))),
  not_drawn_score: results['not drawn'].map((r) => r.score), not_drawn_lcp_ms: results['not drawn'].map((r) => Math.round(r.lcp)),
  ratio_lcp: Number((mean(results.compressed, 'lcp') / mean(results.plain, 'lcp')).toFixed(2)),
  ratio_lcp_not_drawn: Number((mean(results.compressed, 'lcp') / mean(results['not drawn'], 'lcp')).toFixed(2)),
}));
