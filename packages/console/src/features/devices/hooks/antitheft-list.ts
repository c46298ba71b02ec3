/** The anti-theft screen's filters, and how a phone's line reads. */
import type { AntitheftPhone } from '@kisht/contract/antitheft';
import { isOneOf, salesListQuery, type SaleTone } from '../../../shared/list-search.ts';

export const ANTITHEFT_FILTERS = ['all', 'lost', 'ended'] as const;
export type AntitheftFilter = (typeof ANTITHEFT_FILTERS)[number];
export const isAntitheftFilter = isOneOf(ANTITHEFT_FILTERS);

export const antitheftListArg = (search: string, state: AntitheftFilter) => salesListQuery<'lost' | 'ended'>(search, state);

/** The phone's badge: lost before ended (a lost phone matters most), then in force; a phone not enrolled yet says so. */
export function phoneBadge(phone: Pick<AntitheftPhone, 'lost_mode' | 'in_cover' | 'enrolled'>): { key: string; tone: SaleTone } {
  if (phone.lost_mode) return { key: 'antitheft.list.badge.lost', tone: 'danger' };
  if (!phone.in_cover) return { key: 'antitheft.list.badge.ended', tone: 'warning' };
  if (!phone.enrolled) return { key: 'antitheft.list.badge.notEnrolled', tone: 'info' };
  return { key: 'antitheft.list.badge.inForce', tone: 'success' };
}
