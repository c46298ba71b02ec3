/**
 * Multiple lock/unlock: choose Lock or Unlock, then customers by hand or everyone matching a filter;
 * Start sends one command per phone. The progress view (?batch_id=) polls every 1.5 s until every phone
 * has an outcome, and can send the failed and expired ones again. Skeletons while loading (spec).
 */
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Batch } from '@kisht/contract/devices';
import { CUSTOMER_STATUS_FILTERS, INSTALL_STATUS_LABEL_KEYS, installStatusOf, type CustomerStatusFilter } from '@kisht/domain/customer-status';
import { Page } from '../../../shared/ui/page.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { Skeleton, SKELETON_LARGE, SKELETON_SMALL, SkeletonList } from '../../../shared/ui/skeleton.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { ConfirmDialog } from '../../../shared/ui/confirm-dialog.tsx';
import { SummaryGrid } from '../../../shared/ui/summary-grid.tsx';
import { mergePages } from '../../../shared/api/paging.ts';
import { isApiFailure } from '../../../shared/api/api-failure.ts';
import { useDebouncedValue } from '../../../shared/use-debounced-value.ts';
import { selectAccessConfig, selectUserAccessConfig } from '../../../shared/config/config-api.ts';
import { useAppSelector } from '../../../shared/state/hooks.ts';
import { CommandStateBadge, COMMAND_STATE_LABEL_KEYS } from '../../../shared/ui/status-badges.tsx';
import { bulkLockApi, useGetBatchQuery, useGetLockCandidatesInfiniteQuery, useRetryBatchMutation, useStartBatchMutation } from '../api/bulk-lock-api.ts';
import { BATCH_STATES, batchBody, batchPollMs, batchProgress, candidateLockStatus } from '../hooks/batch-progress.ts';
import { useServerEventsLive } from '../../../shared/api/server-events.ts';
import { isActionPermitted } from '../hooks/device-access.ts';
import { ShortText } from '../../../shared/ui/short-text.tsx';
import { CustomerPicker } from '../../../shared/customers/customer-picker.tsx';
import './devices.css';

type Action = 'lock' | 'unlock';
type Mode = 'pick' | 'filter';

function statusLabelKey(filter: CustomerStatusFilter): string {
  if (filter === 'all') return 'customerStatus.all';
  const code = installStatusOf(filter);
  return code === null ? 'customerStatus.all' : INSTALL_STATUS_LABEL_KEYS[code];
}

