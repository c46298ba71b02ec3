/** The extended warranties sold, as a list: its filters as the API's query, and how each cover state reads. */
import type { WarrantyListQuery, WarrantySale, WarrantyState } from '@kisht/contract/warranty';
import { isOneOf, salesListQuery, type SaleTone } from '../../../shared/list-search.ts';


/** The list's query without the page: equal filters give equal keys, so loaded pages are found again. */
export type SalesListArg = Pick<WarrantyListQuery, 'search' | 'state'>;

export type StateFilter = WarrantyState | 'all';
export const STATE_FILTERS: readonly StateFilter[] = ['all', 'in_cover', 'waiting', 'expired', 'revoked'];

/** The search (for warranties: name, mobile or its last digits, IMEI, certificate number) and the state chip. */
export const salesListArg = (search: string, state: StateFilter): SalesListArg => salesListQuery(search, state);

export const isStateFilter = isOneOf(STATE_FILTERS);

export const SALE_STATE_LABEL_KEYS: Record<WarrantyState, string> = {
  waiting: 'warranty.state.waiting',
  in_cover: 'warranty.state.in_cover',
  expired: 'warranty.state.expired',
  revoked: 'warranty.state.revoked',
};

export const SALE_STATE_TONE: Record<WarrantyState, SaleTone> = { waiting: 'info', in_cover: 'success', expired: 'warning', revoked: 'danger' };

/** A sale can be cancelled while its cover has not ended (waiting or in cover). */
export const canRevoke = (sale: Pick<WarrantySale, 'state'>) => sale.state === 'waiting' || sale.state === 'in_cover';

/** A claim can be raised while the plan covers the phone; the server checks the rest (IMEI, cause, claims left). */
export const canClaim = (sale: Pick<WarrantySale, 'state'>) => sale.state === 'in_cover';

/** The row's date line: when the cover starts, ends, ended or was cancelled, as a translation key and its date. */
export function saleDateLine(sale: Pick<WarrantySale, 'state' | 'cover_start' | 'cover_end' | 'revoked_at'>): { key: string; date: string } {
  switch (sale.state) {
    case 'revoked':
      return { key: 'warranty.list.cancelledOn', date: sale.revoked_at ?? sale.cover_end };
    case 'expired':
      return { key: 'warranty.list.expiredOn', date: sale.cover_end };
    case 'waiting':
      return { key: 'warranty.list.startsOn', date: sale.cover_start };
    default:
      return { key: 'warranty.list.coveredUntil', date: sale.cover_end };
  }
}
