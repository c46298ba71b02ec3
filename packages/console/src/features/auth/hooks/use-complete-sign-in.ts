/** After a verified OTP: remember the user (never the MPIN itself) and continue to the MPIN or the dashboard. */
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { SignedIn } from '@kisht/contract/auth';
import { api } from '../../../shared/api/api.ts';
import { writeStored } from '../../../shared/storage.ts';
import { useAppDispatch } from '../../../shared/state/hooks.ts';
import { sessionUnlocked } from '../../../shared/state/session-slice.ts';
import { ROUTES } from '../../../shared/routes.ts';
import { clearPendingOtp } from './otp-request.ts';

export function useCompleteSignIn(): (signedIn: SignedIn) => Promise<void> {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(
    async ({ token, user }: SignedIn) => {
      writeStored('token', token);
      writeStored('userId', String(user.id));
      writeStored('accountId', String(user.account_id));
      writeStored('phone', user.mobile);
      writeStored('mpin', user.mpin_set ? '1' : '0');
      writeStored('mpinType', user.mpin_set ? 'enter' : 'set');
      clearPendingOtp();
      // Nothing cached for an earlier session (maybe another user's) survives a sign-in.
      dispatch(api.util.resetApiState());
      if (user.mpin_set) {
        // The OTP just proved who this is; the MPIN is for coming back later.
        dispatch(sessionUnlocked());
        await navigate(ROUTES.dashboard, { replace: true });
      } else {
        await navigate(ROUTES.m_pin, { replace: true });
      }
    },
    [dispatch, navigate],
  );
}
