/** /api/sessions/*: the retailer's own sessions, listed and ended. */
import type { App } from '../../shared/types.ts';
import { ErrorReply, Ok } from '../../contract/envelope.ts';
import { LogoutMySessionBody, MySessions, SessionsEnded } from '../../contract/sessions.ts';
import { ok } from '../../shared/reply.ts';
import { authOf } from '../../plugins/route-config.ts';
import { AppError } from '../../errors.ts';
import type { SessionsRepository } from './sessions.repository.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 404: ErrorReply, 511: ErrorReply };
const tags = ['sessions'];

export async function sessionsRoutes(app: App, opts: { sessions: SessionsRepository }) {
  const { sessions } = opts;

  app.get('/api/sessions/my-sessions', {
    schema: { tags, summary: "The caller's live sessions, the current one marked", security: [{ bearer: [] }], response: { 200: Ok(MySessions), ...errors } },
  }, async (request) => {
    const caller = authOf(request);
    const rows = await sessions.listLive(caller.userId);
    return ok(request, rows.map((s) => ({
      id: s.id,
      current: s.id === caller.sessionId,
      created_at: s.created_at.toISOString(),
      last_seen_at: s.last_seen_at.toISOString(),
      expires_at: s.expires_at.toISOString(),
      ip: s.ip,
      auth_platform: s.auth_platform,
      device_details: s.device_details,
      browser_name: s.browser_name,
      browser_version: s.browser_version,
      device_type: s.device_type,
      device_platform: s.device_platform,
    })));
  });

  app.post('/api/sessions/logout-my-session', {
    schema: { tags, summary: 'End one of your sessions, or all the others', security: [{ bearer: [] }], body: LogoutMySessionBody, response: { 200: Ok(SessionsEnded), ...errors } },
  }, async (request) => {
    const caller = authOf(request);
    const body = request.body;
    if ('all_others' in body) {
      const ended = await sessions.endAllExcept(caller.userId, caller.sessionId, 'ended_by_user');
      return ok(request, { ended }, 'SESSIONS_ENDED');
    }
    // Someone else's session id looks exactly like one that does not exist.
    const ended = await sessions.end(body.session_id, caller.userId, 'ended_by_user');
    if (ended === 0) throw new AppError('NOT_FOUND');
    return ok(request, { ended }, 'SESSION_ENDED');
  });
}
