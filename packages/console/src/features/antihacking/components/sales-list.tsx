/**
 * The anti-hacking plans sold, as a list in the customer list (a mini-retailer sees its own; the server filters):
 * the buyer, the plan, the code's state and dates, the code in its drawer, and Cancel plan. Search (name, mobile
 * or code) and the state filter live in the address, so Back comes back to the same list; 20 rows a page.
 */
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AntihackingSale } from '@kisht/contract/plans';
import { formatDate } from '@kisht/domain/format';
import { ListFilterBar } from '../../../shared/ui/list-filter-bar.tsx';
import { SkeletonList } from '../../../shared/ui/skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { ShortText } from '../../../shared/ui/short-text.tsx';
import { isApiFailure } from '../../../shared/api/api-failure.ts';
import { mergePages } from '../../../shared/api/paging.ts';
import { useGetDetailsQuery } from '../../../shared/auth/session-api.ts';
import { useListFilters } from '../../../shared/use-list-filters.ts';
import { ROUTES } from '../../../shared/routes.ts';
import { useGetAntihackingSalesInfiniteQuery } from '../api/antihacking-api.ts';
import {
  canRevoke,
  isStateFilter,
  SALE_STATE_LABEL_KEYS,
  SALE_STATE_TONE,
  saleDateLine,
  salesListArg,
  STATE_FILTERS,
} from '../hooks/sales.ts';
import { CodeDrawer } from './code-dialogs.tsx';
import { RevokeDialog } from './revoke-dialog.tsx';
import './antihacking.css';

function SaleRow({ sale, ownId, onCode, onRevoke }: { sale: AntihackingSale; ownId: number | undefined; onCode: () => void; onRevoke: () => void }) {
  const { t } = useTranslation();
  const name = `${sale.first_name} ${sale.last_name}`.trim();
  const ends = saleDateLine(sale);
  // The buttons say what they do; the buyer and the state they act on are their description.
  const whoId = `sale-${sale.id}-who`;
  return (
    <li className="card sale-row">
      <div className="customer-row__top" id={whoId}>
        <ShortText className="customer-row__name" text={name} />
        <span className={`badge badge--${SALE_STATE_TONE[sale.state]}`}>{t(SALE_STATE_LABEL_KEYS[sale.state])}</span>
      </div>
      <p className="customer-row__line muted">{sale.mobile}</p>
      <p className="customer-row__line">{sale.plan_name}</p>
      <p className="customer-row__line muted">
        <span className="nowrap">{t(ends.key, { date: formatDate(ends.date) })}</span>
        {sale.activated_at && sale.state !== 'revoked' ? (
          <>
            {' · '}
            {sale.device_model
              ? t('antihacking.list.activatedOnModel', { date: formatDate(sale.activated_at), model: sale.device_model })
              : t('antihacking.list.activatedOn', { date: formatDate(sale.activated_at) })}
          </>
        ) : null}
      </p>
      {sale.revoke_reason ? <p className="customer-row__line muted">{sale.revoke_reason}</p> : null}
      {sale.retailer_name && sale.retailer_id !== ownId ? (
        <p className="customer-row__line muted">{t('antihacking.list.soldBy', { name: sale.retailer_name })}</p>
      ) : null}
      <div className="button-row">
        <button type="button" className="button button--secondary button--small" aria-describedby={whoId} onClick={onCode}>
          {t('antihacking.code.view')}
        </button>
        {canRevoke(sale) ? (
          <button type="button" className="button button--danger button--small" aria-describedby={whoId} onClick={onRevoke}>
            {t('antihacking.revoke.button')}
          </button>
        ) : null}
      </div>
    </li>
  );
}

export function AntihackingSalesList() {
  const { t } = useTranslation();
  const { search, state, typed, setTyped, choose, filtered } = useListFilters(isStateFilter);

  const { data: profile } = useGetDetailsQuery();
  // currentData: after a filter change the old filter's rows must not show while the new ones load.
  const { currentData: data, isFetching, isError, error, isFetchingNextPage, hasNextPage, fetchNextPage, refetch } =
    useGetAntihackingSalesInfiniteQuery(salesListArg(search, state));
  const { items, total, totalText } = useMemo(() => mergePages(data?.pages, (sale) => sale.id), [data]);
  const [codeOf, setCodeOf] = useState<number | null>(null);
  const [revokeOf, setRevokeOf] = useState<number | null>(null);
  // The drawer follows the list: after a revoke (or an activation elsewhere) it shows the sale as it is now.
  const codeSale = items.find((sale) => sale.id === codeOf);
  const revokeSale = items.find((sale) => sale.id === revokeOf);

  const offline = (typeof navigator !== 'undefined' && !navigator.onLine) || (isApiFailure(error) && (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR'));
  return (
    <>
      <div className="sales-toolbar">
        <Link className="button button--primary button--small" to={ROUTES.antihacking}>
          {t('antihacking.nav')}
        </Link>
      </div>
      <ListFilterBar
        typed={typed}
        onType={setTyped}
        placeholder={t('antihacking.list.searchPlaceholder')}
        groupLabel={t('antihacking.list.stateFilter')}
        filters={STATE_FILTERS.map((value) => ({ value, label: value === 'all' ? t('customerStatus.all') : t(SALE_STATE_LABEL_KEYS[value]) }))}
        state={state}
        onChoose={choose}
      />

      {!data && isFetching ? (
        <SkeletonList rows={4} label={t('common.loading')} />
      ) : isError && !data ? (
        <LoadErrorCard message={offline ? t('antihacking.offline') : t('antihacking.list.loadError')} onRetry={() => void refetch()} />
      ) : (
        <>
          <p className="list-total" aria-live="polite">
            {t('customers.total', { count: total, replace: { count: totalText } })}
          </p>
          {items.length === 0 ? (
            <div className="card empty-state">
              <p>{filtered ? t('antihacking.list.noMatch') : t('antihacking.list.empty')}</p>
            </div>
          ) : (
            <ul className="list customer-list">
              {items.map((sale) => (
                <SaleRow key={sale.id} sale={sale} ownId={profile?.id} onCode={() => setCodeOf(sale.id)} onRevoke={() => setRevokeOf(sale.id)} />
              ))}
            </ul>
          )}
          <LoadMore hasMore={hasNextPage} loading={isFetchingNextPage} onLoadMore={() => void fetchNextPage()} />
        </>
      )}
      {codeSale ? <CodeDrawer sale={codeSale} onClose={() => setCodeOf(null)} /> : null}
      {revokeSale ? <RevokeDialog sale={revokeSale} onClose={() => setRevokeOf(null)} /> : null}
    </>
  );
}