function BatchForm({ onStarted }: { onStarted: (batch: Batch) => void }) {
  const { t } = useTranslation();
  const [action, setAction] = useState<Action>('lock');
  const [mode, setMode] = useState<Mode>('pick');
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText).trim().replace(/\s+/g, ' ').slice(0, 60);
  const [status, setStatus] = useState<CustomerStatusFilter>('install');
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [start, { isLoading: starting }] = useStartBatchMutation();
  const switches = { userAccess: useAppSelector(selectUserAccessConfig), lockAccess: useAppSelector(selectAccessConfig) };
  const permitted = isActionPermitted(action, switches);

  const arg = { status, lock_status: candidateLockStatus(action), ...(search ? { search } : {}) };
  const { currentData, isFetching, isError, hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = useGetLockCandidatesInfiniteQuery(arg);
  const { items, total, totalText } = useMemo(() => mergePages(currentData?.pages, (c) => c.id), [currentData]);

  function chooseAction(next: Action) {
    setAction(next);
    // The candidates are the other lock state now: an earlier choice no longer fits.
    setSelected(new Set());
  }

  const count = mode === 'pick' ? selected.size : total;
  // Numbers as they read: a total the server stopped counting at shows as "1000+" (plural forms still follow count).
  const countText = mode === 'pick' ? String(selected.size) : totalText;
  async function run() {
    setConfirming(false);
    try {
      const body = batchBody(action, mode === 'pick' ? { mode, ids: [...selected] } : { mode, search, status });
      onStarted(await start(body).unwrap());
    } catch {
      // Shown by the base query.
    }
  }

  return (
    <>
      <div className="chips" role="group" aria-label={t('bulkLock.actionLabel')}>
        <button type="button" className="chip" aria-pressed={action === 'lock'} onClick={() => chooseAction('lock')}>
          {t('bulkLock.lock')}
        </button>
        <button type="button" className="chip" aria-pressed={action === 'unlock'} onClick={() => chooseAction('unlock')}>
          {t('bulkLock.unlock')}
        </button>
      </div>
      <fieldset className="choice-fieldset">
        <legend className="field__label">{t('bulkLock.whoLabel')}</legend>
        <label className="choice-inline">
          <input type="radio" name="mode" checked={mode === 'pick'} onChange={() => setMode('pick')} /> {t('bulkLock.modePick')}
        </label>
        <label className="choice-inline">
          <input type="radio" name="mode" checked={mode === 'filter'} onChange={() => setMode('filter')} /> {t('bulkLock.modeFilter')}
        </label>
      </fieldset>
      <div className="list-filters">
        <TextField
          label={t('bulkLock.searchLabel')}
          type="search"
          inputMode="search"
          autoComplete="off"
          maxLength={60}
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
        />
        <div className="chips" role="group" aria-label={t('bulkLock.statusLabel')}>
          {CUSTOMER_STATUS_FILTERS.map((filter) => (
            <button key={filter} type="button" className="chip" aria-pressed={status === filter} onClick={() => setStatus(filter)}>
              {t(statusLabelKey(filter))}
            </button>
          ))}
        </div>
      </div>
      <p className="muted small">{action === 'lock' ? t('bulkLock.onlyUnlocked') : t('bulkLock.onlyLocked')}</p>

      {!currentData && isFetching ? (
        <SkeletonList rows={4} label={t('common.loading')} />
      ) : isError && !currentData ? (
        <LoadErrorCard message={t('bulkLock.loadError')} onRetry={() => void refetch()} />
      ) : mode === 'filter' ? (
        <p className="card" aria-live="polite">
          {t('bulkLock.filterCount', { count: total, replace: { count: totalText } })}
        </p>
      ) : (
        <CustomerPicker
          items={items}
          selected={selected}
          onChange={setSelected}
          totalText={totalText}
          hasMore={hasNextPage}
          loadingMore={isFetchingNextPage}
          onLoadMore={() => void fetchNextPage()}
        />
      )}

      <div className="sticky-actions">
        {!permitted ? <span className="sticky-actions__text">{t('bulkLock.noAccess')}</span> : null}
        <button type="button" className="button button--primary button--block" disabled={!permitted || count === 0 || starting} onClick={() => setConfirming(true)}>
          {action === 'lock' ? t('bulkLock.startLock', { count, replace: { count: countText } }) : t('bulkLock.startUnlock', { count, replace: { count: countText } })}
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={action === 'lock' ? t('bulkLock.confirmLockTitle') : t('bulkLock.confirmUnlockTitle')}
        message={t('bulkLock.confirmMessage', { count, replace: { count: countText } })}
        confirmLabel={t('bulkLock.start')}
        danger={action === 'lock'}
        busy={starting}
        onConfirm={() => void run()}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}

function reasonText(reason: string | null, t: (key: string) => string, exists: (key: string) => boolean): string | null {
  if (!reason) return null;
  return exists(`errors.${reason}`) ? t(`errors.${reason}`) : reason;
}

function BatchProgressView({ batchId, onNew }: { batchId: string; onNew: () => void }) {
  const { t, i18n } = useTranslation();
  const { data: cached } = bulkLockApi.endpoints.getBatch.useQueryState(batchId);
  const running = cached ? batchProgress(cached).running : false;
  // The event stream refreshes the batch as phones answer; a slower poll stands in only while it is down.
  const streamLive = useServerEventsLive();
  const { data: batch, isLoading, error, refetch } = useGetBatchQuery(batchId, { pollingInterval: batchPollMs(running, streamLive) });
  const [retry, { isLoading: retrying }] = useRetryBatchMutation();

  if (isLoading) {
    return (
      <div className="stack" aria-busy="true" aria-label={t('common.loading')}>
        <Skeleton height={SKELETON_SMALL} />
        <Skeleton height={SKELETON_LARGE} />
      </div>
    );
  }
  if (!batch) {
    return <LoadErrorCard message={isApiFailure(error) ? error.message : t('bulkLock.loadError')} onRetry={() => void refetch()} />;
  }
  const progress = batchProgress(batch);
  const percent = progress.total === 0 ? 100 : Math.round((progress.finished / progress.total) * 100);
  return (
    <>
      <section className="card" aria-labelledby="batch-title">
        <h2 id="batch-title">{batch.action === 'lock' ? t('bulkLock.lockingTitle') : t('bulkLock.unlockingTitle')}</h2>
        <div
          className="progress"
          role="progressbar"
          aria-label={t('bulkLock.progressLabel')}
          aria-valuemin={0}
          aria-valuemax={progress.total}
          aria-valuenow={progress.finished}
          aria-valuetext={t('bulkLock.progressText', { done: progress.finished, total: progress.total })}
        >
          <div className="progress__fill" style={{ width: `${percent}%` }} />
        </div>
        <p aria-live="polite">
          <strong>{t('bulkLock.progressText', { done: progress.finished, total: progress.total })}</strong>
          {progress.running ? <span className="muted small">{` · ${t('bulkLock.running')}`}</span> : null}
        </p>
        <SummaryGrid four items={BATCH_STATES.map((state) => ({ label: t(COMMAND_STATE_LABEL_KEYS[state]!), value: batch.counts[state], danger: state === 'failed' && batch.counts[state] > 0 }))} />
        <div className="button-row">
          {progress.retryable > 0 ? (
            <button type="button" className="button button--primary button--small" disabled={retrying} onClick={() => void retry({ batch_id: batch.id }).unwrap().catch(() => undefined)}>
              {t('bulkLock.retryFailed', { count: progress.retryable })}
            </button>
          ) : null}
          <button type="button" className="button button--secondary button--small" onClick={onNew}>
            {t('bulkLock.newBatch')}
          </button>
        </div>
      </section>
      <section className="card" aria-labelledby="batch-items-title">
        <h2 id="batch-items-title">{t('bulkLock.outcomes')}</h2>
        <ul className="list outcome-list">
          {batch.items.map((item) => {
            const reason = reasonText(item.reason, t, (key) => i18n.exists(key));
            return (
              <li key={`${item.customer_id}-${item.command_id ?? 'skipped'}`} className="outcome-row">
                <ShortText className="outcome-row__name" text={item.name || `#${item.customer_id}`} />
                <CommandStateBadge state={item.state} />
                {reason ? <span className="muted small outcome-row__reason">{reason}</span> : null}
              </li>
            );
          })}
        </ul>
      </section>
    </>
  );
}

export function MultipleLockUnlockScreen() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const batchId = params.get('batch_id');
  return (
    <Page title={t('bulkLock.title')}>
      {batchId ? (
        <BatchProgressView batchId={batchId} onNew={() => setParams({})} />
      ) : (
        <BatchForm onStarted={(batch) => setParams({ batch_id: batch.id })} />
      )}
    </Page>
  );
}
