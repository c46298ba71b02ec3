/** What every list screen does with its search box and state chips before they become the API's query. */

/** The server accepts a list search of up to 60 characters. */
export const SEARCH_MAX_LENGTH = 60;

/** The search as sent: trimmed, inner spaces collapsed, cut to what the server accepts ('' for none). */
export function searchText(input: string): string {
  return input.trim().replace(/\s+/g, ' ').slice(0, SEARCH_MAX_LENGTH);
}

/** A sales list's query without the page: the search and the state chip, each left out when empty or "all". */
export function salesListQuery<S extends string>(search: string, state: S | 'all'): { search?: string; state?: S } {
  const arg: { search?: string; state?: S } = {};
  const text = searchText(search);
  if (text) arg.search = text;
  if (state !== 'all') arg.state = state;
  return arg;
}

/** A guard for a state chip read from the address (?state=): one of the list's own filters, or not. */
export function isOneOf<F extends string>(filters: readonly F[]) {
  return (value: string | null): value is F => value !== null && (filters as readonly string[]).includes(value);
}

export type SaleTone = 'info' | 'success' | 'warning' | 'danger';
