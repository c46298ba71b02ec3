/** Runs every bench script in turn (npm run bench). */
import { spawnSync } from 'node:child_process';

// The device bulk lock runs at 1,000 phones here (about a minute); its default of 10,000 takes several (npm run bench:devices).
const runs: Array<[string, ...string[]]> = [['startup.ts'], ['api-throughput.ts'], ['device-bulk-lock.ts', '--phones', '1000']];
for (const [script, ...args] of runs) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', new URL(`./${script}`, import.meta.url).pathname, ...args], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
