import { describe, expect, it } from 'vitest';
import { brandingFor } from './white-label.ts';

describe('brandingFor', () => {
  it('chooses layout and theme by organisation name, ignoring case and punctuation', () => {
    expect(brandingFor('One-Touch').mainLayout).toBe('tabs');
    expect(brandingFor('ZEN LOCK').mainLayout).toBe('drawer');
    expect(brandingFor('zen lock').antihackingLayout).toBe('compact');
    expect(brandingFor('zen lock').theme.primary).not.toBe(brandingFor('one touch').theme.primary);
  });
  it('falls back to the default look for unknown names', () => {
    expect(brandingFor('Unknown Traders')).toEqual(brandingFor(null));
  });
});
