/**
 * The extended warranties sold, as a list in the customer list (a mini-retailer sees its own; the server filters):
 * the buyer, the phone, the certificate number, the plan and the cover's state with its dates, and Details (the sale
 * with its certificate and claims). Search (name, mobile or its last digits, IMEI, certificate number) and the state
 * filter live in the address, so Back comes back to the same list; 20 rows a page; the `warranty` event refreshes it.
 */
import { useMemo } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { WarrantySale } from '@kisht/contract/warranty';
import { formatDate } from '@kisht/domain/format';
import { ListFilterBar } from '../../../shared/ui/list-filter-bar.tsx';
import { SkeletonList } from '../../../shared/ui/skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { ShortText } from '../../../shared/ui/short-text.tsx';
import { mergePages } from '../../../shared/api/paging.ts';
import { useListFilters } from '../../../shared/use-list-filters.ts';
import { ROUTES, warrantyPath } from '../../../shared/routes.ts';
import { useGetWarrantySalesInfiniteQuery } from '../api/warranty-api.ts';
import { isStateFilter, SALE_STATE_LABEL_KEYS, SALE_STATE_TONE, saleDateLine, salesListArg, STATE_FILTERS } from '../hooks/sales.ts';
import { isOffline } from '../../../shared/api/api-failure.ts';
import './warranty.css';

function SaleRow({ sale }: { sale: WarrantySale }) {
  const { t } = useTranslation();
  const name = `${sale.first_name} ${sale.last_name}`.trim();
  const dates = saleDateLine(sale);
  // The button says what it does; the buyer and the certificate it opens are its description.
  const whoId = `warranty-sale-${sale.id}-who`;
  return (
    <li className="card warranty-row">
      <div className="customer-row__top" id={whoId}>
        <ShortText className="customer-row__name" text={name} />
        <span className={`badge badge--${SALE_STATE_TONE[sale.state]}`}>{t(SALE_STATE_LABEL_KEYS[sale.state])}</span>
      </div>
      <p className="customer-row__line">
        {sale.brand} {sale.model}
      </p>
      <p className="customer-row__line muted">
        <span className="nowrap">{sale.certificate_no}</span>
        {' · '}
        {sale.plan_name}
      </p>
      <p className="customer-row__line muted">
        <span className="nowrap">{t(dates.key, { date: formatDate(dates.date) })}</span>
        {' · '}
        <span className="nowrap">{t('warranty.list.claims', { used: sale.claims_used, max: sale.rules.max_claims })}</span>
      </p>
      <div className="button-row">
        <Link className="button button--secondary button--small" to={warrantyPath({ saleId: sale.id })} aria-describedby={whoId}>
          {t('warranty.list.details')}
        </Link>
      </div>
    </li>
  );
}

export function WarrantySalesList() {
  const { t } = useTranslation();
  const { search, state, typed, setTyped, choose, filtered } = useListFilters(isStateFilter);

  // currentData: after a filter change the old filter's rows must not show while the new ones load.
  const { currentData: data, isFetching, isError, error, isFetchingNextPage, hasNextPage, fetchNextPage, refetch } =
    useGetWarrantySalesInfiniteQuery(salesListArg(search, state));
  const { items, total, totalText } = useMemo(() => mergePages(data?.pages, (sale) => sale.id), [data]);

  return (
    <>
      <div className="warranty-toolbar">
        <Link className="button button--primary button--small" to={ROUTES.extended_warranty}>
          {t('warranty.nav')}
        </Link>
      </div>
      <ListFilterBar
        typed={typed}
        onType={setTyped}
        placeholder={t('warranty.list.searchPlaceholder')}
        groupLabel={t('warranty.list.stateFilter')}
        filters={STATE_FILTERS.map((value) => ({ value, label: value === 'all' ? t('customerStatus.all') : t(SALE_STATE_LABEL_KEYS[value]) }))}
        state={state}
        onChoose={choose}
      />

      {!data && isFetching ? (
        <SkeletonList rows={4} label={t('common.loading')} />
      ) : isError && !data ? (
        <LoadErrorCard message={isOffline(error) ? t('warranty.offline') : t('warranty.list.loadError')} onRetry={() => void refetch()} />
      ) : (
        <>
          <p className="list-total" aria-live="polite">
            {t('customers.total', { count: total, replace: { count: totalText } })}
          </p>
          {items.length === 0 ? (
            <div className="card empty-state">
              <p>{filtered ? t('warranty.list.noMatch') : t('warranty.list.empty')}</p>
            </div>
          ) : (
            <ul className="list customer-list">
              {items.map((sale) => (
                <SaleRow key={sale.id} sale={sale} />
              ))}
            </ul>
          )}
          <LoadMore hasMore={hasNextPage} loading={isFetchingNextPage} onLoadMore={() => void fetchNextPage()} />
        </>
      )}
    </>
  );
}
