/**
 * A list screen's search box and state chip, kept in the address (?search=, ?state=) so Back comes back to the same
 * list: the search as typed, and as settled (debounced) into the address; the chip read from the address, or 'all'.
 */
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDebouncedValue } from './use-debounced-value.ts';

export function useListFilters<F extends string>(isFilter: (value: string | null) => value is F) {
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const requested = params.get('state');
  const state = (isFilter(requested) ? requested : 'all') as F | 'all';
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

  const choose = useCallback(
    (filter: F | 'all') =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (filter === 'all') next.delete('state');
          else next.set('state', filter);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  return { search, state, typed, setTyped, choose, filtered: state !== 'all' || search !== '' };
}
