/**
 * Server-side enforcement of the per-user switches (user access and lock access). Routes that perform a
 * gated action add `preHandler: requireAccess(...)`; the console only mirrors what this allows.
 */
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { LockAccessKey, UserAccessKey } from '@kisht/domain/constants';
import { AppError } from '../errors.ts';
import { authOf } from './route-config.ts';

export type AccessRequirement = { userAccess?: UserAccessKey[]; lockAccess?: LockAccessKey[] };

export function requireAccess(requirement: AccessRequirement): preHandlerAsyncHookHandler {
  return async (request) => {
    const { userAccess, lockAccess } = authOf(request);
    const denied =
      (requirement.userAccess ?? []).some((key) => userAccess[key] !== '1') ||
      (requirement.lockAccess ?? []).some((key) => lockAccess[key] !== '1');
    if (denied) throw new AppError('ACCESS_DENIED');
  };
}
