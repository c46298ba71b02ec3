/** One error handler: known errors keep their code, validation errors list their fields, 5xx text is hidden. */
import { readFile } from 'node:fs/promises';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, errorMessage } from '../errors.ts';
import { languageOf, translate } from '../shared/messages.ts';
import type { ErrorCode } from '@kisht/contract/envelope';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { drawnSignInPage, sendPage, type SignInBranding } from './console-pages.ts';

/** What a 503 asks the caller to wait before trying again: about as long as a database restart. */
const UNAVAILABLE_RETRY_SECONDS = 5;

function localise(code: ErrorCode, cookie: string | undefined, english: string): string {
  return translate(languageOf(cookie), `errors.${code}`, english);
}

/** The methods a 405 may list. OPTIONS alone does not make a URL known (a CORS preflight may answer any path). */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The methods the router has for this concrete URL (its path, without the query). */
function methodsOf(app: FastifyInstance, url: string): string[] {
  const pathname = url.split('?', 1)[0] ?? url;
  return METHODS.filter((method) => app.findRoute({ method, url: pathname }) !== null);
}

export function registerErrorHandling(app: FastifyInstance, options: { consoleIndex: string; signInBranding?: () => Promise<SignInBranding | null> }) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const cookie = request.headers.cookie;
    if (error instanceof AppError) {
      if (error.reportable) request.log.error({ err: error }, 'request failed');
      if (error.extras.retry_after_seconds) reply.header('retry-after', String(error.extras.retry_after_seconds));
      const body = error.toReply();
      const lng = languageOf(cookie);
      const details = body.details?.map((d) => (d.rule ? { ...d, message: translate(lng, `validation.${d.rule}`, d.message) } : d));
      return reply.status(error.status).send({ ...body, ...(details ? { details } : {}), message: localise(error.code, cookie, body.message) });
    }
    if (error.validation) {
      const details = error.validation.map((v) => ({
        field: (v.instancePath || String(v.params?.missingProperty ?? '')).replace(/^\//, '').replace(/\//g, '.') || (error.validationContext ?? 'body'),
        message: translate(languageOf(cookie), v.keyword === 'required' ? 'validation.required' : 'validation.invalid', v.message ?? 'is invalid'),
        rule: v.keyword === 'required' ? 'required' : 'invalid',
      }));
      return reply.status(400).send({ success: false, code: 'VALIDATION_FAILED', message: localise('VALIDATION_FAILED', cookie, errorMessage('VALIDATION_FAILED')), details });
    }
    const status = error.statusCode ?? 500;
    if (status === 413) return reply.status(413).send({ success: false, code: 'PAYLOAD_TOO_LARGE', message: localise('PAYLOAD_TOO_LARGE', cookie, errorMessage('PAYLOAD_TOO_LARGE')) });
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type and the like: the caller's mistake, said plainly. A body that could not
      // be read at all names the body as the field, so the console can say which part was wrong.
      const unreadableBody = typeof error.code === 'string' && error.code.startsWith('FST_ERR_CTP_');
      const details = unreadableBody ? [{ field: 'body', message: translate(languageOf(cookie), 'validation.invalid', 'is invalid'), rule: 'invalid' }] : undefined;
      return reply.status(400).send({ success: false, code: 'VALIDATION_FAILED', message: localise('VALIDATION_FAILED', cookie, errorMessage('VALIDATION_FAILED')), ...(details ? { details } : {}) });
    }
    if (isDatabaseUnavailable(error)) {
      // The database is down, restarting or cut off: a short answer the caller may retry, not a 500.
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', String(UNAVAILABLE_RETRY_SECONDS));
      return reply.status(503).send({
        success: false, code: 'SERVICE_UNAVAILABLE', message: localise('SERVICE_UNAVAILABLE', cookie, errorMessage('SERVICE_UNAVAILABLE')), retry_after_seconds: UNAVAILABLE_RETRY_SECONDS,
      });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ success: false, code: 'INTERNAL', message: localise('INTERNAL', cookie, errorMessage('INTERNAL')) });
  });

  app.setNotFoundHandler(async (request, reply) => {
    const cookie = request.headers.cookie;
    // The console is a single-page app: its routes (/login, /dashboard ...) all load index.html.
    const isPage = request.method === 'GET' && !/^\/(api|locales)(\/|$)/.test(request.url) && (request.headers.accept ?? '').includes('text/html');
    if (isPage) {
      // Read each time (a small file in the page cache) so a rebuilt console is served without a restart. The
      // sign-in page goes with its screen drawn in the caller's language, when the build has written it.
      const pathname = request.url.split('?', 1)[0];
      const language = languageOf(cookie);
      const signIn = pathname === '/login' ? await drawnSignInPage(options.consoleIndex, language, options.signInBranding) : null;
      const indexHtml = signIn ?? (await readFile(options.consoleIndex, 'utf8').catch(() => null));
      if (indexHtml) return sendPage(request, reply, indexHtml);
    }
    // The URL exists with other methods: 405 with the ones it has (spec section 8), not 404.
    const allowed = methodsOf(app, request.url);
    if (allowed.length > 0) {
      return reply.status(405).header('allow', allowed.join(', ')).send({ success: false, code: 'METHOD_NOT_ALLOWED', message: localise('METHOD_NOT_ALLOWED', cookie, errorMessage('METHOD_NOT_ALLOWED')) });
    }
    return reply.status(404).send({ success: false, code: 'ROUTE_NOT_FOUND', message: localise('ROUTE_NOT_FOUND', cookie, errorMessage('ROUTE_NOT_FOUND')) });
  });
}
