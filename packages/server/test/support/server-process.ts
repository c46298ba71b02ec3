/**
 * The real server as a child process (`node --import tsx packages/server/src/server.ts`), for drills that
 * kill it (SIGKILL or SIGTERM) and start it again on the same data. Its output is kept for the failure report.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export interface ServerProcess {
  readonly url: string;
  readonly output: string[];
  /** Resolves when the process has exited (after a kill or on its own), with its exit code or signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the server with `env` on `port` and resolves once /api/health answers. */
export async function startServerProcess(port: number, env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'packages/server/src/server.ts')], {
    cwd: ROOT,
    env: { ...process.env, APP_ENV: 'development', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 400) output.splice(0, output.length - 400);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let gone = false;
  void exited.then(() => (gone = true));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (gone) throw new Error(`the server exited while starting:\n${output.join('')}`);
    const healthy = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false);
    if (healthy) break;
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`the server did not become healthy in ${timeoutMs} ms:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    output,
    exited,
    kill(signal) {
      if (!gone) child.kill(signal);
      return exited;
    },
  };
}
