/** Progress of a multiple lock/unlock batch: how many phones have an outcome, and whether to keep polling. */
import type { Batch } from '@kisht/contract/devices';

/** Without the server's event stream the progress view reads the batch this often while phones are still working on it. */
export const BATCH_FALLBACK_POLL_MS = 5000;
export const batchPollMs = (running: boolean, streamLive: boolean) => (running && !streamLive ? BATCH_FALLBACK_POLL_MS : 0);

export const BATCH_STATES = ['queued', 'sent', 'delivered', 'done', 'failed', 'expired', 'skipped'] as const;
export type BatchState = (typeof BATCH_STATES)[number];

export interface BatchProgress {
  total: number;
  /** Done, failed, expired or skipped: the phone's outcome is known. */
  finished: number;
  running: boolean;
  /** Failed or expired: what "Retry failed" sends again. */
  retryable: number;
}

export function batchProgress(batch: Pick<Batch, 'total' | 'counts'>): BatchProgress {
  const { counts } = batch;
  const finished = counts.done + counts.failed + counts.expired + counts.skipped;
  return {
    total: batch.total,
    finished,
    running: counts.queued + counts.sent + counts.delivered > 0,
    retryable: counts.failed + counts.expired,
  };
}

/** The body of a batch start: the hand-picked customers, or the list's filter. */
export function batchBody(
  action: 'lock' | 'unlock',
  choice: { mode: 'pick'; ids: readonly number[] } | { mode: 'filter'; search: string; status: string },
): { action: 'lock' | 'unlock'; customer_ids?: number[]; filter?: { search?: string; status?: string } } {
  if (choice.mode === 'pick') return { action, customer_ids: [...new Set(choice.ids)] };
  const search = choice.search.trim().replace(/\s+/g, ' ').slice(0, 60);
  return { action, filter: { ...(search ? { search } : {}), status: choice.status } };
}

/** Customers worth offering for an action: those now in the opposite state (1 locked, 0 unlocked). */
export const candidateLockStatus = (action: 'lock' | 'unlock') => (action === 'lock' ? 0 : 1);
