// A hash of every file a build reads (names and contents, in a fixed order): the same hash means the same
// build, so `npm start` skips it. Shared by the console's and the server's "build if stale" steps.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

function* files(path) {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) if (name !== 'node_modules' && name !== 'dist') yield* files(join(path, name));
  } else yield path;
}

/** The digest of `inputs` (files or folders), with paths taken relative to `base`. */
export function inputsDigest(inputs, base) {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const file of files(input)) {
      hash.update(relative(base, file));
      hash.update('\0');
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

/** True when `stamp` holds `digest` and every one of `outputs` exists. */
export function upToDate(stamp, digest, outputs) {
  return existsSync(stamp) && outputs.every((output) => existsSync(output)) && readFileSync(stamp, 'utf8').trim() === digest;
}

export function writeStamp(stamp, digest) {
  writeFileSync(stamp, `${digest}\n`);
}
