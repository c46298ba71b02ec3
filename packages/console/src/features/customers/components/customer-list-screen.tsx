/**
 * The customer list: status and lock filters, a debounced search (name, mobile or IMEI), infinite
 * scroll 20 at a time, skeletons while loading, and the scroll position kept for coming back. A switch
 * at the top (kept in the address's `tab`) shows the anti-hacking plans or the extended warranties sold
 * instead, lists the route gives (app/customer-list-route.tsx: features do not import each other).
 */
import { useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CustomerListItem } from '@kisht/contract/customers';
import { CUSTOMER_STATUS_FILTERS, INSTALL_STATUS_LABEL_KEYS, installStatusOf, type CustomerStatusFilter } from '@kisht/domain/customer-status';
import { formatDate } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { Page } from '../../../shared/ui/page.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { SkeletonList } from '../../../shared/ui/skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { InstallStatusBadge, LockStatusBadge } from '../../../shared/ui/status-badges.tsx';
import { toastKey } from '../../../shared/ui/toast-store.ts';
import { mergePages } from '../../../shared/api/paging.ts';
import { useDebouncedValue } from '../../../shared/use-debounced-value.ts';
import { useOrgId } from '../../../shared/config/use-org-id.ts';
import { customerClickAction } from '@kisht/domain/customer-click';
import { useAppDispatch, useAppSelector } from '../../../shared/state/hooks.ts';
import {
  saveCustomerListScroll,
  setCustomerLockFilter,
  setCustomerSearch,
  setCustomerStatusFilter,
  type LockFilter,
} from '../../../shared/state/customer-list-slice.ts';
import { CUSTOMER_LIST_TABS, customerNavigatePath, customerPath, ROUTES, type CustomerListTab } from '../../../shared/routes.ts';
import { useGetCustomersInfiniteQuery } from '../api/customer-list-api.ts';
import { customerListArg, SEARCH_MAX_LENGTH } from '../hooks/list-query.ts';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { ShortText } from '../../../shared/ui/short-text.tsx';
import './customers.css';

function statusFilterLabelKey(filter: CustomerStatusFilter): string {
  if (filter === 'all') return 'customerStatus.all';
  const code = installStatusOf(filter);
  return code === null ? 'customerStatus.all' : INSTALL_STATUS_LABEL_KEYS[code];
}

/** Remembers where the list was scrolled to, and scrolls back there once its pages are on screen. */
function useKeptScroll(ready: boolean) {
  const dispatch = useAppDispatch();
  const saved = useAppSelector((state) => state.customerList.scrollPosition);
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current || !ready) return;
    restored.current = true;
    // After the router's own scroll handling for this navigation.
    if (saved > 0) requestAnimationFrame(() => window.scrollTo(0, saved));
  }, [ready, saved]);
  useEffect(() => {
    let y = window.scrollY;
    const onScroll = () => {
      y = window.scrollY;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      dispatch(saveCustomerListScroll(y));
    };
  }, [dispatch]);
}

function CustomerRow({ customer, onOpen }: { customer: CustomerListItem; onOpen: () => void }) {
  const { t } = useTranslation();
  const name = `${customer.first_name} ${customer.last_name}`.trim();
  const device = [customer.device_brand, customer.device_model].filter(Boolean).join(' ');
  return (
    <li>
      <button type="button" className="card customer-row" onClick={onOpen}>
        <span className="customer-row__top">
          <ShortText className="customer-row__name" text={name} />
          <InstallStatusBadge status={customer.install_status} />
        </span>
        <span className="customer-row__line muted">
          {customer.mobile}
          {device ? ` · ${device}` : ''}
        </span>
        <span className="customer-row__line muted">
          {t('customers.imei')} {customer.imei1}
        </span>
        <span className="customer-row__bottom">
          <span>
            {customer.emi_paise === null ? t('customers.planOnly') : (
              <>
                {t('customers.emi')} <strong>{formatRupees(customer.emi_paise)}</strong>
              </>
            )}
            {customer.next_due_date ? (
              <span className="muted">
                {' · '}
                <span className="nowrap">{t('customers.nextDue', { date: formatDate(customer.next_due_date) })}</span>
              </span>
            ) : null}
          </span>
          <LockStatusBadge status={customer.lock_status} />
        </span>
        {customer.overdue_paise > 0 ? (
          <span className="customer-row__overdue">{t('customers.overdue', { amount: formatRupees(customer.overdue_paise) })}</span>
        ) : null}
      </button>
    </li>
  );
}

const TAB_LABEL_KEYS: Record<CustomerListTab, string> = { loans: 'antihacking.list.loans', antihacking: 'antihacking.list.sales', warranty: 'warranty.list.tab' };

/**
 * AntihackingList, WarrantyList: the anti-hacking plans and the extended warranties sold, given by the route; without
 * them the screen is the loans list alone.
 */
