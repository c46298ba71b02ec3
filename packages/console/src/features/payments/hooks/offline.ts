/** Whether a failed read failed for want of a network (so the screen says "you are offline", not "could not load"). */
import type { SerializedError } from '@reduxjs/toolkit';
import type { ApiFailure } from '../../../shared/api/api-failure.ts';

export function isOfflineFailure(error: ApiFailure | SerializedError | undefined): boolean {
  if (typeof navigator !== 'undefined' && !navigator.onLine) return true;
  return !!error && 'status' in error && (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR');
}
