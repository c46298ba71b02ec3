import { describe, expect, it } from 'vitest';
import { antitheftListArg, isAntitheftFilter, phoneBadge } from './antitheft-list.ts';

describe('anti-theft list', () => {
  it('sends the search and the chip only when they say something', () => {
    expect(antitheftListArg('  ', 'all')).toEqual({});
    expect(antitheftListArg(' Asha   Devi ', 'lost')).toEqual({ search: 'Asha Devi', state: 'lost' });
    expect(isAntitheftFilter('ended')).toBe(true);
    expect(isAntitheftFilter('stolen')).toBe(false);
    expect(isAntitheftFilter(null)).toBe(false);
  });

  it('badges a lost phone first, then an ended cover, then one not enrolled', () => {
    expect(phoneBadge({ lost_mode: true, in_cover: false, enrolled: true })).toEqual({ key: 'antitheft.list.badge.lost', tone: 'danger' });
    expect(phoneBadge({ lost_mode: false, in_cover: false, enrolled: true }).key).toBe('antitheft.list.badge.ended');
    expect(phoneBadge({ lost_mode: false, in_cover: true, enrolled: false }).key).toBe('antitheft.list.badge.notEnrolled');
    expect(phoneBadge({ lost_mode: false, in_cover: true, enrolled: true }).key).toBe('antitheft.list.badge.inForce');
  });
});
