/** Whether a failed load is the network's doing (the phone is offline or the request timed out), not the server's. */
import { isApiFailure } from '../../../shared/api/api-failure.ts';

export function isOffline(error: unknown): boolean {
  if (typeof navigator !== 'undefined' && !navigator.onLine) return true;
  return isApiFailure(error) && (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR');
}
