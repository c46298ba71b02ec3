import { describe, expect, it } from 'vitest';
import { familyCareListArg, isFamilyCareFilter, phoneBadge } from './familycare-list.ts';

const phone = { in_cover: true, enrolled: true, rules_set: true, rules_applied: true };

describe('family-care list', () => {
  it('sends the search only when it says something, and has no state chips', () => {
    expect(familyCareListArg('  ')).toEqual({});
    expect(familyCareListArg(' Asha   Devi ')).toEqual({ search: 'Asha Devi' });
    expect(isFamilyCareFilter('ended')).toBe(false);
  });

  it('badges an ended cover first, then a phone not enrolled, then where its rules are', () => {
    expect(phoneBadge({ ...phone, in_cover: false, enrolled: false })).toEqual({ key: 'familycare.list.badge.ended', tone: 'danger' });
    expect(phoneBadge({ ...phone, enrolled: false, rules_applied: false }).key).toBe('familycare.list.badge.notEnrolled');
    expect(phoneBadge({ ...phone, rules_set: false, rules_applied: false }).key).toBe('familycare.list.badge.noRules');
    expect(phoneBadge({ ...phone, rules_applied: false })).toEqual({ key: 'familycare.list.badge.waiting', tone: 'warning' });
    expect(phoneBadge(phone)).toEqual({ key: 'familycare.list.badge.inForce', tone: 'success' });
  });
});
