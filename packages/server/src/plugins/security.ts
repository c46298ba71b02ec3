/**
 * The two global checks every /api request passes, in this order:
 * 1. X-EMM-Auth-Session: decrypts, is fresh, and has not been seen before (anti-replay, bound to the path).
 * 2. The bearer session: a JWT we signed whose server-side session is live. Anything else answers 511.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EMM_AUTH_HEADER, emmPathOf } from '@kisht/domain/emm-auth';
import { checkEmmHeader } from './emm-check.ts';
import { AppError } from '../errors.ts';
import { peekOrg, readAccessToken } from '../modules/auth/secrets.ts';
import type { SessionsRepository } from '../modules/sessions/sessions.repository.ts';
import type { Queryable } from '../db/database.ts';
import './route-config.ts';

export interface SecurityOptions {
  db: Queryable;
  sessions: SessionsRepository;
  tokenKey: Buffer;
  emm: 'enforce' | 'off';
  appOrgId: number;
  emmWindowMs: number;
  sessionTouchSeconds: number;
}

function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

async function securityPlugin(app: FastifyInstance, options: SecurityOptions) {
  app.decorateRequest('auth', null);

  let lastSweep = 0;
  async function rememberEmmValue(value: string): Promise<boolean> {
    const now = Date.now();
    if (now - lastSweep > options.emmWindowMs) {
      lastSweep = now;
      await options.db.query(`DELETE FROM emm_auth_seen WHERE seen_at < now() - make_interval(secs => $1)`, [(2 * options.emmWindowMs) / 1000]);
    }
    const res = await options.db.query('INSERT INTO emm_auth_seen (value) VALUES ($1) ON CONFLICT DO NOTHING', [value]);
    return res.rowCount > 0;
  }

  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    // The docs UI is a static page of the swagger-ui plugin, which cannot carry our route config.
    if (!request.url.startsWith('/api/') || request.url.startsWith('/api/docs') || request.is404) return;

    if (options.emm === 'enforce' && !config.skipEmm) {
      const value = request.headers[EMM_AUTH_HEADER];
      if (typeof value !== 'string' || value === '') throw new AppError('EMM_AUTH_MISSING');
      const token = bearerOf(request);
      const orgId = (token ? peekOrg(token) : null) ?? options.appOrgId;
      const result = checkEmmHeader(value, emmPathOf(request.url), orgId, Date.now(), options.emmWindowMs);
      if (!result.ok) throw new AppError('EMM_AUTH_INVALID');
      if (!(await rememberEmmValue(value.toLowerCase()))) throw new AppError('EMM_AUTH_REPLAYED');
    }

    const token = bearerOf(request);
    // Public routes answer everyone, but still learn who is calling when a good token comes along.
    if (config.public && !token) return;
    const claims = token ? await readAccessToken(options.tokenKey, token) : null;
    const userId = claims ? Number(claims.sub) : NaN;
    const session = claims && Number.isInteger(userId) ? await options.sessions.findActive(claims.sid, userId) : undefined;
    if (!claims || !session) {
      if (config.public) return;
      throw new AppError('SESSION_INVALID');
    }
    if (Date.now() - session.last_seen_at.getTime() > options.sessionTouchSeconds * 1000) {
      await options.sessions.touch(session.id, request.ip);
    }
    request.auth = {
      userId: session.user_id,
      sessionId: session.id,
      orgId: session.org_id,
      accountId: session.account_id,
      userType: session.user_type,
      userAccess: session.user_access,
      lockAccess: session.lock_access,
    };
  });
}

export default fp(securityPlugin, { name: 'security' });
