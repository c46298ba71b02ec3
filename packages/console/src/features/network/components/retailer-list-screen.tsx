/**
 * retailer_list: the retailers and mini-retailers below the caller at any depth, paged on the server, searched
 * by name, shop or mobile and filtered by type and status; each row with its keys and customer count. The
 * global spinner shows while it loads (the spec gives this screen no skeleton).
 */
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { NetworkMember } from '@kisht/contract/network';
import { Page } from '../../../shared/ui/page.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { ShortText } from '../../../shared/ui/short-text.tsx';
import { mergePages } from '../../../shared/api/paging.ts';
import { useDebouncedValue } from '../../../shared/use-debounced-value.ts';
import { useGetDetailsQuery } from '../../../shared/auth/session-api.ts';
import { ROUTES } from '../../../shared/routes.ts';
import { useGetMembersInfiniteQuery, type NetworkFilter } from '../api/network-api.ts';
import { memberPath, memberName } from '../hooks/member.ts';
import { MemberBalances } from './member-balances.tsx';
import './network.css';

function MemberRow({ member }: { member: NetworkMember }) {
  const { t } = useTranslation();
  return (
    <li>
      <Link className="card customer-row" to={memberPath(member.id)}>
        <span className="customer-row__top">
          <ShortText className="customer-row__name" text={memberName(member)} />
          <span className={`badge ${member.active ? 'badge--info' : 'badge--danger'}`}>{t(member.active ? `network.type.${member.user_type}` : 'network.blocked')}</span>
        </span>
        {member.shop_name ? <span className="customer-row__line">{member.shop_name}</span> : null}
        <span className="customer-row__line muted">
          {member.mobile}
          {member.city ? ` · ${member.city}` : ''}
          {member.depth > 1 ? ` · ${t('network.level', { depth: member.depth })}` : ''}
        </span>
        <span className="customer-row__bottom">
          <MemberBalances balances={member.balances} />
          <span className="nowrap">{t('network.customers', { count: member.customers })}</span>
        </span>
      </Link>
    </li>
  );
}

export function RetailerListScreen() {
  const { t } = useTranslation();
  const { data: me } = useGetDetailsQuery();
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim());
  const [userType, setUserType] = useState<NetworkFilter['user_type']>();
  const [status, setStatus] = useState<NetworkFilter['status']>();
  const filter: NetworkFilter = { search: search || undefined, user_type: userType, status };
  const { currentData: data, isError, isFetchingNextPage, hasNextPage, fetchNextPage, refetch } = useGetMembersInfiniteQuery(filter);
  const { items, total } = useMemo(() => mergePages(data?.pages, (m) => m.id), [data]);
  const filtered = Boolean(search || userType || status);
  const canAdd = me?.user_type === 'retailer';

  return (
    <Page
      title={t('network.listTitle')}
      actions={
        canAdd ? (
          <Link className="button button--primary button--small" to={ROUTES.add_retailer}>
            {t('network.add')}
          </Link>
        ) : undefined
      }
    >
      <div className="list-filters">
        <TextField
          label={t('network.searchLabel')}
          type="search"
          inputMode="search"
          autoComplete="off"
          maxLength={60}
          placeholder={t('network.searchPlaceholder')}
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
        />
        <div className="filter-pair">
          <SelectField label={t('network.typeFilter')} value={userType ?? ''} onChange={(e) => setUserType((e.target.value || undefined) as NetworkFilter['user_type'])}>
            <option value="">{t('customerStatus.all')}</option>
            <option value="retailer">{t('network.type.retailer')}</option>
            <option value="miniretailer">{t('network.type.miniretailer')}</option>
          </SelectField>
          <SelectField label={t('network.statusFilter')} value={status ?? ''} onChange={(e) => setStatus((e.target.value || undefined) as NetworkFilter['status'])}>
            <option value="">{t('customerStatus.all')}</option>
            <option value="active">{t('network.active')}</option>
            <option value="blocked">{t('network.blocked')}</option>
          </SelectField>
        </div>
      </div>
      {isError && !data ? (
        <LoadErrorCard message={t('network.loadError')} onRetry={() => void refetch()} />
      ) : data ? (
        <>
          <p className="list-total" aria-live="polite">
            {t('network.total', { count: total })}
          </p>
          {items.length === 0 ? (
            <div className="card empty-state">
              <p>{filtered ? t('network.noMatch') : t('network.empty')}</p>
              {!filtered && canAdd ? (
                <Link className="button button--primary" to={ROUTES.add_retailer}>
                  {t('network.add')}
                </Link>
              ) : null}
            </div>
          ) : (
            <ul className="list">
              {items.map((member) => (
                <MemberRow key={member.id} member={member} />
              ))}
            </ul>
          )}
          <LoadMore hasMore={hasNextPage} loading={isFetchingNextPage} onLoadMore={() => void fetchNextPage()} />
        </>
      ) : (
        <p className="visually-hidden" aria-busy="true">
          {t('common.loading')}
        </p>
      )}
    </Page>
  );
}
