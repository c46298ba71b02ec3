/** A list's search box and its state chips (swipeable on a narrow phone). */
import { useTranslation } from 'react-i18next';
import { SEARCH_MAX_LENGTH } from '../list-search.ts';
import { TextField } from './text-field.tsx';

export interface ListFilterBarProps<F extends string> {
  typed: string;
  onType: (value: string) => void;
  placeholder: string;
  /** The chips' group name for screen readers. A list searched only (the family-care phones) has no chips. */
  groupLabel?: string;
  filters?: ReadonlyArray<{ value: F; label: string }>;
  state?: F;
  onChoose?: (filter: F) => void;
}

export function ListFilterBar<F extends string>({ typed, onType, placeholder, groupLabel, filters, state, onChoose }: ListFilterBarProps<F>) {
  const { t } = useTranslation();
  return (
    <div className="list-filters">
      <TextField
        label={t('customers.searchLabel')}
        type="search"
        inputMode="search"
        autoComplete="off"
        placeholder={placeholder}
        maxLength={SEARCH_MAX_LENGTH}
        value={typed}
        onChange={(event) => onType(event.target.value)}
      />
      {filters && filters.length > 0 ? (
        <div className="chips" role="group" aria-label={groupLabel}>
          {filters.map((filter) => (
            <button key={filter.value} type="button" className="chip" aria-pressed={state === filter.value} onClick={() => onChoose?.(filter.value)}>
              {filter.label}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
