/** /api/sessions/*: the retailer's own sessions, listed and ended. */
import type { App } from '../../shared/types.ts';
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import { LogoutMySessionBody, MySessions, SessionsEnded } from '@kisht/contract/sessions';
import { ok } from '../../shared/reply.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import type { SessionsService } from './sessions.service.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 404: ErrorReply, 511: ErrorReply };
const tags = ['sessions'];

export async function sessionsRoutes(app: App, opts: { sessions: SessionsService }) {
  const { sessions } = opts;

  app.get('/api/sessions/my-sessions', {
    config: { callers: SIGNED_IN, scope: 'own' },
    schema: { tags, summary: "The caller's live sessions, the current one marked", security: [{ bearer: [] }], response: { 200: Ok(MySessions), ...errors } },
  }, async (request) => {
    const caller = authOf(request);
    return ok(request, await sessions.listMine(caller.userId, caller.sessionId));
  });

  app.post('/api/sessions/logout-my-session', {
    config: { callers: SIGNED_IN, scope: 'own', audit: 'session.end' },
    schema: { tags, summary: 'End one of your sessions, or all the others', security: [{ bearer: [] }], body: LogoutMySessionBody, response: { 200: Ok(SessionsEnded), ...errors } },
  }, async (request) => {
    const caller = authOf(request);
    const body = request.body;
    if ('all_others' in body) return ok(request, { ended: await sessions.endOthers(caller.userId, caller.sessionId) }, 'SESSIONS_ENDED');
    return ok(request, { ended: await sessions.endMine(caller.userId, body.session_id) }, 'SESSION_ENDED');
  });
}
