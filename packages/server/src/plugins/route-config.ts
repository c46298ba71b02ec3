import type { LockAccess, UserAccess } from '@kisht/domain/constants';

/** Per-route switches read by the global hooks. Routes are private and X-EMM-checked unless they say otherwise. */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** No bearer session needed. */
    public?: boolean;
    /** No X-EMM-Auth-Session needed (health, docs, locales, development outbox). */
    skipEmm?: boolean;
    /** Leave a row in the audit log (plugins/audit.ts) under this action name, whatever the outcome. */
    audit?: string;
    /** Who may call the route; every route declares it (the server refuses to build otherwise). */
    callers?: readonly Caller[];
    /** Whose data the route can reach; every route declares it. */
    scope?: TenantScope;
  }
  interface FastifyInstance {
    /** Every route registered after the security plugin, with its declared callers and scope. */
    routeRules: RouteRule[];
  }
  interface FastifyRequest {
    auth: RequestAuth | null;
  }
}

/**
 * Who may call a route. `public`: anyone (a session is optional and, when sent, must be good); `retailer`
 * and `miniretailer`: a signed-in user of that type; `device`: a phone with its own credentials (or a
 * single-use enrolment token); `operator`: someone on the server's own machine (the operator key, the
 * development outbox).
 */
export const CALLERS = ['public', 'retailer', 'miniretailer', 'device', 'operator'] as const;
export type Caller = (typeof CALLERS)[number];

/**
 * Whose data a route can reach. `none`: no tenant's data, or only what a single-use proof in the request
 * names (OTP, state, token); `own`: the caller's own rows (its user, sessions and keys; a phone's own device);
 * `account`: the caller's network, a mini-retailer only the customers it enrolled (the profile rule);
 * `subtree`: the caller and the members of the retailer network below it (never its parent or siblings);
 * `org`: the organisation's shared settings and catalogue; `all`: every network (the operator).
 */
export const TENANT_SCOPES = ['none', 'own', 'account', 'subtree', 'org', 'all'] as const;
export type TenantScope = (typeof TENANT_SCOPES)[number];

/** The two user types that sign in with a session. */
export const SIGNED_IN = ['retailer', 'miniretailer'] as const satisfies readonly Caller[];

export interface RouteRule {
  method: string;
  url: string;
  callers: readonly Caller[];
  scope: TenantScope;
  /** The audit log's action for this route, when it has one. */
  audit?: string;
}

export interface RequestAuth {
  userId: number;
  sessionId: string;
  orgId: number;
  accountId: number;
  userType: 'retailer' | 'miniretailer';
  /** The user's switches as stored when this request started (read with the session, no extra query). */
  userAccess: UserAccess;
  lockAccess: LockAccess;
}

/** The signed-in caller, for handlers of private routes (the hook has already refused anyone else). */
export function authOf(request: { auth: RequestAuth | null }): RequestAuth {
  if (!request.auth) throw new Error('authOf called on a public route');
  return request.auth;
}
