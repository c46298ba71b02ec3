/** GET /locales/{lng}.json: the console's translation dictionaries, for the ten languages only. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Type } from 'typebox';
import { localesDir } from '@kisht/locales/path';
import { LANGUAGES } from '@kisht/domain/constants';
import type { App } from '../../shared/types.ts';
import { ErrorReply } from '../../contract/envelope.ts';
import { AppError } from '../../errors.ts';

export async function localesRoutes(app: App, opts: { cacheSeconds: number }) {
  // Read once: the files change only with a deploy.
  const files = new Map<string, Record<string, unknown>>();
  for (const lng of LANGUAGES) {
    const text = await readFile(path.join(localesDir, `${lng}.json`), 'utf8').catch(() => null);
    if (text) files.set(lng, JSON.parse(text) as Record<string, unknown>);
  }

  app.get('/locales/:file', {
    config: { public: true, skipEmm: true },
    schema: {
      tags: ['locales'],
      summary: 'Translation dictionary for one language ({lng}.json)',
      params: Type.Object({ file: Type.String({ pattern: '^[a-z]{2}\\.json$' }) }),
      response: { 200: Type.Record(Type.String(), Type.Unknown()), 404: ErrorReply },
    },
  }, async (request, reply) => {
    const body = files.get(request.params.file.slice(0, 2));
    if (!body) throw new AppError('NOT_FOUND');
    return reply.header('cache-control', `public, max-age=${opts.cacheSeconds}`).send(body);
  });
}
