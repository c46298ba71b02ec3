/** The customer list's filters as the API's query (and so as the key of the cached pages). */
import type { CustomerListQuery } from '@kisht/contract/customers';
import type { CustomerListFilters } from '../../../shared/state/customer-list-slice.ts';
import { searchText } from '../../../shared/list-search.ts';

/** The list's query without the page: equal filters give equal keys, so loaded pages are found again. */
export type CustomerListArg = Pick<CustomerListQuery, 'status' | 'search' | 'lock_status'>;

export { SEARCH_MAX_LENGTH } from '../../../shared/list-search.ts';

export function customerListArg(filters: CustomerListFilters): CustomerListArg {
  const arg: CustomerListArg = { status: filters.status };
  const search = searchText(filters.search);
  if (search) arg.search = search;
  if (filters.lockStatus !== 'all') arg.lock_status = filters.lockStatus;
  return arg;
}
