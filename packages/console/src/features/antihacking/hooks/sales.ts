/** The anti-hacking sales list: its filters as the API's query, and how each code state reads. */
import { ANTIHACKING_STATES, type AntihackingListQuery, type AntihackingSale, type AntihackingState } from '@kisht/contract/plans';
import { isOneOf, salesListQuery, type SaleTone } from '../../../shared/list-search.ts';


/** The list's query without the page: equal filters give equal keys, so loaded pages are found again. */
export type SalesListArg = Pick<AntihackingListQuery, 'search' | 'state'>;

export type StateFilter = AntihackingState | 'all';
export const STATE_FILTERS: readonly StateFilter[] = ['all', ...ANTIHACKING_STATES];

/** The search (for anti-hacking plans: name, mobile or code) and the state chip. */
export const salesListArg = (search: string, state: StateFilter): SalesListArg => salesListQuery(search, state);

export const isStateFilter = isOneOf(STATE_FILTERS);

/** Translation keys of the code states (a revoked sale reads "Cancelled", as the retailer did it). */
export const SALE_STATE_LABEL_KEYS: Record<AntihackingState, string> = {
  issued: 'antihacking.state.issued',
  activated: 'antihacking.state.activated',
  expired: 'antihacking.state.expired',
  revoked: 'antihacking.state.revoked',
};

export const SALE_STATE_TONE: Record<AntihackingState, SaleTone> = { issued: 'info', activated: 'success', expired: 'warning', revoked: 'danger' };

/** A sale can still be cancelled while its code works (issued or activated). */
export const canRevoke = (sale: Pick<AntihackingSale, 'state'>) => sale.state === 'issued' || sale.state === 'activated';

/** The row's date line: when it ends, ended or was cancelled, as a translation key and its date. */
export function saleDateLine(sale: Pick<AntihackingSale, 'state' | 'expires_at' | 'revoked_at'>): { key: string; date: string } {
  if (sale.state === 'revoked') return { key: 'antihacking.list.cancelled', date: sale.revoked_at ?? sale.expires_at };
  if (sale.state === 'expired') return { key: 'antihacking.list.expired', date: sale.expires_at };
  return { key: 'antihacking.list.expires', date: sale.expires_at };
}
