// `npm start` builds the console only when its sources changed since the last build: a hash of everything the
// build reads (the console's sources and config, and the shared packages it imports) is kept in
// dist/.build-inputs; the same hash skips the build. Any other argument forces a build.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { execFileSync } from 'node:child_process';

const CONSOLE = new URL('..', import.meta.url).pathname;
const PACKAGES = join(CONSOLE, '..');
const STAMP = join(CONSOLE, 'dist', '.build-inputs');
const INPUTS = [
  join(CONSOLE, 'src'), join(CONSOLE, 'public'), join(CONSOLE, 'index.html'), join(CONSOLE, 'vite.config.ts'), join(CONSOLE, 'package.json'),
  join(CONSOLE, 'scripts'), join(PACKAGES, 'domain', 'src'), join(PACKAGES, 'contract', 'src'), join(PACKAGES, 'protocol', 'src'),
  join(PACKAGES, 'locales'), join(PACKAGES, '..', 'package-lock.json'),
];

function* files(path) {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) if (name !== 'node_modules') yield* files(join(path, name));
  } else yield path;
}

const hash = createHash('sha256');
for (const input of INPUTS) {
  for (const file of files(input)) {
    hash.update(relative(PACKAGES, file));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
}
const digest = hash.digest('hex');

if (process.argv.length <= 2 && existsSync(STAMP) && existsSync(join(CONSOLE, 'dist', 'index.html')) && readFileSync(STAMP, 'utf8').trim() === digest) {
  console.log('console: already built from these sources (packages/console/dist); skipping the build');
} else {
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: CONSOLE, stdio: 'inherit' });
  writeFileSync(STAMP, `${digest}\n`);
}
