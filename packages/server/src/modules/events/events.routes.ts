/**
 * GET /api/events: the session's stream of changes (Server-Sent Events over a plain authenticated GET; the
 * console reads it with fetch so the bearer token and X-EMM-Auth-Session go as headers, decision 009).
 * Registered with fastify-plugin so its hook sees the routes that end sessions.
 */
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import { ErrorReply } from '@kisht/contract/envelope';
import { StreamEvent } from '@kisht/contract/events';
import type { App } from '../../shared/types.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import type { EventHub } from './events.hub.ts';

/** Routes after which the caller's sessions may have ended: their streams are checked at once, on every node. */
const SESSION_ENDING = new Set(['/api/auth/logout', '/api/sessions/logout-my-session', '/api/auth/verify-mpin']);

async function eventsRoutes(app: App, opts: { hub: EventHub }) {
  const { hub } = opts;

  app.addHook('onResponse', async (request) => {
    if (request.auth && SESSION_ENDING.has(request.routeOptions.url ?? '')) hub.sessionsChanged(request.auth.userId);
  });

  app.get('/api/events', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: {
      tags: ['events'],
      summary: 'Server-Sent Events: what changed on the server, by ids, for the screens to read again',
      description:
        'A text/event-stream that stays open while the session lives. `event: ready` first; then one `data:` line per change, a StreamEvent '
        + '(customer events only for customers the session may see; batches to their network\'s retailers and their creator; the dues run to '
        + 'the organisation); a `: keep-alive` comment every 25 s; `event: end` with `{"reason":"session"}` when the session ends (logout, '
        + 'ended elsewhere, expired), after which the stream closes. Read it with fetch and the usual headers; reconnect with back-off.',
      security: [{ bearer: [] }],
      // No parameters: anything in the query is refused (400), before a stream is opened.
      querystring: Type.Object({}, { additionalProperties: false }),
      response: {
        200: { description: 'The event stream', content: { 'text/event-stream': { schema: StreamEvent } } },
        401: ErrorReply, 403: ErrorReply, 511: ErrorReply,
      },
    },
  }, async (request, reply) => {
    const caller = authOf(request);
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // A proxy in front must pass each event on as it comes.
      'x-accel-buffering': 'no',
    });
    // HEAD (which Fastify answers for every GET) gets the headers only, not a stream that never ends.
    if (request.method === 'HEAD') return void raw.end();
    const forget = hub.open(caller, {
      send(text) {
        if (!raw.destroyed && !raw.writableEnded) raw.write(text);
      },
      end() {
        if (!raw.writableEnded) raw.end();
      },
    });
    // The response closes when the client goes away (the request's own 'close' comes as soon as its body is read).
    raw.once('close', forget);
  });
}

export default fp(eventsRoutes, { name: 'events' });
