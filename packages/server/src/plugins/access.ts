/**
 * Server-side enforcement of the per-user switches (user access and lock access). Routes that perform a
 * gated action add `preHandler: requireAccess(...)`; the console only mirrors what this allows.
 */
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { LockAccessKey, UserAccessKey } from '@kisht/domain/constants';
import { AppError } from '../errors.ts';
import type { UsersRepository } from '../modules/users/users.repository.ts';
import { authOf } from './route-config.ts';

export type AccessRequirement = { userAccess?: UserAccessKey[]; lockAccess?: LockAccessKey[] };

export function createAccessGuard(users: UsersRepository) {
  return function requireAccess(requirement: AccessRequirement): preHandlerAsyncHookHandler {
    return async (request) => {
      const user = await users.findById(authOf(request).userId);
      if (!user) throw new AppError('SESSION_INVALID');
      const denied =
        (requirement.userAccess ?? []).some((key) => user.user_access[key] !== '1') ||
        (requirement.lockAccess ?? []).some((key) => user.lock_access[key] !== '1');
      if (denied) throw new AppError('ACCESS_DENIED');
    };
  };
}
export type RequireAccess = ReturnType<typeof createAccessGuard>;