export function CustomerListScreen({ AntihackingList, WarrantyList }: { AntihackingList?: ComponentType; WarrantyList?: ComponentType }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const lists: Partial<Record<CustomerListTab, ComponentType>> = { antihacking: AntihackingList, warranty: WarrantyList };
  const tabs = CUSTOMER_LIST_TABS.filter((each) => each === 'loans' || lists[each]);
  const requested = params.get('tab');
  const tab: CustomerListTab = tabs.find((each) => each !== 'loans' && each === requested) ?? 'loans';
  const Other = tab === 'loans' ? undefined : lists[tab];
  const switchable = tabs.length > 1;
  return (
    <Page
      title={t('customers.title')}
      actions={
        tab === 'loans' ? (
          <Link className="button button--primary button--small" to={ROUTES.add_customer}>
            {t('customers.add')}
          </Link>
        ) : undefined
      }
    >
      {switchable ? (
        <div className="tabs list-switch" role="tablist" aria-label={t('antihacking.list.tabs')}>
          {tabs.map((each) => (
            <button
              key={each}
              type="button"
              role="tab"
              id={`customer-list-tab-${each}`}
              aria-selected={tab === each}
              aria-controls="customer-list-panel"
              className="tabs__tab"
              // Replacing the entry: Back leaves the list, and comes back to the list last shown.
              onClick={() => setParams(each === 'loans' ? {} : { tab: each }, { replace: true })}
            >
              {t(TAB_LABEL_KEYS[each])}
            </button>
          ))}
        </div>
      ) : null}
      <div id="customer-list-panel" role={switchable ? 'tabpanel' : undefined} aria-labelledby={switchable ? `customer-list-tab-${tab}` : undefined}>
        {Other ? <Other /> : <LoanCustomerList />}
      </div>
    </Page>
  );
}

function LoanCustomerList() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const orgId = useOrgId();
  const filters = useAppSelector((state) => state.customerList.filters);
  const [searchText, setSearchText] = useState(filters.search);
  const settledSearch = useDebouncedValue(searchText);
  useEffect(() => {
    dispatch(setCustomerSearch(settledSearch));
  }, [dispatch, settledSearch]);

  // currentData: after a filter change the old filter's rows must not show while the new ones load.
  const { currentData: data, isFetching, isError, isFetchingNextPage, hasNextPage, fetchNextPage, refetch } =
    useGetCustomersInfiniteQuery(customerListArg(filters));
  const { items, total, totalText } = useMemo(() => mergePages(data?.pages, (customer) => customer.id), [data]);
  useKeptScroll(Boolean(data));

  function open(customer: CustomerListItem) {
    const action = customerClickAction(customer.install_status, orgId);
    if (action === 'warnInactive') toastKey('warning', 'customers.inactiveWarning');
    else if (action === 'navigate') void navigate(customerNavigatePath(customer.id));
    else void navigate(customerPath('customer_details', customer.id));
  }

  const filtered = filters.status !== 'all' || filters.lockStatus !== 'all' || filters.search !== '';
  return (
    <>
      <div className="list-filters">
        <TextField
          label={t('customers.searchLabel')}
          type="search"
          inputMode="search"
          autoComplete="off"
          placeholder={t('customers.searchPlaceholder')}
          maxLength={SEARCH_MAX_LENGTH}
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
        />
        <div className="chips" role="group" aria-label={t('customers.statusFilter')}>
          {CUSTOMER_STATUS_FILTERS.map((filter) => (
            <button
              key={filter}
              type="button"
              className="chip"
              aria-pressed={filters.status === filter}
              onClick={() => dispatch(setCustomerStatusFilter(filter))}
            >
              {t(statusFilterLabelKey(filter))}
            </button>
          ))}
        </div>
        <SelectField
          label={t('customers.lockFilter')}
          value={String(filters.lockStatus)}
          onChange={(event) => {
            const value = event.target.value;
            dispatch(setCustomerLockFilter((value === 'all' ? 'all' : Number(value)) as LockFilter));
          }}
        >
          <option value="all">{t('customerStatus.all')}</option>
          <option value="1">{t('lockStatus.locked')}</option>
          <option value="0">{t('lockStatus.unlocked')}</option>
        </SelectField>
      </div>

      {!data && isFetching ? (
        <SkeletonList rows={6} label={t('common.loading')} />
      ) : isError && !data ? (
        <LoadErrorCard message={t('customers.loadError')} onRetry={() => void refetch()} />
      ) : (
        <>
          <p className="list-total" aria-live="polite">
            {t('customers.total', { count: total, replace: { count: totalText } })}
          </p>
          {items.length === 0 ? (
            <div className="card empty-state">
              <p>{filtered ? t('customers.noMatch') : t('customers.empty')}</p>
              {!filtered ? (
                <Link className="button button--primary" to={ROUTES.add_customer}>
                  {t('customers.add')}
                </Link>
              ) : null}
            </div>
          ) : (
            <ul className="list customer-list">
              {items.map((customer) => (
                <CustomerRow key={customer.id} customer={customer} onOpen={() => open(customer)} />
              ))}
            </ul>
          )}
          <LoadMore hasMore={hasNextPage} loading={isFetchingNextPage} onLoadMore={() => void fetchNextPage()} />
        </>
      )}
    </>
  );
}
