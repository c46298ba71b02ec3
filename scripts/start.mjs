// `npm start`: the console built and the server bundled (each only when its sources changed since the last
// time), then the bundled server, in this process.
import { pathToFileURL } from 'node:url';
import { buildConsoleIfStale } from '../packages/console/scripts/build-if-stale.mjs';
import { bundleServerIfStale } from '../packages/server/scripts/bundle-if-stale.mjs';

// Stack traces name the TypeScript sources, not the bundle's lines.
process.setSourceMapsEnabled(true);
buildConsoleIfStale();
const server = await bundleServerIfStale();
await import(pathToFileURL(server).href);
