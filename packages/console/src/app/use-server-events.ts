/**
 * Opens the server's event stream (shared/api/server-events.ts) while signed in, closes it on sign-out. The
 * stream's code loads only then, so it stays off the first load of the sign-in screens.
 */
import { useEffect } from 'react';
import { useAppDispatch } from '../shared/state/hooks.ts';

export function useServerEvents(signedIn: boolean): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!signedIn) return undefined;
    let stop: (() => void) | undefined;
    let left = false;
    void import('../shared/api/server-events.ts').then(({ startServerEvents }) => {
      if (!left) stop = startServerEvents(dispatch);
    });
    return () => {
      left = true;
      stop?.();
    };
  }, [dispatch, signedIn]);
}
