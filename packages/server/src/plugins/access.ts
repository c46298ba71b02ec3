/**
 * Server-side enforcement of the per-user switches (user access and lock access). Routes that perform a
 * gated action add `preHandler: requireAccess(...)`; the console only mirrors what this allows.
 */
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { LockAccessKey, UserAccessKey } from '@kisht/domain/constants';
import { AppError } from '../errors.ts';
import { authOf, type RequestAuth } from './route-config.ts';

export type AccessRequirement = { userAccess?: UserAccessKey[]; lockAccess?: LockAccessKey[] };

/** Throws ACCESS_DENIED unless every named switch of the caller is on. */
export function assertAccess(auth: RequestAuth, requirement: AccessRequirement): void {
  const denied =
    (requirement.userAccess ?? []).some((key) => auth.userAccess[key] !== '1') ||
    (requirement.lockAccess ?? []).some((key) => auth.lockAccess[key] !== '1');
  if (denied) throw new AppError('ACCESS_DENIED');
}

export function requireAccess(requirement: AccessRequirement): preHandlerAsyncHookHandler {
  return async (request) => assertAccess(authOf(request), requirement);
}
