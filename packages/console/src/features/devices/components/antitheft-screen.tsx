/**
 * The anti-theft screen: the phones sold with anti-theft (a mini-retailer sees its own; the server filters), newest
 * first, with whether each is lost (as the phone confirmed), until when anti-theft is in force, its last check-in and
 * SIM change, and its customer details (settings, ringing, the lost-phone steps). Search and the state chip live in
 * the address; 20 a page; customer, command and SIM change events refresh it.
 */
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AntitheftPhone } from '@kisht/contract/antitheft';
import { formatDate, formatDateTime } from '@kisht/domain/format';
import { Page } from '../../../shared/ui/page.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SkeletonList } from '../../../shared/ui/skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { ShortText } from '../../../shared/ui/short-text.tsx';
import { mergePages } from '../../../shared/api/paging.ts';
import { SEARCH_MAX_LENGTH } from '../../../shared/list-search.ts';
import { useDebouncedValue } from '../../../shared/use-debounced-value.ts';
import { customerPath } from '../../../shared/routes.ts';
import { useGetAntitheftPhonesInfiniteQuery } from '../api/antitheft-api.ts';
import { ANTITHEFT_FILTERS, antitheftListArg, isAntitheftFilter, phoneBadge, type AntitheftFilter } from '../hooks/antitheft-list.ts';
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
      <p className="customer-row__line">{phone.device}</p>
      <p className="customer-row__line muted">
        <span className="nowrap">{phone.mobile}</span> · <span className="nowrap">IMEI {phone.imei1}</span>
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

export function AntitheftScreen() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const requested = params.get('state');
  const state: AntitheftFilter = isAntitheftFilter(requested) ? requested : 'all';
  const [typed, setTyped] = useState(search);
  const settled = useDebouncedValue(typed);
  // The settled search goes into the address (replacing the entry), and from there into the query.
  useEffect(() => {
    if (settled === search) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (settled) next.set('search', settled);
        else next.delete('search');
        return next;
      },
      { replace: true },
    );
  }, [settled, search, setParams]);

  function choose(filter: AntitheftFilter) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (filter === 'all') next.delete('state');
        else next.set('state', filter);
        return next;
      },
      { replace: true },
    );
  }

  // currentData: after a filter change the old filter's rows must not show while the new ones load.
  const { currentData: data, isFetching, isError, isFetchingNextPage, hasNextPage, fetchNextPage, refetch } = useGetAntitheftPhonesInfiniteQuery(antitheftListArg(search, state));
  const { items, total, totalText } = useMemo(() => mergePages(data?.pages, (phone) => phone.customer_id), [data]);
  const filtered = state !== 'all' || search !== '';

  return (
    <Page title={t('antitheft.list.title')}>
      <p className="small">{t('antitheft.list.intro')}</p>
      <div className="list-filters">
        <TextField
          label={t('customers.searchLabel')}
          type="search"
          inputMode="search"
          autoComplete="off"
          placeholder={t('antitheft.list.searchPlaceholder')}
          maxLength={SEARCH_MAX_LENGTH}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
        <div className="chips" role="group" aria-label={t('antitheft.list.stateFilter')}>
          {ANTITHEFT_FILTERS.map((filter) => (
            <button key={filter} type="button" className="chip" aria-pressed={state === filter} onClick={() => choose(filter)}>
              {t(`antitheft.list.filter.${filter}`)}
            </button>
          ))}
        </div>
      </div>
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
