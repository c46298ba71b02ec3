/**
 * top_up_history (?user_id= for a member below, none for one's own): every key movement, newest first, paged
 * on the server and filtered by product type and dates, each with its counterpart and the balance after; open
 * requests the reader may decide carry Approve and Reject; the same lines as a CSV file. Skeletons while loading
 * (the spec's skeleton list names this screen).
 */
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { HistoryEntry } from '@kisht/contract/network';
import { formatDateTime, todayInIndia } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { Page } from '../../../shared/ui/page.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { SkeletonList } from '../../../shared/ui/skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { NotFoundScreen } from '../../../shared/ui/not-found-screen.tsx';
import { isApiFailure } from '../../../shared/api/api-failure.ts';
import { mergePages } from '../../../shared/api/paging.ts';
import { parseId } from '../../../shared/routes.ts';
import { useDecideRequestMutation, useExportKeyHistoryMutation, useGetKeyHistoryInfiniteQuery, type HistoryFilter } from '../api/network-api.ts';
import { useGetBalanceTypesQuery, useGetMemberQuery } from '../../../shared/network/member-api.ts';
import { exportFileName, historyKindKey, signedChange } from '../hooks/history.ts';
import { memberName } from '../hooks/member.ts';

/** A history line's identity: its transfer (or the customer an enrolment line is about), time and kind. */
const entryKey = (entry: HistoryEntry) => `${entry.transfer_id ?? ''}:${entry.at}:${entry.kind}:${entry.customer_id ?? ''}`;
import './network.css';

function HistoryLine({ entry, typeName }: { entry: HistoryEntry; typeName: string }) {
  const { t } = useTranslation();
  const [decide, { isLoading }] = useDecideRequestMutation();
  const sign = entry.change > 0 ? 'in' : entry.change < 0 ? 'out' : '';
  return (
    <li className="card history-row">
      <span className="history-row__top">
        <span>{t(historyKindKey(entry))}</span>
        <span className={sign ? `history-row__change--${sign} nowrap` : 'nowrap'}>{t('network.history.keys', { change: signedChange(entry.change), name: typeName })}</span>
      </span>
      <span className="muted small">
        {formatDateTime(entry.at)}
        {entry.counterpart_name ? ` · ${entry.counterpart_name}` : ''}
        {entry.customer_id !== null ? ` · ${t('network.history.customer', { id: entry.customer_id })}` : ''}
      </span>
      <span className="small">
        {entry.balance_after !== null ? t('network.history.balanceAfter', { count: entry.balance_after }) : t(`network.history.state.${entry.state ?? 'pending'}`)}
        {entry.price_paise !== null ? ` · ${t('network.history.price', { amount: formatRupees(entry.price_paise) })}` : ''}
      </span>
      {entry.can_decide && entry.transfer_id ? (
        <span className="button-row">
          <button type="button" className="button button--primary button--small" aria-label={`${t('network.history.approve')}: ${entry.counterpart_name ?? ''}`} disabled={isLoading} onClick={() => void decide({ transfer_id: entry.transfer_id!, decision: 'approve' }).unwrap().catch(() => undefined)}>
            {t('network.history.approve')}
          </button>
          <button type="button" className="button button--secondary button--small" aria-label={`${t('network.history.reject')}: ${entry.counterpart_name ?? ''}`} disabled={isLoading} onClick={() => void decide({ transfer_id: entry.transfer_id!, decision: 'reject' }).unwrap().catch(() => undefined)}>
            {t('network.history.reject')}
          </button>
        </span>
      ) : null}
    </li>
  );
}

export function TopUpHistoryScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const raw = params.get('user_id');
  const userId = raw === null ? undefined : parseId(raw);
  const today = todayInIndia();
  const [productType, setProductType] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const filter: HistoryFilter = {
    ...(userId ? { user_id: userId } : {}),
    ...(productType !== '' ? { product_type: Number(productType) } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
  const { data: types = [] } = useGetBalanceTypesQuery();
  const { data: member } = useGetMemberQuery(userId ?? undefined, { skip: userId === null });
  const { currentData: data, error, isFetching, isError, hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = useGetKeyHistoryInfiniteQuery(filter, { skip: userId === null });
  const { items, total } = useMemo(() => mergePages(data?.pages, entryKey), [data]);
  const [exportCsv, { isLoading: exporting }] = useExportKeyHistoryMutation();
  const nameOf = (type: number) => types.find((x) => x.product_type === type)?.name ?? String(type);
  const filtered = productType !== '' || Boolean(from) || Boolean(to);

  if (userId === null || (isApiFailure(error) && error.code === 'NOT_FOUND')) return <NotFoundScreen />;

  async function download() {
    try {
      const csv = await exportCsv(filter).unwrap();
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = exportFileName(filter);
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch {
      // The error toast says why.
    }
  }

  return (
    <Page title={t('network.history.title')}>
      {member && !member.own ? <p className="muted">{t('network.history.of', { name: memberName(member) })}</p> : null}
      <div className="list-filters">
        <SelectField label={t('network.productType')} value={productType} onChange={(e) => setProductType(e.target.value)}>
          <option value="">{t('customerStatus.all')}</option>
          {types.map((type) => (
            <option key={type.product_type} value={type.product_type}>
              {type.name}
            </option>
          ))}
        </SelectField>
        <div className="filter-pair">
          <TextField label={t('audit.filter.from')} type="date" value={from} max={to || today} onChange={(e) => setFrom(e.target.value)} />
          <TextField label={t('audit.filter.to')} type="date" value={to} min={from || undefined} max={today} onChange={(e) => setTo(e.target.value)} />
        </div>
        <button type="button" className="button button--secondary button--small" disabled={exporting || total === 0} onClick={() => void download()}>
          {t('network.history.export')}
        </button>
      </div>
      {!data && isFetching ? (
        <SkeletonList rows={5} label={t('common.loading')} />
      ) : isError && !data ? (
        <LoadErrorCard message={t('network.history.loadError')} onRetry={() => void refetch()} />
      ) : data ? (
        <>
          <p className="list-total" aria-live="polite">
            {t('network.history.total', { count: total })}
          </p>
          {items.length === 0 ? (
            <p className="card empty-state">{filtered ? t('network.history.noMatch') : t('network.history.empty')}</p>
          ) : (
            <ul className="list">
              {items.map((entry) => (
                <HistoryLine key={entryKey(entry)} entry={entry} typeName={nameOf(entry.product_type)} />
              ))}
            </ul>
          )}
          <LoadMore hasMore={hasNextPage} loading={isFetchingNextPage} onLoadMore={() => void fetchNextPage()} />
        </>
      ) : null}
    </Page>
  );
}
