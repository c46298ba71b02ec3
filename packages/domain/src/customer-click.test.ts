import { describe, expect, it } from 'vitest';
import { INSTALL_STATUS } from './constants.ts';
import { customerClickAction } from './customer-click.ts';

describe('customerClickAction', () => {
  it('sends an inactive customer to customer navigate', () => {
    expect(customerClickAction(INSTALL_STATUS.inactive, 23)).toBe('navigate');
    expect(customerClickAction(INSTALL_STATUS.inactive, null)).toBe('navigate');
  });

  it('warns instead for organisations 35, 36 and 46', () => {
    for (const org of [35, 36, 46]) expect(customerClickAction(INSTALL_STATUS.inactive, org)).toBe('warnInactive');
  });

  it('opens the details for every other status, whatever the organisation', () => {
    for (const status of [1, 2, 3, 4, 5, 6]) {
      expect(customerClickAction(status, 23)).toBe('details');
      expect(customerClickAction(status, 46)).toBe('details');
    }
  });
});
