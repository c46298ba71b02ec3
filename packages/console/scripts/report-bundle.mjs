// Bundle budget: gzipped JS of the first load (the entry and its static imports) and of the whole build.
// Reads Vite's manifest (build.manifest). Fails the build above the hard limit.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const DIST = new URL('../dist/', import.meta.url).pathname;
const TARGET_KB = 170;
const LIMIT_KB = 200;

const manifest = JSON.parse(readFileSync(join(DIST, '.vite', 'manifest.json'), 'utf8'));
const gzipKb = (file) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length / 1024;
const fmt = (kb) => `${kb.toFixed(1)} KB`;

const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
if (entries.length === 0) {
  console.error('report-bundle: no entry in the Vite manifest');
  process.exit(1);
}

// Everything the browser must download before the app can start: entries plus their static imports.
const firstLoad = new Set();
const css = new Set();
function visit(key) {
  const chunk = manifest[key];
  if (!chunk || firstLoad.has(chunk.file)) return;
  firstLoad.add(chunk.file);
  for (const file of chunk.css ?? []) css.add(file);
  for (const imported of chunk.imports ?? []) visit(imported);
}
for (const [key] of entries) visit(key);

const firstLoadJs = [...firstLoad].filter((f) => f.endsWith('.js'));
const firstLoadKb = firstLoadJs.reduce((sum, f) => sum + gzipKb(f), 0);
const cssKb = [...css].reduce((sum, f) => sum + gzipKb(f), 0);

const assets = readdirSync(join(DIST, 'assets')).filter((f) => f.endsWith('.js'));
const sized = assets.map((f) => ({ file: `assets/${f}`, kb: gzipKb(`assets/${f}`) })).sort((a, b) => b.kb - a.kb);
const totalKb = sized.reduce((sum, a) => sum + a.kb, 0);
const lazy = sized.filter((a) => !firstLoad.has(a.file));

console.log('\nBundle report (gzip level 9)');
for (const file of firstLoadJs) console.log(`  first load  ${fmt(gzipKb(file)).padStart(9)}  ${file}`);
console.log(`  first-load JS: ${fmt(firstLoadKb)} (target ${TARGET_KB} KB, limit ${LIMIT_KB} KB); CSS ${fmt(cssKb)}`);
console.log(`  lazy chunks:   ${lazy.length}, largest ${lazy[0] ? `${fmt(lazy[0].kb)} ${lazy[0].file}` : 'none'}`);
console.log(`  total JS:      ${fmt(totalKb)} in ${sized.length} files`);

if (firstLoadKb > LIMIT_KB) {
  console.error(`\nFirst-load JS ${fmt(firstLoadKb)} is over the ${LIMIT_KB} KB limit.`);
  process.exit(1);
}
if (firstLoadKb > TARGET_KB) console.warn(`\nFirst-load JS is over the ${TARGET_KB} KB target (still under the limit).`);
