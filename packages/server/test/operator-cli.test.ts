/**
 * The newcomer's path end to end: the real server on a fresh data folder (PGlite, embedded broker) seeds the
 * demo shop and starts its phones; the operator CLI, run from another folder, reaches that running server;
 * with the server stopped it says it opened the database itself; it never makes a database of its own; and
 * after a restart the demo phones reconnect from their saved state and Lock still works.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RetailerApi } from '@kisht/agent/retailer-api';
import { REPO_ROOT } from '../src/config.ts';
import { TRY_FIRST } from '../src/db/demo-shop.ts';
import { freePort } from './harness.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';

const CLI = path.join(REPO_ROOT, 'packages', 'server', 'src', 'cli.ts');
const TSX = path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs');
const dirs: string[] = [];
let server: ServerProcess | null = null;

afterAll(async () => {
  await server?.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Runs the operator CLI the way a shell in `cwd` would, with only DATA_DIR pointing at the data. */
function operator(cwd: string, dataDir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(DATABASE_URL|DATA_DIR|APP_|MQTT_|PORT)/.test(k)));
    const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], { cwd, env: { ...inherited, APP_ENV: 'development', DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function started(port: number, env: Record<string, string>): Promise<ServerProcess> {
  const s = await startServerProcess(port, env, 90_000);
  // The demo starts after the server listens: wait for the banner's last line.
  const until = Date.now() + 60_000;
  while (!s.output.join('').includes('Try first:')) {
    if (Date.now() > until) throw new Error(`no demo in the banner:\n${s.output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return s;
}

async function pressLock(url: string): Promise<number> {
  const retailer = new RetailerApi(url, 'operator-cli test');
  await retailer.signIn();
  try {
    const found = await retailer.request<{ items: Array<{ id: number; lock_status: number }> }>('GET', `/api/customer/get_customers_keygen?search=${encodeURIComponent(TRY_FIRST.first_name)}`);
    const id = found.items[0]!.id;
    await retailer.request('POST', `/api/device/${found.items[0]!.lock_status === 1 ? 'unlock' : 'lock'}`, { customer_id: id });
    const until = Date.now() + 15_000;
    let status = found.items[0]!.lock_status;
    while (status === found.items[0]!.lock_status && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await retailer.request<{ lock_status: number }>('GET', `/api/country/getCustomerProfile?customer_id=${id}`)).lock_status;
    }
    return status;
  } finally {
    await retailer.signOut();
  }
}

describe('npm start, then npm run operator from anywhere', () => {
  it('reaches the running server from another folder, opens the database itself once it stops, and the demo phones come back after a restart', { timeout: 240_000 }, async () => {
    const data = mkdtempSync(path.join(os.tmpdir(), 'kisht-newcomer-'));
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'kisht-elsewhere-'));
    dirs.push(data, elsewhere);
    const port = await freePort();
    const env = { DATA_DIR: data, MQTT_PORT: String(await freePort()), MQTT_HOST: '127.0.0.1', CONSOLE_DIST: '/nonexistent', DUES_CHECK_SECONDS: '0', DEMO_PHONES: '2' };
    server = await started(port, env);
    const banner = server.output.join('');
    expect(banner).toContain(`PGlite (${path.join(data, 'pglite')})`);
    expect(banner).toMatch(/Demo phones: 2 running \(2 enrolled now\)/);
    // Every file of the server lives in its data folder.
    expect(readdirSync(data).sort()).toEqual(['demo-phones', 'pglite', 'pglite.server.json', 'secret']);
    expect(readdirSync(path.join(data, 'demo-phones'))).toHaveLength(2);

    const viaServer = await operator(elsewhere, data, ['signups']);
    expect(viaServer, viaServer.stderr).toMatchObject({ code: 0, stdout: 'No pending signup requests.\n' });
    expect(viaServer.stderr).not.toMatch(/opened that database directly/);
    expect(await pressLock(server.url)).toBe(1);

    // A folder with no database and no server: a clear refusal, and no database made there.
    const empty = mkdtempSync(path.join(os.tmpdir(), 'kisht-empty-'));
    dirs.push(empty);
    const refused = await operator(elsewhere, empty, ['signups']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`no database in ${path.join(empty, 'pglite')} and no server running on it`);
    expect(existsSync(path.join(empty, 'pglite'))).toBe(false);

    await server.kill('SIGTERM');
    server = null;
    const direct = await operator(elsewhere, data, ['signups']);
    expect(direct, direct.stderr).toMatchObject({ code: 0, stdout: 'No pending signup requests.\n' });
    expect(direct.stderr).toContain(`no server is running on ${path.join(data, 'pglite')}: opened that database directly`);

    server = await started(port, env);
    expect(server.output.join('')).toMatch(/Demo shop: 15 customers\n/);
    expect(server.output.join('')).toMatch(/Demo phones: 2 running\n/);
    // The phone kept its state (locked) across the restart and takes the unlock.
    expect(await pressLock(server.url)).toBe(0);
  });
});
