// Writes a Brotli (.br) and a gzip (.gz) copy of each text asset of the build next to it, so the server sends
// them as they are (its static files have preCompressed on) instead of compressing on every request or
// sending them whole. A copy that is not smaller than the file is not kept. Only the hashed assets (assets/):
// sw.js, index.html and the manifest keep one name across deploys and are always read fresh (no-cache), so a
// stale compressed copy beside a replaced file could never be served by mistake.
import { readFileSync, readdirSync, statSync, writeFileSync, rmSync } from 'node:fs';
import { join, extname } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const DIST = new URL('../dist/', import.meta.url).pathname;
const TEXT = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.webmanifest', '.txt', '.map']);
/** Below this, the headers weigh more than what compression saves. */
const MIN_BYTES = 1024;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield full;
  }
}

let written = 0;
let before = 0;
let afterBr = 0;
for (const file of files(join(DIST, 'assets'))) {
  if (file.endsWith('.br') || file.endsWith('.gz')) continue;
  if (!TEXT.has(extname(file))) continue;
  const bytes = readFileSync(file);
  if (bytes.length < MIN_BYTES) continue;
  const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  const gz = gzipSync(bytes, { level: 9 });
  for (const [suffix, out] of [['.br', br], ['.gz', gz]]) {
    if (out.length < bytes.length) {
      writeFileSync(file + suffix, out);
      written++;
    } else rmSync(file + suffix, { force: true });
  }
  before += bytes.length;
  afterBr += Math.min(br.length, bytes.length);
}
console.log(`precompress: ${written} files written; text assets ${(before / 1024).toFixed(1)} KB, ${(afterBr / 1024).toFixed(1)} KB as Brotli`);
