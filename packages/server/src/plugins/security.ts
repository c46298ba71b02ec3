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
import type { EmmSeenRepository } from '../modules/security/emm-seen.repository.ts';
import './route-config.ts';
import { DEFAULT_LOCK_ACCESS, DEFAULT_USER_ACCESS } from '@kisht/domain/constants';

export interface SecurityOptions {
  emmSeen: EmmSeenRepository;
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

/** Whether the global checks apply, decided by the matched route (not the raw URL, which may be percent-encoded). */
function isApiRoute(routeUrl: string | undefined): boolean {
  // The docs UI is a static page of the swagger-ui plugin, which cannot carry our route config.
  return routeUrl !== undefined && routeUrl.startsWith('/api/') && !routeUrl.startsWith('/api/docs');
}

async function securityPlugin(app: FastifyInstance, options: SecurityOptions) {
  app.decorateRequest('auth', null);

  let lastSweep = 0;
  async function rememberEmmValue(value: string): Promise<boolean> {
    const now = Date.now();
    if (now - lastSweep > options.emmWindowMs) {
      lastSweep = now;
      await options.emmSeen.forgetOlderThan((2 * options.emmWindowMs) / 1000);
    }
    return options.emmSeen.remember(value);
  }

  app.addHook('onRequest', async (request) => {
    if (request.is404 || !isApiRoute(request.routeOptions.url)) return;
    const config = request.routeOptions.config;
    const token = bearerOf(request);

    if (options.emm === 'enforce' && !config.skipEmm) {
      const value = request.headers[EMM_AUTH_HEADER];
      if (typeof value !== 'string' || value === '') throw new AppError('EMM_AUTH_MISSING');
      const orgId = (token ? peekOrg(token) : null) ?? options.appOrgId;
      const result = checkEmmHeader(value, emmPathOf(request.url), orgId, Date.now(), options.emmWindowMs);
      if (!result.ok) throw new AppError('EMM_AUTH_INVALID');
      if (!(await rememberEmmValue(value.toLowerCase()))) throw new AppError('EMM_AUTH_REPLAYED');
    }

    // Public routes answer callers without a token; a token that comes along must be good, as anywhere.
    if (config.public && !token) return;
    const claims = token ? await readAccessToken(options.tokenKey, token) : null;
    const userId = claims ? Number(claims.sub) : NaN;
    const session = claims && Number.isInteger(userId) ? await options.sessions.findActive(claims.sid, userId) : undefined;
    if (!claims || !session) throw new AppError('SESSION_INVALID');
    if (Date.now() - session.last_seen_at.getTime() > options.sessionTouchSeconds * 1000) {
      await options.sessions.touch(session.id, request.ip);
    }
    request.auth = {
      userId: session.user_id,
      sessionId: session.id,
      orgId: session.org_id,
      accountId: session.account_id,
      userType: session.user_type,
      // Switches a stored row lacks (added after it was written) take their defaults: the same values the
      // console is shown and the access checks enforce.
      userAccess: { ...DEFAULT_USER_ACCESS, ...session.user_access },
      lockAccess: { ...DEFAULT_LOCK_ACCESS, ...session.lock_access },
    };
  });
}

export default fp(securityPlugin, { name: 'security' });
