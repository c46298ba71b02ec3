import type { LockAccess, UserAccess } from '@kisht/domain/constants';

/** Per-route switches read by the global hooks. Routes are private and X-EMM-checked unless they say otherwise. */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** No bearer session needed. */
    public?: boolean;
    /** No X-EMM-Auth-Session needed (health, docs, locales, development outbox). */
    skipEmm?: boolean;
  }
  interface FastifyRequest {
    auth: RequestAuth | null;
  }
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
