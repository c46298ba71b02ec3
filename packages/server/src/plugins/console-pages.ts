/**
 * The console's HTML pages as the server sends them: the sign-in page drawn at build time
 * (console/scripts/prerender.mjs, decision 030), one per language, with the organisation's name and colours filled
 * in so its first paint is the screen itself, and any page compressed as the browser accepts.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Language } from '@kisht/domain/constants';
import { translate } from '../shared/messages.ts';
import { compressedTexts, encodingFor } from '../shared/compressed-text.ts';

/** The organisation the console is built for, as its sign-in page shows it. */
export interface SignInBranding {
  name: string;
  theme: { primary: string; onPrimary: string; accent: string; surface: string };
}

/** How long the sign-in page's branding is used before it is read again (in the background), and how long a read may hold the page. */
const BRANDING_FRESH_MS = 60_000;
const BRANDING_WAIT_MS = 250;

/**
 * The branding kept in memory: the sign-in page does not wait for the database, except the first time (and then
 * briefly). A stale value is sent while a fresh one is read; without any (the database away), the app's own name.
 */
export function signInBrandingOf(read: () => Promise<SignInBranding | null>): () => Promise<SignInBranding | null> {
  let kept: { value: SignInBranding | null; at: number } | null = null;
  let reading: Promise<SignInBranding | null> | null = null;
  const refresh = () => {
    reading ??= read().then((value) => {
      kept = { value, at: Date.now() };
      return value;
    }).finally(() => {
      reading = null;
    });
    return reading;
  };
  return async () => {
    if (kept && Date.now() - kept.at < BRANDING_FRESH_MS) return kept.value;
    const fresh = refresh();
    fresh.catch(() => undefined);
    if (kept) return kept.value;
    return Promise.race([fresh, new Promise<null>((resolve) => setTimeout(() => resolve(null), BRANDING_WAIT_MS).unref())]);
  };
}

/** In the sign-in page drawn at build time (console/scripts/prerender.mjs): where the organisation's name goes. */
const ORG_NAME_SLOT = '%KISHT_ORG_NAME%';
const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The drawn sign-in page with the organisation's name in its slot and its theme for the boot script to apply (and
 * remember, as the app does once the config answers), so the page looks as the app will. Without the organisation
 * (the database away), the app's own name.
 */
function branded(page: string, branding: SignInBranding | null, fallbackName: string): string {
  const name = escapeHtml(branding?.name || fallbackName);
  const theme = branding?.theme;
  const colours = theme && Object.values(theme).every((c) => HEX_COLOUR.test(c)) ? escapeHtml(JSON.stringify(theme)) : null;
  // Functions, not strings, as replacements: a name with `$'` in it is only text.
  const metas = `<meta name="kisht-org-name" content="${name}" />\n    ${colours ? `<meta name="kisht-theme" content="${colours}" />\n    ` : ''}<meta name="kisht-prerendered"`;
  return page.replaceAll(ORG_NAME_SLOT, () => name).replace('<meta name="kisht-prerendered"', () => metas);
}

/**
 * The drawn sign-in page in `language`, branded; null when the build has not drawn it (the caller then sends the
 * app's index.html). Read each time (a small file in the page cache) so a rebuilt console is served without a restart.
 */
export async function drawnSignInPage(consoleIndex: string, language: Language, branding?: () => Promise<SignInBranding | null>): Promise<string | null> {
  const drawn = await readFile(path.join(path.dirname(consoleIndex), 'prerender', `login.${language}.html`), 'utf8').catch(() => null);
  if (drawn === null) return null;
  return branded(drawn, (await branding?.().catch(() => null)) ?? null, translate(language, 'common.appName', 'Kisht'));
}

/** The console's pages, compressed once per text (a language and a branding each): a few kept, the oldest dropped. */
const compressedPage = compressedTexts(32);

/**
 * Sends one of the console's HTML pages (index.html, a drawn sign-in page) compressed when the caller takes it: the
 * drawn page carries the stylesheet and is about a quarter of its size compressed, on a link where every KB counts.
 */
export async function sendPage(request: FastifyRequest, reply: FastifyReply, html: string): Promise<FastifyReply> {
  reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
  const encoding = encodingFor(request.headers['accept-encoding']);
  if (!encoding) return reply.send(html);
  let body: Buffer;
  try {
    body = await compressedPage(html, html, encoding);
  } catch (error) {
    // Not compressed this time (tried again on the next request): the page as it is.
    request.log.warn({ err: error }, 'page not compressed');
    return reply.send(html);
  }
  return reply.header('content-encoding', encoding).send(body);
}
