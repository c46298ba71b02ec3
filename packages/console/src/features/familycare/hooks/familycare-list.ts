/** The family-care screen's search, and how a phone's row reads. */
import type { FamilyCarePhone } from '@kisht/contract/familycare';
import { isOneOf, searchText, type SaleTone } from '../../../shared/list-search.ts';

/** No state chips: the server filters by search only. */
export const isFamilyCareFilter = isOneOf<never>([]);

/** The list's query without the page: the search, left out when empty. */
export function familyCareListArg(search: string): { search?: string } {
  const text = searchText(search);
  return text ? { search: text } : {};
}

/**
 * The phone's badge: an ended cover first (its rules still hold on the phone, but it is what the shop acts on), then
 * a phone not enrolled yet, then its rules: none set, sent and waiting for the phone, or in force.
 */
export function phoneBadge(phone: Pick<FamilyCarePhone, 'in_cover' | 'enrolled' | 'rules_set' | 'rules_applied'>): { key: string; tone: SaleTone | 'neutral' } {
  if (!phone.in_cover) return { key: 'familycare.list.badge.ended', tone: 'danger' };
  if (!phone.enrolled) return { key: 'familycare.list.badge.notEnrolled', tone: 'info' };
  if (!phone.rules_set) return { key: 'familycare.list.badge.noRules', tone: 'neutral' };
  if (!phone.rules_applied) return { key: 'familycare.list.badge.waiting', tone: 'warning' };
  return { key: 'familycare.list.badge.inForce', tone: 'success' };
}
