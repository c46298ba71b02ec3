/**
 * Who gets the offer: every customer, those matching the customer list's filters (search, status, locked), or
 * customers picked by hand from that list (the picker multiple lock/unlock uses). The form owns the list's query,
 * so the number shown here is the one the confirmation repeats.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CUSTOMER_STATUS_FILTERS, INSTALL_STATUS_LABEL_KEYS, installStatusOf, type CustomerStatusFilter } from '@kisht/domain/customer-status';
import { ListFilterBar } from '../../../shared/ui/list-filter-bar.tsx';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { SkeletonList } from '../../../shared/ui/skeleton.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { CustomerPicker, type PickableCustomer } from '../../../shared/customers/customer-picker.tsx';
import { AUDIENCE_KINDS, type AudienceKind, type CampaignDraft, type LockChoice } from '../hooks/campaign-form.ts';

const KIND_LABEL_KEYS: Record<AudienceKind, string> = { all: 'ads.audience.all', filter: 'ads.audience.filter', picked: 'ads.audience.picked' };

function statusLabelKey(filter: CustomerStatusFilter): string {
  if (filter === 'all') return 'customerStatus.all';
  const code = installStatusOf(filter);
  return code === null ? 'customerStatus.all' : INSTALL_STATUS_LABEL_KEYS[code];
}

/** The customer list under the audience's filters, as the form reads it. */
export interface AudienceList {
  items: readonly PickableCustomer[];
  total: number;
  totalText: string;
  loading: boolean;
  failed: string | null;
  retry: () => void;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}

export interface AudienceFieldsProps {
  draft: Pick<CampaignDraft, 'audience' | 'search' | 'status' | 'lock' | 'picked'>;
  onChange: (patch: Partial<CampaignDraft>) => void;
  list: AudienceList;
  error: string | null;
}

export function AudienceFields({ draft, onChange, list, error }: AudienceFieldsProps) {
  const { t } = useTranslation();
  const errorId = useId();
  const name = useId();
  const selected = new Set(draft.picked);
  return (
    <section className="card" aria-labelledby="ads-audience-title">
      <h2 id="ads-audience-title">{t('ads.audience.title')}</h2>
      <fieldset className="ads-choices" aria-describedby={error ? errorId : undefined}>
        <legend className="visually-hidden">{t('ads.audience.title')}</legend>
        {AUDIENCE_KINDS.map((kind) => (
          <label key={kind} className="ads-choice">
            <input type="radio" name={name} checked={draft.audience === kind} onChange={() => onChange({ audience: kind })} /> {t(KIND_LABEL_KEYS[kind])}
          </label>
        ))}
      </fieldset>

      {draft.audience !== 'all' ? (
        <div className="ads-audience-filters">
          <ListFilterBar
            typed={draft.search}
            onType={(search) => onChange({ search })}
            placeholder={t('customers.searchPlaceholder')}
            groupLabel={t('customers.statusFilter')}
            filters={CUSTOMER_STATUS_FILTERS.map((filter) => ({ value: filter, label: t(statusLabelKey(filter)) }))}
            state={draft.status}
            onChoose={(status) => onChange({ status })}
          />
          <SelectField label={t('customers.lockFilter')} value={draft.lock} onChange={(event) => onChange({ lock: event.target.value as LockChoice })}>
            <option value="all">{t('customerStatus.all')}</option>
            <option value="1">{t('lockStatus.locked')}</option>
            <option value="0">{t('lockStatus.unlocked')}</option>
          </SelectField>
        </div>
      ) : null}

      {list.loading ? (
        <SkeletonList rows={draft.audience === 'picked' ? 3 : 1} label={t('common.loading')} />
      ) : list.failed ? (
        <LoadErrorCard message={list.failed} onRetry={list.retry} />
      ) : draft.audience === 'picked' ? (
        <CustomerPicker
          items={list.items}
          selected={selected}
          onChange={(next) => onChange({ picked: [...next] })}
          totalText={list.totalText}
          hasMore={list.hasMore}
          loadingMore={list.loadingMore}
          onLoadMore={list.loadMore}
        />
      ) : (
        <p className="ads-count" aria-live="polite">
          {t('ads.audience.count', { count: list.total, replace: { count: list.totalText } })}
        </p>
      )}
      <p className="muted small">{t('ads.audience.skippedNote')}</p>
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
