// Writes the sign-in page with its screen already in the HTML, one per language (dist/prerender/login.<lng>.html),
// from the built index.html and src/app/prerender-sign-in.tsx. The server sends it for /login in the language of the
// i18next cookie, so a slow phone paints the screen as soon as the HTML is in (the CSS is inside it), before the scripts.
// index.html's boot script shows the splash instead when the page's language is not the one the app will start in,
// or a session is stored (the app will go elsewhere); the app's first render replaces the screen either way.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'vite';

const CONSOLE = new URL('..', import.meta.url).pathname;
const DIST = join(CONSOLE, 'dist');
const OUT = join(DIST, 'prerender');
const LOCALES = join(CONSOLE, '..', 'locales');

const template = readFileSync(join(DIST, 'index.html'), 'utf8');
const ROOT = '<div id="root"></div>';
const HEAD = '<meta charset="UTF-8" />';
const SPLASH = '<div id="boot-splash"';
for (const part of [ROOT, HEAD, SPLASH]) if (!template.includes(part)) throw new Error(`prerender: dist/index.html has no ${part}`);
// The app's stylesheet goes inside the page (about 4 KB compressed): the screen paints once the HTML is in, without
// waiting for a second request that shares a slow link with the scripts. Its rules refer to no file by a relative URL.
const STYLESHEET = /<link rel="stylesheet" crossorigin href="\/(assets\/index-[\w-]+\.css)">/;
const sheet = STYLESHEET.exec(template);
if (!sheet) throw new Error('prerender: dist/index.html links no stylesheet of its own');
const css = readFileSync(join(DIST, sheet[1]), 'utf8');
// The link stays, disabled (never fetched, never applied): Vite's loader of lazy screens skips a stylesheet a link
// on the page already names, so without it a lazy screen that lists this one would fetch it again and append it
// after the screens' own stylesheets, changing their order.
const KEEP_LINK = (link) => link.replace('<link ', '<link disabled ');
if (/url\(\s*['"]?(?!data:|\/|https?:)/.test(css) || css.includes('</style')) throw new Error('prerender: the stylesheet cannot be inlined as it is');

// Vite loads the module as the app's build would (TSX, CSS imports left out on the server side).
const vite = await createServer({
  root: CONSOLE,
  configFile: false,
  logLevel: 'warn',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, ws: false },
  optimizeDeps: { noDiscovery: true, include: [] },
});
try {
  const { renderSignIn } = await vite.ssrLoadModule('/src/app/prerender-sign-in.tsx');
  const { LANGUAGES, FALLBACK_LANGUAGE } = await vite.ssrLoadModule('@kisht/domain/constants');
  const read = (lng) => JSON.parse(readFileSync(join(LOCALES, `${lng}.json`), 'utf8'));
  const fallback = read(FALLBACK_LANGUAGE);
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  let bytes = 0;
  for (const lng of LANGUAGES) {
    const markup = renderSignIn(lng, read(lng), fallback);
    const page = template
      .replace(HEAD, `${HEAD}\n    <meta name="kisht-prerendered" content="${lng}" />`)
      .replace(SPLASH, `${SPLASH} data-standby`)
      .replace(ROOT, () => `<div id="root">${markup}</div>`)
      .replace(sheet[0], () => `<style>${css}</style>${KEEP_LINK(sheet[0])}`);
    writeFileSync(join(OUT, `login.${lng}.html`), page);
    bytes += page.length;
  }
  console.log(`prerender: the sign-in page in ${LANGUAGES.length} languages (${(bytes / 1024).toFixed(1)} KB in all)`);
} finally {
  await vite.close();
}
