/**
 * What the device channel adds to customer details: the device panel, anti-theft or family care (for their products;
 * family care's section comes in from the app layer) and the customer's SIM changes.
 */
import { useMemo, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomerDeviceSectionProps } from '../../../shared/customers/device-section.ts';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { mergePages } from '../../../shared/api/paging.ts';
import { Skeleton, SKELETON_SMALL } from '../../../shared/ui/skeleton.tsx';
import { useGetSimChangesInfiniteQuery } from '../api/sim-changes-api.ts';
import { isAntiTheftProduct } from '@kisht/domain/device-actions';
import { PRODUCT_TYPE } from '@kisht/domain/constants';
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

/** The family-care section's slot: the same switches and enrolment the anti-theft section gets. */
type FamilyCareSlot = ComponentType<{ customerId: number; canEdit: boolean; enrolled: boolean }>;

export function CustomerDeviceSections({ FamilyCare, ...props }: CustomerDeviceSectionProps & { FamilyCare?: FamilyCareSlot }) {
  const switches: AccessSwitches = { userAccess: useAppSelector(selectUserAccessConfig), lockAccess: useAppSelector(selectAccessConfig) };
  // The device panel's own request (shared cache): ringing needs an enrolled phone, and family care says whether rules wait for one.
  const { data: panel } = useGetDevicePanelQuery(props.customerId);
  return (
    <>
      <DevicePanel {...props} />
      {isAntiTheftProduct(props.profile.product_type) ? (
        <AntitheftSection customerId={props.customerId} profile={props.profile} canEdit={isActionPermitted('antitheft_lost_mode', switches)} enrolled={!!panel?.device} />
      ) : null}
      {/* The profile's own id: moving between customers, the previous one's profile shows until the next arrives. */}
      {FamilyCare && props.profile.id === props.customerId && props.profile.product_type === PRODUCT_TYPE.FAMILYCARE ? (
        <FamilyCare customerId={props.customerId} canEdit={isActionPermitted('family_rules', switches)} enrolled={!!panel?.device} />
      ) : null}
      <CustomerSimChanges customerId={props.customerId} />
    </>
  );
}
