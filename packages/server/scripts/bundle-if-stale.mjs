// The server as `npm start` runs it: one ES module (dist/server.mjs) built by esbuild from the TypeScript
// sources, so a start neither transpiles on the fly nor resolves hundreds of small modules. Inlined: the
// project's own packages and the ES-module libraries made of many files (typebox, zod, jose); every other
// library is loaded from node_modules as it is (native code, WebAssembly, worker files, files read beside
// their module). Rebuilt only when its inputs change (a hash in dist/.build-inputs); any argument forces it.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inputsDigest, upToDate, writeStamp } from '../../../scripts/inputs-digest.mjs';

const SERVER = new URL('..', import.meta.url).pathname;
const PACKAGES = join(SERVER, '..');
export const SERVER_BUNDLE = join(SERVER, 'dist', 'server.mjs');
const STAMP = join(SERVER, 'dist', '.build-inputs');
const INPUTS = [
  join(SERVER, 'src'), join(SERVER, 'scripts'), join(SERVER, 'package.json'), join(PACKAGES, 'domain', 'src'), join(PACKAGES, 'contract', 'src'),
  join(PACKAGES, 'protocol', 'src'), join(PACKAGES, '..', 'package-lock.json'), join(PACKAGES, '..', 'scripts', 'inputs-digest.mjs'),
];
// @kisht/locales stays outside: it is the folder of dictionaries the server reads at run time.
const INLINE = /^(@kisht\/(?!locales(?:\/|$))|typebox(?:\/|$)|zod(?:\/|$)|jose(?:\/|$))/;

/** Builds dist/server.mjs unless it was built from the same inputs (or `force`); returns its path. */
export async function bundleServerIfStale(force = false) {
  const digest = inputsDigest(INPUTS, PACKAGES);
  if (!force && upToDate(STAMP, digest, [SERVER_BUNDLE])) return SERVER_BUNDLE;
  const { build } = await import('esbuild');
  await build({
    entryPoints: [join(SERVER, 'src', 'server.ts')],
    outfile: SERVER_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [{
      name: 'libraries-from-node-modules',
      setup(builder) {
        builder.onResolve({ filter: /^[^./]/ }, (args) => (INLINE.test(args.path) ? undefined : { path: args.path, external: true }));
      },
    }],
  });
  writeStamp(STAMP, digest);
  return SERVER_BUNDLE;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  await bundleServerIfStale(process.argv.length > 2);
  console.log(`server: ${SERVER_BUNDLE} ready in ${Math.round(performance.now() - started)} ms`);
}
