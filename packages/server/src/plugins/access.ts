/**
 * Server-side enforcement of the per-user switches (user access and lock access). Routes that perform a
 * gated action add `preHandler: requireAccess(...)`; the console only mirrors what this allows.
 */
import type { preHandlerAsyncHookHandler } from 'fastify';
import { isPermitted, type AccessRequirement } from '@kisht/domain/device-access';
import { AppError } from '../errors.ts';
import { authOf, type RequestAuth } from './route-config.ts';

export type { AccessRequirement };

/** Throws ACCESS_DENIED unless every named switch of the caller is on. */
export function assertAccess(auth: RequestAuth, requirement: AccessRequirement): void {
  if (!isPermitted(requirement, auth)) throw new AppError('ACCESS_DENIED');
}

export function requireAccess(requirement: AccessRequirement): preHandlerAsyncHookHandler {
  return async (request) => assertAccess(authOf(request), requirement);
}
