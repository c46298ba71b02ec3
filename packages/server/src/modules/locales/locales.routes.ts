/** GET /locales/{lng}.json: the console's translation dictionaries, for the ten languages only. */
import { Type } from 'typebox';
import type { App } from '../../shared/types.ts';
import { ErrorReply } from '@kisht/contract/envelope';
import { AppError } from '../../errors.ts';
import { dictionaryText } from '../../shared/messages.ts';
import { compressedTexts, encodingFor } from '../../shared/compressed-text.ts';

/** Each dictionary compressed once, the first time it is asked for: they never change while running. */
const compressedOf = compressedTexts();

export async function localesRoutes(app: App, opts: { cacheSeconds: number }) {
  app.get('/locales/:file', {
    config: { public: true, skipEmm: true, callers: ['public'], scope: 'none' },
    schema: {
      tags: ['locales'],
      summary: 'Translation dictionary for one language ({lng}.json), the file as it is',
      params: Type.Object({ file: Type.String({ pattern: '^[a-z]{2}\\.json$' }) }),
      response: { 404: ErrorReply },
    },
  }, async (request, reply) => {
    // The same text the server's own messages are read from, sent as it is (no parse and serialise per request).
    const text = dictionaryText(request.params.file.slice(0, 2));
    if (!text) throw new AppError('NOT_FOUND');
    reply.header('cache-control', `public, max-age=${opts.cacheSeconds}`).header('vary', 'accept-encoding').type('application/json; charset=utf-8');
    // A Hindi or Tamil dictionary is 150 KB of UTF-8 and about a sixth of that compressed: on a 2G/3G phone it is
    // what the first screen waits for after the script.
    const encoding = encodingFor(request.headers['accept-encoding']);
    if (!encoding) return reply.send(text as never);
    return reply.header('content-encoding', encoding).send((await compressedOf(request.params.file.slice(0, 2), text, encoding)) as never);
  });
}
