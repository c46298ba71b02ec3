// `npm start` builds the console only when its sources changed since the last build: a hash of everything the
// build reads (the console's sources and config, and the shared packages it imports) is kept in
// dist/.build-inputs; the same hash skips the build. Any other argument forces a build.
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { inputsDigest, upToDate, writeStamp } from '../../../scripts/inputs-digest.mjs';

const CONSOLE = new URL('..', import.meta.url).pathname;
const PACKAGES = join(CONSOLE, '..');
const STAMP = join(CONSOLE, 'dist', '.build-inputs');
const INPUTS = [
  join(CONSOLE, 'src'), join(CONSOLE, 'public'), join(CONSOLE, 'index.html'), join(CONSOLE, 'vite.config.ts'), join(CONSOLE, 'package.json'),
  join(CONSOLE, 'scripts'), join(PACKAGES, 'domain', 'src'), join(PACKAGES, 'contract', 'src'), join(PACKAGES, 'protocol', 'src'),
  join(PACKAGES, 'locales'), join(PACKAGES, '..', 'package-lock.json'),
];

/** Builds the console unless the last build was of the same sources (or `force`). */
export function buildConsoleIfStale(force = false) {
  const digest = inputsDigest(INPUTS, PACKAGES);
  if (!force && upToDate(STAMP, digest, [join(CONSOLE, 'dist', 'index.html')])) {
    console.log('console: already built from these sources (packages/console/dist); skipping the build');
    return;
  }
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: CONSOLE, stdio: 'inherit' });
  writeStamp(STAMP, digest);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) buildConsoleIfStale(process.argv.length > 2);
