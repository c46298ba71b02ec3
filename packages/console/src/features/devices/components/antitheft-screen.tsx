/**
 * The anti-theft screen: the phones sold with anti-theft (a mini-retailer sees its own; the server filters), newest
 * first, with whether each is lost (as the phone confirmed), until when anti-theft is in force, its last check-in and
 * SIM change, and its customer details (settings, ringing, the lost-phone steps). Search and the state chip live in
 * the address; 20 a page; customer, command and SIM change events refresh it.
 */
import { useMemo, type ComponentType } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AntitheftPhone } from '@kisht/contract/antitheft';
import { formatDate, formatDateTime } from '@kisht/domain/format';
import { Page } from '../../../shared/ui/page.tsx';
import { ListFilterBar } from '../../../shared/ui/list-filter-bar.tsx';
import { SkeletonList } from '../../../shared/ui/skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { ShortText } from '../../../shared/ui/short-text.tsx';
import { mergePages } from '../../../shared/api/paging.ts';
import { useListFilters } from '../../../shared/use-list-filters.ts';
import { customerPath } from '../../../shared/routes.ts';
import { useGetAntitheftPhonesInfiniteQuery } from '../api/antitheft-api.ts';
import { ANTITHEFT_FILTERS, antitheftListArg, isAntitheftFilter, phoneBadge } from '../hooks/antitheft-list.ts';
import './devices.css';

function PhoneRow({ phone }: { phone: AntitheftPhone }) {
  const { t } = useTranslation();
  const badge = phoneBadge(phone);
  const whoId = `antitheft-phone-${phone.customer_id}-who`;
  return (
    <li className="card antitheft-row">
      <div className="customer-row__top" id={whoId}>
        <ShortText className="customer-row__name" text={phone.customer_name} />
        <span className={`badge badge--${badge.tone}`}>{t(badge.key)}</span>
      </div>
      {phone.device ? <p className="customer-row__line">{phone.device}</p> : null}
      <p className="customer-row__line muted">
        <span className="nowrap">{phone.mobile}</span> ·{' '}
        <span className="nowrap">
          {t('simChanges.imei')} {phone.imei1}
        </span>
      </p>
      <p className="customer-row__line muted">
        {phone.in_cover ? t('antitheft.coveredUntil', { date: formatDate(phone.covered_until) }) : t('antitheft.list.endedOn', { date: formatDate(phone.covered_until) })}
      </p>
      <p className="customer-row__line muted">
        {phone.last_check_in_at ? t('antitheft.list.lastCheckIn', { time: formatDateTime(phone.last_check_in_at) }) : t('antitheft.list.neverCheckedIn')}
        {phone.last_sim_change_at ? (
          <>
            {' · '}
            {t('antitheft.list.lastSimChange', { time: formatDateTime(phone.last_sim_change_at) })}
          </>
        ) : null}
      </p>
      <div className="button-row">
        <Link className="button button--secondary button--small" to={customerPath('customer_details', phone.customer_id)} aria-describedby={whoId}>
          {t('antitheft.list.details')}
        </Link>
      </div>
    </li>
  );
}

/** `EnrolLink`: "Enrol a phone", the plan sold on its own (composed in by app/antitheft-route.tsx). */
export function AntitheftScreen({ EnrolLink }: { EnrolLink?: ComponentType }) {
  const { t } = useTranslation();
  const { search, state, typed, setTyped, choose, filtered } = useListFilters(isAntitheftFilter);

  // currentData: after a filter change the old filter's rows must not show while the new ones load.
  const { currentData: data, isFetching, isError, isFetchingNextPage, hasNextPage, fetchNextPage, refetch } = useGetAntitheftPhonesInfiniteQuery(antitheftListArg(search, state));
  const { items, total, totalText } = useMemo(() => mergePages(data?.pages, (phone) => phone.customer_id), [data]);

  return (
    <Page title={t('antitheft.list.title')}>
      <p className="small">{t('antitheft.list.intro')}</p>
      {EnrolLink ? <EnrolLink /> : null}
      <ListFilterBar
        typed={typed}
        onType={setTyped}
        placeholder={t('antitheft.list.searchPlaceholder')}
        groupLabel={t('antitheft.list.stateFilter')}
        filters={ANTITHEFT_FILTERS.map((value) => ({ value, label: t(`antitheft.list.filter.${value}`) }))}
        state={state}
        onChoose={choose}
      />
      {!data && isFetching ? (
        <SkeletonList rows={4} label={t('common.loading')} />
      ) : isError && !data ? (
        <LoadErrorCard message={t('antitheft.list.loadError')} onRetry={() => void refetch()} />
      ) : (
        <>
          <p className="list-total" aria-live="polite">
            {t('customers.total', { count: total, replace: { count: totalText } })}
          </p>
          {items.length === 0 ? (
            <div className="card empty-state">
              <p>{filtered ? t('antitheft.list.noMatch') : t('antitheft.list.empty')}</p>
            </div>
          ) : (
            <ul className="list customer-list">
              {items.map((phone) => (
                <PhoneRow key={phone.customer_id} phone={phone} />
              ))}
            </ul>
          )}
          <LoadMore hasMore={hasNextPage} loading={isFetchingNextPage} onLoadMore={() => void fetchNextPage()} />
        </>
      )}
    </Page>
  );
}
