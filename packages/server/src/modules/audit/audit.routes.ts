/** GET /api/audit/list: the caller's network activity (a mini-retailer: its own), newest first. */
import type { App } from '../../shared/types.ts';
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import { AuditList, AuditQuery } from '@kisht/contract/audit';
import { ok } from '../../shared/reply.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import type { AuditService } from './audit.service.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 511: ErrorReply };

export async function auditRoutes(app: App, opts: { audit: AuditService }) {
  app.get('/api/audit/list', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: {
      tags: ['audit'], security: [{ bearer: [] }],
      summary: 'Activity of your network: sign-ins, refusals, device commands, payments, reversals (a mini-retailer sees its own), newest first',
      querystring: AuditQuery, response: { 200: Ok(AuditList), ...errors },
    },
  }, async (request) => ok(request, await opts.audit.list(authOf(request), request.query)));
}
