/**
 * Customers chosen by hand from a list page by page (multiple lock/unlock, an offer's picked customers): a
 * checkbox per row with the name, mobile, IMEI and lock state, "Select all shown", "Clear" and how many are
 * chosen. The screen owns the query (its filters, its loading and error states) and the selection.
 */
import { useTranslation } from 'react-i18next';
import type { CustomerListItem } from '@kisht/contract/customers';
import { LoadMore } from '../ui/load-more.tsx';
import { LockStatusBadge } from '../ui/status-badges.tsx';
import { ShortText } from '../ui/short-text.tsx';
import './customer-picker.css';

export type PickableCustomer = Pick<CustomerListItem, 'id' | 'first_name' | 'last_name' | 'mobile' | 'imei1' | 'lock_status'>;

export interface CustomerPickerProps {
  items: readonly PickableCustomer[];
  selected: ReadonlySet<number>;
  onChange: (next: ReadonlySet<number>) => void;
  /** How many the list holds, as it reads ("1000+" when the server stopped counting). */
  totalText: string;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
}

/** The selection with one customer added or taken out. */
export function toggled(selected: ReadonlySet<number>, id: number): ReadonlySet<number> {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

export function CustomerPicker({ items, selected, onChange, totalText, hasMore, loadingMore, onLoadMore }: CustomerPickerProps) {
  const { t } = useTranslation();
  return (
    <>
      <div className="button-row">
        <button type="button" className="button button--secondary button--small" onClick={() => onChange(new Set([...selected, ...items.map((c) => c.id)]))}>
          {t('customerPicker.selectShown')}
        </button>
        <button type="button" className="button button--secondary button--small" disabled={selected.size === 0} onClick={() => onChange(new Set())}>
          {t('customerPicker.clear')}
        </button>
      </div>
      <p className="list-total" aria-live="polite">
        {t('customerPicker.selectedCount', { count: selected.size, total: totalText })}
      </p>
      {items.length === 0 ? (
        <p className="card muted">{t('customerPicker.noMatch')}</p>
      ) : (
        <ul className="list pick-list">
          {items.map((customer) => (
            <li key={customer.id} className="card pick-row">
              <label className="pick-row__label">
                <input type="checkbox" checked={selected.has(customer.id)} onChange={() => onChange(toggled(selected, customer.id))} />
                <span className="pick-row__text">
                  <strong>
                    <ShortText text={`${customer.first_name} ${customer.last_name}`.trim()} />
                  </strong>
                  <span className="muted small">
                    {customer.mobile} · {customer.imei1}
                  </span>
                </span>
                <LockStatusBadge status={customer.lock_status} />
              </label>
            </li>
          ))}
        </ul>
      )}
      <LoadMore hasMore={hasMore} loading={loadingMore} onLoadMore={onLoadMore} />
    </>
  );
}
