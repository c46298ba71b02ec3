/** Signs out: ends the server session when possible, forgets the user locally, goes to /login. */
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useLogoutMutation } from './session-api.ts';
import { clearSessionStorage, readStored } from '../storage.ts';
import { useAppDispatch } from '../state/hooks.ts';
import { sessionLocked } from '../state/session-slice.ts';
import { ROUTES } from '../routes.ts';

export function useSignOut(): () => Promise<void> {
  const [logout] = useLogoutMutation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  return useCallback(async () => {
    if (readStored('token')) {
      try {
        await logout().unwrap();
      } catch {
        // Offline or already ended: the local sign-out below still happens.
      }
    }
    clearSessionStorage();
    dispatch(sessionLocked());
    // The cache is not reset here: the signed-in screens are still mounted until the navigation
    // renders, and a reset would make them refetch without a token. The next sign-in resets it.
    await navigate(ROUTES.login, { replace: true });
  }, [dispatch, logout, navigate]);
}
