/**
 * The audit hook: every route whose config says `audit: '<action>'` leaves a row in the audit log whatever
 * its outcome, and so does every refusal on any route (403 as `access.refused`, 401 and 511 as
 * `session.refused`). The row is written before the answer leaves, so a caller never sees an outcome the log
 * lacks; a failure to write it is logged and does not undo what was done.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HTTP_SESSION_INVALID } from '@kisht/domain/constants';
import type { AuditService } from '../modules/audit/audit.service.ts';
import './route-config.ts';

/** The action a finished request is logged under, or null when it leaves nothing. */
export function auditActionOf(configured: string | undefined, status: number): string | null {
  if (configured) return configured;
  if (status === 403) return 'access.refused';
  if (status === 401 || status === HTTP_SESSION_INVALID) return 'session.refused';
  return null;
}

const MAX_PARSED = 256 * 1024;

/** The answer's error code, or its `data` on success, when the payload is our JSON envelope. */
function readEnvelope(reply: FastifyReply, payload: unknown): { code: string | null; data: unknown } {
  const type = String(reply.getHeader('content-type') ?? '');
  if (typeof payload !== 'string' || !type.includes('json')) return { code: null, data: null };
  // A large answer (a bulk batch's items) is not parsed whole: its own id leads its data.
  if (payload.length > MAX_PARSED) {
    const id = /^\{"success":true,[^{]*"data":\{"id":("[^"]{1,64}"|\d{1,15})/.exec(payload.slice(0, 4096))?.[1];
    return { code: null, data: id ? { id: JSON.parse(id) as unknown } : null };
  }
  try {
    const parsed = JSON.parse(payload) as { success?: boolean; code?: unknown; data?: unknown };
    return { code: typeof parsed.code === 'string' ? parsed.code.slice(0, 60) : null, data: parsed.success ? parsed.data : null };
  } catch {
    return { code: null, data: null };
  }
}

async function auditPlugin(app: FastifyInstance, options: { audit: AuditService }) {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const route = request.routeOptions.url;
    if (request.is404 || route === undefined) return payload;
    const action = auditActionOf(request.routeOptions.config.audit, reply.statusCode);
    if (!action) return payload;
    const envelope = readEnvelope(reply, payload);
    try {
      await options.audit.recordRequest({
        action, auth: request.auth, status: reply.statusCode, errorCode: envelope.code, method: request.method, route,
        body: request.body, query: request.query, result: envelope.data, ip: request.ip, headers: request.headers,
      });
    } catch (error) {
      request.log.error({ err: error, action }, 'audit row not written');
    }
    return payload;
  });
}

export default fp(auditPlugin, { name: 'audit' });
