/**
 * The two global checks every /api request passes, in this order:
 * 1. X-EMM-Auth-Session: decrypts, is fresh, and has not been seen before (anti-replay, bound to the path).
 * 2. The bearer session: a JWT we signed whose server-side session is live. Anything else answers 511.
 */
import fp from 'fastify-plugin';
import { decodeJwt } from 'jose';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EMM_AUTH_HEADER, emmPathOf } from '@kisht/domain/emm-auth';
import { checkEmmHeader } from './emm-check.ts';
import { AppError } from '../errors.ts';
import { peekOrg, readAccessToken, type AccessClaims } from '../modules/auth/secrets.ts';
import type { SessionsRepository } from '../modules/sessions/sessions.repository.ts';
import type { EmmSeenRepository } from '../modules/security/emm-seen.repository.ts';
import { CALLERS, TENANT_SCOPES, type Caller, type RouteRule } from './route-config.ts';
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

const SESSION_CALLERS: readonly Caller[] = ['retailer', 'miniretailer'];

/** Checked tokens kept at most; past it the memory starts again empty (a burst of new sign-ins costs a check each). */
const CHECKED_TOKENS_MAX = 10_000;
/** How long a checked token is kept at most, even when it expires later. */
const CHECKED_TOKEN_MS = 10 * 60 * 1000;

/**
 * Access tokens whose signature and claims were checked, by their exact text: the same string checks the same way
 * with the process's key until it expires, so only its expiry is looked at again. (The HMAC check goes through
 * Web Crypto's asynchronous round trip and a key import, a tenth of a millisecond per request.) Whether the
 * token's session is still live is asked on every request, as before.
 */
function createTokenChecker(key: Buffer) {
  const checked = new Map<string, { claims: AccessClaims; until: number }>();
  return async function claimsOf(token: string): Promise<AccessClaims | null> {
    const now = Date.now();
    const hit = checked.get(token);
    if (hit && hit.until > now) return hit.claims;
    if (hit) checked.delete(token);
    const claims = await readAccessToken(key, token);
    const exp = claims ? decodeJwt(token).exp : undefined;
    if (claims && exp !== undefined) {
      if (checked.size >= CHECKED_TOKENS_MAX) checked.clear();
      checked.set(token, { claims, until: Math.min(exp * 1000, now + CHECKED_TOKEN_MS) });
    }
    return claims;
  };
}

/**
 * What a route declares about its callers and scope, one rule per method; throws when the declaration is
 * missing or contradicts itself. Routes of the static-file plugin (the console build, served as it is)
 * carry that plugin's own config (`rootPath`), reach no data and give none.
 */
export function routeRulesOf(route: { method: string | string[]; url: string; config?: unknown }): RouteRule[] {
  const config = (route.config ?? {}) as { callers?: unknown; scope?: unknown; public?: unknown; rootPath?: unknown; audit?: unknown };
  if (typeof config.rootPath === 'string') return [];
  const { callers, scope } = config;
  const where = `${[route.method].flat().join(',')} ${route.url}`;
  const refuse = (problem: string) => new Error(`Route declaration: ${where} ${problem}`);
  if (!Array.isArray(callers) || callers.length === 0) throw refuse('does not declare config.callers');
  const unknown = callers.filter((c) => !(CALLERS as readonly unknown[]).includes(c));
  if (unknown.length > 0) throw refuse(`names unknown callers: ${unknown.join(', ')}`);
  if (new Set(callers).size !== callers.length) throw refuse('names a caller twice');
  if (callers.includes('public') && callers.length > 1) throw refuse("names 'public' with others: it already means anyone and stands alone");
  if (!(TENANT_SCOPES as readonly unknown[]).includes(scope)) throw refuse(`does not declare config.scope (one of ${TENANT_SCOPES.join(', ')})`);
  // On /api routes the session check follows `public`: a route for signed-in users must not skip it, and a
  // route that skips it must not claim signed-in callers.
  const needsSession = (callers as Caller[]).some((c) => SESSION_CALLERS.includes(c));
  if (isApiRoute(route.url) && needsSession === (config.public === true)) {
    throw refuse(config.public === true ? 'has config.public, which skips the session its callers sign in with' : 'needs config.public: its callers have no session');
  }
  return [route.method].flat().filter((m) => m !== 'HEAD').map((method) => ({
    method, url: route.url, callers: callers as Caller[], scope: scope as RouteRule['scope'], ...(typeof config.audit === 'string' ? { audit: config.audit } : {}),
  }));
}

async function securityPlugin(app: FastifyInstance, options: SecurityOptions) {
  app.decorateRequest('auth', null);

  // Every route registered from here on says who may call it and whose data it reaches, or the server does
  // not build (fastify-plugin makes this hook the root's, so it sees every later route).
  const rules: RouteRule[] = [];
  app.decorate('routeRules', rules);
  app.addHook('onRoute', (route) => {
    rules.push(...routeRulesOf(route));
  });

  const claimsOf = createTokenChecker(options.tokenKey);
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
    const claims = token ? await claimsOf(token) : null;
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
    // The route's declared callers: a mini-retailer on a retailer-only route is refused before the handler
    // runs. Routes without a session (public, the phone's, the operator's) answer by their own proof instead.
    if (!config.public && !(config.callers ?? []).includes(session.user_type)) throw new AppError('ACCESS_DENIED');
  });
}

export default fp(securityPlugin, { name: 'security' });
