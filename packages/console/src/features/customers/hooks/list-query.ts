/** The customer list's filters as the API's query (and so as the key of the cached pages). */
import type { CustomerListQuery } from '@kisht/contract/customers';
import type { CustomerListFilters } from '../../../shared/state/customer-list-slice.ts';

/** The list's query without the page: equal filters give equal keys, so loaded pages are found again. */
export type CustomerListArg = Pick<CustomerListQuery, 'status' | 'search' | 'lock_status'>;

/** The server accepts a search of up to 60 characters. */
export const SEARCH_MAX_LENGTH = 60;

export function customerListArg(filters: CustomerListFilters): CustomerListArg {
  const arg: CustomerListArg = { status: filters.status };
  const search = filters.search.trim().replace(/\s+/g, ' ').slice(0, SEARCH_MAX_LENGTH);
  if (search) arg.search = search;
  if (filters.lockStatus !== 'all') arg.lock_status = filters.lockStatus;
  return arg;
}
