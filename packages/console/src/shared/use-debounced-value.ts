/** The value once it has stopped changing for `ms` milliseconds (search boxes ask the server less often). */
import { useEffect, useState } from 'react';

export const SEARCH_DEBOUNCE_MS = 400;

export function useDebouncedValue<T>(value: T, ms: number = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
