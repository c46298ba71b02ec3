/** What the device channel adds to customer details: the device panel, anti-theft (for its products) and the customer's SIM changes. */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomerDeviceSectionProps } from '../../../shared/customers/device-section.ts';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { mergePages } from '../../../shared/api/paging.ts';
import { Skeleton, SKELETON_SMALL } from '../../../shared/ui/skeleton.tsx';
import { useGetSimChangesInfiniteQuery } from '../api/sim-changes-api.ts';
import { isAntiTheftProduct } from '@kisht/domain/device-actions';
import { selectAccessConfig, selectUserAccessConfig } from '../../../shared/config/config-api.ts';
import { useAppSelector } from '../../../shared/state/hooks.ts';
import { isActionPermitted, type AccessSwitches } from '../hooks/device-access.ts';
import { AntitheftSection } from './antitheft-section.tsx';
import { DevicePanel } from './device-panel.tsx';
import { useGetDevicePanelQuery } from '../api/devices-api.ts';
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
  const switches: AccessSwitches = { userAccess: useAppSelector(selectUserAccessConfig), lockAccess: useAppSelector(selectAccessConfig) };
  // The device panel's own request (shared cache): ringing needs an enrolled phone.
  const { data: panel } = useGetDevicePanelQuery(props.customerId);
  return (
    <>
      <DevicePanel {...props} />
      {isAntiTheftProduct(props.profile.product_type) ? (
        <AntitheftSection customerId={props.customerId} profile={props.profile} canEdit={isActionPermitted('antitheft_lost_mode', switches)} enrolled={!!panel?.device} />
      ) : null}
      <CustomerSimChanges customerId={props.customerId} />
    </>
  );
}
