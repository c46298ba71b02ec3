/**
 * The family-care screen: the phones sold with family care (a mini-retailer sees its own; the server filters), newest
 * first, with until when family care is in force, where the parent's rules are (none yet, waiting for the phone, in
 * force), today's screen time, and a link to customer details where the rules are set. "Enrol a phone" comes from the
 * app layer (features do not import each other). The search lives in the address; 20 a page; the usage, command and
 * customer events refresh it.
 */
import { useMemo, type ComponentType } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { FamilyCarePhone } from '@kisht/contract/familycare';
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
import { useGetFamilyCarePhonesInfiniteQuery } from '../api/familycare-api.ts';
import { familyCareListArg, isFamilyCareFilter, phoneBadge } from '../hooks/familycare-list.ts';
import { isOffline } from '../../../shared/api/api-failure.ts';
import { useDuration } from '../hooks/use-duration.ts';
import './familycare.css';

function PhoneRow({ phone }: { phone: FamilyCarePhone }) {
  const { t } = useTranslation();
  const duration = useDuration();
  const badge = phoneBadge(phone);
  const whoId = `familycare-phone-${phone.customer_id}-who`;
  return (
    <li className="card familycare-row">
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
        {phone.in_cover ? t('familycare.coveredUntil', { date: formatDate(phone.covered_until) }) : t('familycare.list.endedOn', { date: formatDate(phone.covered_until) })}
      </p>
      <p className="customer-row__line">
        {phone.enrolled ? t('familycare.list.today', { time: duration(phone.today_seconds) }) : t('familycare.list.notEnrolled')}
        {phone.last_check_in_at ? (
          <span className="muted">
            {' · '}
            {t('familycare.list.lastCheckIn', { time: formatDateTime(phone.last_check_in_at) })}
          </span>
        ) : null}
      </p>
      <div className="button-row">
        <Link className="button button--secondary button--small" to={customerPath('customer_details', phone.customer_id)} aria-describedby={whoId}>
          {t('familycare.list.details')}
        </Link>
      </div>
    </li>
  );
}

export function FamilyCareScreen({ EnrolLink }: { EnrolLink?: ComponentType }) {
  const { t } = useTranslation();
  const { search, typed, setTyped, filtered } = useListFilters(isFamilyCareFilter);

  // currentData: after a search the old rows must not show while the new ones load.
  const { currentData: data, isFetching, isError, error, isFetchingNextPage, hasNextPage, fetchNextPage, refetch } = useGetFamilyCarePhonesInfiniteQuery(familyCareListArg(search));
  const { items, total, totalText } = useMemo(() => mergePages(data?.pages, (phone) => phone.customer_id), [data]);

  return (
    <Page title={t('familycare.list.title')}>
      <p className="small">{t('familycare.list.intro')}</p>
      {EnrolLink ? <EnrolLink /> : null}
      <ListFilterBar typed={typed} onType={setTyped} placeholder={t('familycare.list.searchPlaceholder')} />
      {!data && isFetching ? (
        <SkeletonList rows={4} label={t('common.loading')} />
      ) : isError && !data ? (
        <LoadErrorCard message={isOffline(error) ? t('familycare.offline') : t('familycare.list.loadError')} onRetry={() => void refetch()} />
      ) : (
        <>
          <p className="list-total" aria-live="polite">
            {t('customers.total', { count: total, replace: { count: totalText } })}
          </p>
          {items.length === 0 ? (
            <div className="card empty-state">
              <p>{filtered ? t('familycare.list.noMatch') : t('familycare.list.empty')}</p>
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
