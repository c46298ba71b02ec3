/**
 * A private PostgreSQL cluster in a temporary folder, for tests that must stop and restart the database
 * (never the machine's shared one). Built with the initdb and pg_ctl of the newest installed version; as
 * root it runs them as the postgres user (PostgreSQL refuses to run as root). Returns null with the
 * reason when that is not possible here.
 */
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication). */
  readonly url: string;
  readonly port: number;
  /** `pg_ctl restart -m immediate`: every server process is killed and the cluster recovers from its WAL. Asynchronous, so load can run meanwhile. */
  restartImmediate(): Promise<void>;
  stop(): void;
}

function binDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

export function startPgCluster(port: number): PgCluster | { unavailable: string } {
  const bin = binDir();
  if (!bin) return { unavailable: 'no initdb under /usr/lib/postgresql' };
  const asRoot = process.getuid?.() === 0;
  let owner: { uid: number; gid: number } | null = null;
  if (asRoot) {
    const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (uid.status !== 0 || gid.status !== 0) return { unavailable: 'running as root and there is no postgres user to run initdb as' };
    owner = { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'kisht-pg-'));
  const data = path.join(dir, 'data');
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const commandOf = (tool: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]] : [path.join(bin, tool), args];
  const run = (tool: string, args: string[]) => {
    const res = spawnSync(...commandOf(tool, args), { encoding: 'utf8', timeout: 60_000 });
    if (res.status !== 0) throw new Error(`${tool} failed: ${res.error?.message ?? ''}${res.stderr}${res.stdout}`);
  };
  const runAsync = (tool: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(...commandOf(tool, args), { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${tool} exited with ${code}: ${stderr}`))));
    });
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']);
    run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', '-t', '60', 'start']);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return { unavailable: (error as Error).message.split('\n')[0] ?? 'initdb or pg_ctl failed' };
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    restartImmediate: () => runAsync('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', options, '-m', 'immediate', '-w', '-t', '60', 'restart']),
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
