/**
 * Time from starting the server (what `npm start` runs once the console is built) to GET /api/health = 200,
 * on a fresh PGlite data folder (created, migrated, seeded) and again on the existing one, next to a bare
 * Node http server's start in the same run as the baseline.
 *   node --import tsx bench/startup.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fmt } from './lib.ts';

const root = new URL('..', import.meta.url).pathname;

async function untilHealthy(url: string, child: ReturnType<typeof spawn>, started: number): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function timeStart(args: string[], env: Record<string, string>, url: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    return await untilHealthy(url, child, started);
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

const port = 18080 + Math.floor(Math.random() * 1000);
const bare = await timeStart(['-e', `require('http').createServer((q,s)=>s.end('ok')).listen(${port})`], {}, `http://127.0.0.1:${port}/`);

const dataDir = mkdtempSync(path.join(tmpdir(), 'kisht-start-'));
const env = { PORT: String(port), MQTT_PORT: String(port + 1000), DATA_DIR: path.join(dataDir, 'pglite'), LOG_LEVEL: 'warn', APP_SECRET: 'bench-secret-bench-secret-bench-secret!' };
const server = ['--import', 'tsx', 'packages/server/src/server.ts'];
const fresh = await timeStart(server, env, `http://127.0.0.1:${port}/api/health`);
const again = await timeStart(server, env, `http://127.0.0.1:${port}/api/health`);
rmSync(dataDir, { recursive: true, force: true });

console.log('\nStart to healthy');
console.log(`bare node http server (baseline)      ${fmt(bare, 0).padStart(6)} ms   1.0x`);
console.log(`server, fresh data folder (migrate+seed) ${fmt(fresh, 0).padStart(6)} ms  ${fmt(fresh / bare)}x`);
console.log(`server, existing data folder           ${fmt(again, 0).padStart(6)} ms  ${fmt(again / bare)}x`);
