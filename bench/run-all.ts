/** Runs every bench script in turn (npm run bench). */
import { spawnSync } from 'node:child_process';

for (const script of ['startup.ts', 'api-throughput.ts']) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', new URL(`./${script}`, import.meta.url).pathname], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
