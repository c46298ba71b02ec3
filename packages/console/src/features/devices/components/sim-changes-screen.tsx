/** SIM changes across the network (?customer_id= for one customer): newest first, 20 at a time. */
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../shared/ui/page.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { parseCustomerId } from '../../../shared/routes.ts';
import { mergePages } from '../../../shared/api/paging.ts';
import { useGetSimChangesInfiniteQuery } from '../api/sim-changes-api.ts';
import { SimChangeItem } from './sim-change-item.tsx';

export function SimChangesScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const customerId = parseCustomerId(params.get('customer_id'));
  const { data, isError, hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = useGetSimChangesInfiniteQuery(customerId ? { customer_id: customerId } : {});
  const { items, total } = useMemo(() => mergePages(data?.pages, (change) => change.id), [data]);

  return (
    <Page title={t('simChanges.title')}>
      {isError && !data ? (
        <LoadErrorCard message={t('simChanges.loadError')} onRetry={() => void refetch()} />
      ) : data ? (
        <>
          <p className="list-total" aria-live="polite">
            {t('simChanges.total', { count: total })}
          </p>
          {items.length === 0 ? (
            <p className="card empty-state">{t('simChanges.empty')}</p>
          ) : (
            <ul className="list">
              {items.map((change) => (
                <SimChangeItem key={change.id} change={change} showCustomer />
              ))}
            </ul>
          )}
          <LoadMore hasMore={hasNextPage} loading={isFetchingNextPage} onLoadMore={() => void fetchNextPage()} />
        </>
      ) : null}
    </Page>
  );
}
