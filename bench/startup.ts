/**
 * Time from starting the server (what `npm start` runs once the console is built) to GET /api/health = 200:
 * on a fresh PGlite data folder made by initdb and the migrations (PGLITE_TEMPLATE_DIR=off), the first fresh
 * folder with the template (which builds it), a later fresh folder copied from it, the existing folder again,
 * the same folder with the bundled server (dist/server.mjs, what `npm start` runs), and `npm start` itself on the
 * existing folder (its console build and server bundle are skipped when the sources are unchanged),
 * next to a bare Node http server's start in the same run as the baseline. The template lives in a folder of
 * this run, not in the shared cache. CPU time (Linux) is the server process's own, at the moment it answered:
 * steadier than the wall clock on a busy machine. Ends with one JSON line.
 *   node --import tsx bench/startup.ts          (BENCH_PORT=n: use n and n+1000 instead of random ports)
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fmt } from './lib.ts';

const root = new URL('..', import.meta.url).pathname;

interface Start { ms: number; cpuMs: number | null }

/** User plus system CPU of one process so far, from /proc; null elsewhere. */
function cpuMs(pid: number): number | null {
  const file = `/proc/${pid}/stat`;
  if (!existsSync(file)) return null;
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  return (ticks * 1000) / hz;
}

async function untilHealthy(url: string, child: ReturnType<typeof spawn>, started: number): Promise<Start> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.status === 200) return { ms: performance.now() - started, cpuMs: cpuMs(child.pid!) };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function timeStart(args: string[], env: Record<string, string>, url: string, command = process.execPath): Promise<Start> {
  const started = performance.now();
  // Its own process group: `npm start` runs the server as a grandchild, which must stop with it.
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  try {
    return await untilHealthy(url, child, started);
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  }
}

const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : 18080 + Math.floor(Math.random() * 1000);
const bare = await timeStart(['-e', `require('http').createServer((q,s)=>s.end('ok')).listen(${port})`], {}, `http://127.0.0.1:${port}/`);

const work = mkdtempSync(path.join(tmpdir(), 'kisht-start-'));
const base = { PORT: String(port), MQTT_PORT: String(port + 1000), LOG_LEVEL: 'warn', DEMO_SHOP: 'false', APP_SECRET: 'bench-secret-bench-secret-bench-secret!' };
const withTemplate = { ...base, PGLITE_TEMPLATE_DIR: path.join(work, 'template') };
const health = `http://127.0.0.1:${port}/api/health`;
const server = ['--import', 'tsx', 'packages/server/src/server.ts'];
const initdb = await timeStart(server, { ...base, PGLITE_TEMPLATE_DIR: 'off', DATA_DIR: path.join(work, 'a') }, health);
const first = await timeStart(server, { ...withTemplate, DATA_DIR: path.join(work, 'b') }, health);
const fresh = await timeStart(server, { ...withTemplate, DATA_DIR: path.join(work, 'c') }, health);
const again = await timeStart(server, { ...withTemplate, DATA_DIR: path.join(work, 'c') }, health);
// `npm start` as a newcomer runs it the second time: the console was built and the server bundled by the first
// (done here once, untimed).
execFileSync('npm', ['run', 'build:if-stale', '-w', '@kisht/console'], { cwd: root, stdio: 'ignore' });
execFileSync(process.execPath, ['packages/server/scripts/bundle-if-stale.mjs'], { cwd: root, stdio: 'ignore' });
const bundled = await timeStart(['packages/server/dist/server.mjs'], { ...withTemplate, DATA_DIR: path.join(work, 'c') }, health);
// npm's own process is not the server's: no CPU figure for it.
const npmStart = { ...(await timeStart(['start'], { ...withTemplate, DATA_DIR: path.join(work, 'c') }, health, 'npm')), cpuMs: null };
rmSync(work, { recursive: true, force: true });

const cpu = (s: Start) => (s.cpuMs === null ? '' : `${fmt(s.cpuMs, 0).padStart(6)} ms CPU`);
const row = (name: string, s: Start) => console.log(`${name.padEnd(52)} ${fmt(s.ms, 0).padStart(6)} ms ${fmt(s.ms / bare.ms).padStart(6)}x ${cpu(s)}`);
console.log('\nStart to healthy');
row('bare node http server (baseline)', bare);
row('server, fresh folder by initdb + migrations', initdb);
row('server, first fresh folder (builds the template)', first);
row('server, fresh folder copied from the template', fresh);
row('server from its sources (tsx), existing data folder', again);
row('server bundled (what npm start runs), existing folder', bundled);
row('npm start, existing folder, built console', npmStart);
const round = (n: number | null) => (n === null ? null : Math.round(n));
console.log(JSON.stringify({
  bench: 'startup', bare_ms: Math.round(bare.ms),
  fresh_initdb_ms: Math.round(initdb.ms), fresh_first_ms: Math.round(first.ms), fresh_ms: Math.round(fresh.ms), existing_ms: Math.round(again.ms), bundled_ms: Math.round(bundled.ms), npm_start_ms: Math.round(npmStart.ms),
  fresh_initdb_cpu_ms: round(initdb.cpuMs), fresh_cpu_ms: round(fresh.cpuMs), existing_cpu_ms: round(again.cpuMs), bundled_cpu_ms: round(bundled.cpuMs),
  ratio_fresh_vs_initdb: Number((fresh.ms / initdb.ms).toFixed(2)), ratio_existing: Number((again.ms / bare.ms).toFixed(2)), ratio_bundled: Number((bundled.ms / bare.ms).toFixed(2)), ratio_npm_start: Number((npmStart.ms / bare.ms).toFixed(2)),
}));
