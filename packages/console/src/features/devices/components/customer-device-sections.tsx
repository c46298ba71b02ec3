/** What the device channel adds to customer details: the device panel and the customer's SIM changes. */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomerDeviceSectionProps } from '../../../shared/customers/device-section.ts';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { mergePages } from '../../../shared/api/paging.ts';
import { Skeleton, SKELETON_SMALL } from '../../../shared/ui/skeleton.tsx';
import { useGetSimChangesInfiniteQuery } from '../api/sim-changes-api.ts';
import { DevicePanel } from './device-panel.tsx';
import { SimChangeItem } from './sim-change-item.tsx';

function CustomerSimChanges({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const { data, isLoading, isError, hasNextPage, isFetchingNextPage, fetchNextPage } = useGetSimChangesInfiniteQuery({ customer_id: customerId });
  const { items } = useMemo(() => mergePages(data?.pages, (change) => change.id), [data]);
  return (
    <section className="card" aria-labelledby="customer-sim-changes-title">
      <h2 id="customer-sim-changes-title">{t('simChanges.customerTitle')}</h2>
      {isLoading ? (
        <Skeleton height={SKELETON_SMALL} />
      ) : items.length === 0 ? (
        <p className="muted">{isError ? t('simChanges.loadError') : t('simChanges.customerEmpty')}</p>
      ) : (
        <ul className="list">
          {items.map((change) => (
            <SimChangeItem key={change.id} change={change} showCustomer={false} />
          ))}
        </ul>
      )}
      <LoadMore hasMore={hasNextPage} loading={isFetchingNextPage} onLoadMore={() => void fetchNextPage()} />
    </section>
  );
}

export function CustomerDeviceSections(props: CustomerDeviceSectionProps) {
  return (
    <>
      <DevicePanel {...props} />
      <CustomerSimChanges customerId={props.customerId} />
    </>
  );
}
