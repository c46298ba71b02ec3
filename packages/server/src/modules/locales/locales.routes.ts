/** GET /locales/{lng}.json: the console's translation dictionaries, for the ten languages only. */
import { Type } from 'typebox';
import type { App } from '../../shared/types.ts';
import { ErrorReply } from '../../contract/envelope.ts';
import { AppError } from '../../errors.ts';
import { dictionaryText } from '../../shared/messages.ts';

export async function localesRoutes(app: App, opts: { cacheSeconds: number }) {
  app.get('/locales/:file', {
    config: { public: true, skipEmm: true },
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
    return reply.header('cache-control', `public, max-age=${opts.cacheSeconds}`).type('application/json; charset=utf-8').send(text as never);
  });
}
