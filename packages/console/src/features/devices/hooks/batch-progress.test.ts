import { describe, expect, it } from 'vitest';
import { batchBody, batchProgress, candidateLockStatus } from './batch-progress.ts';

const counts = (c: Partial<Record<'queued' | 'sent' | 'delivered' | 'done' | 'failed' | 'expired' | 'skipped', number>>) => ({
  queued: 0, sent: 0, delivered: 0, done: 0, failed: 0, expired: 0, skipped: 0, ...c,
});

describe('batchProgress', () => {
  it('counts done, failed, expired and skipped as finished and keeps polling while any is under way', () => {
    expect(batchProgress({ total: 10, counts: counts({ queued: 2, sent: 1, delivered: 1, done: 3, failed: 1, expired: 1, skipped: 1 }) })).toEqual({
      total: 10, finished: 6, running: true, retryable: 2,
    });
  });

  it('stops when nothing is queued, sent or delivered', () => {
    expect(batchProgress({ total: 50, counts: counts({ done: 50 }) })).toEqual({ total: 50, finished: 50, running: false, retryable: 0 });
    expect(batchProgress({ total: 3, counts: counts({ skipped: 3 }) }).running).toBe(false);
    expect(batchProgress({ total: 0, counts: counts({}) })).toEqual({ total: 0, finished: 0, running: false, retryable: 0 });
  });
});

describe('batchBody', () => {
  it('sends hand-picked customers once each', () => {
    expect(batchBody('lock', { mode: 'pick', ids: [3, 1, 3] })).toEqual({ action: 'lock', customer_ids: [3, 1] });
  });

  it('sends the filter, leaving out an empty search', () => {
    expect(batchBody('unlock', { mode: 'filter', search: '  ', status: 'install' })).toEqual({ action: 'unlock', filter: { status: 'install' } });
    expect(batchBody('unlock', { mode: 'filter', search: ' Ravi  Kumar ', status: 'all' })).toEqual({ action: 'unlock', filter: { search: 'Ravi Kumar', status: 'all' } });
  });

  it('offers unlocked phones to lock and locked phones to unlock', () => {
    expect(candidateLockStatus('lock')).toBe(0);
    expect(candidateLockStatus('unlock')).toBe(1);
  });
});
