/** Account requests from the login screen, and the operator's decision on them. */
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { SignupRequestBody } from '@kisht/contract/auth';
import type { SignupRepository, UsersRepository } from './users.repository.ts';

/** Requests one address may file in an hour; the form is public. */
export const SIGNUPS_PER_IP_PER_HOUR = 5;

export function createSignupsService(deps: { db: Database; users: UsersRepository; signups: SignupRepository; appOrgId: number }) {
  const { db, users, signups } = deps;
  return {
    /** Files a request. A repeat for a number already waiting answers the same, so the form reveals nothing. */
    async request(body: SignupRequestBody, ip: string | null): Promise<void> {
      if (ip && (await signups.countRecentFrom(ip)) >= SIGNUPS_PER_IP_PER_HOUR) throw new AppError('RATE_LIMITED', { retry_after_seconds: 3600 });
      await signups.insert({
        org_id: deps.appOrgId, first_name: body.first_name.trim(), last_name: body.last_name.trim(), mobile: body.mobile,
        shop_name: body.shop_name.trim(), city: body.city.trim(), email: body.email ?? null, ip,
      });
    },

    pending: () => signups.listPending(),

    /** Approves (creating the retailer) or rejects a pending request; says what happened. */
    async decide(id: number, decision: 'approve' | 'reject'): Promise<{ done: boolean; text: string }> {
      return db.transaction(async (tx) => {
        const request = await signups.findPendingForUpdate(id, tx);
        if (!request) return { done: false, text: `No pending signup request ${id}.` };
        if (decision === 'reject') {
          await signups.decide(id, 'rejected', null, tx);
          return { done: true, text: `Rejected signup request ${id} (${request.mobile}).` };
        }
        if (await users.findByMobile(request.mobile, tx)) {
          await signups.decide(id, 'rejected', null, tx);
          return { done: true, text: `${request.mobile} already has an account; request ${id} closed.` };
        }
        const user = await users.insert({ org_id: request.org_id, user_type: 'retailer', first_name: request.first_name, last_name: request.last_name, mobile: request.mobile, email: request.email, shop_name: request.shop_name, city: request.city }, tx);
        await signups.decide(id, 'approved', user.id, tx);
        return { done: true, text: `Approved: retailer ${user.id} (${user.mobile}) can now sign in with OTP.` };
      });
    },
  };
}
export type SignupsService = ReturnType<typeof createSignupsService>;
