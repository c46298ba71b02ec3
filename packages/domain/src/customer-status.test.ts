import { describe, expect, it } from 'vitest';
import { CUSTOMER_STATUS_FILTERS, installStatusOf, isActiveLoan, slugOfInstallStatus } from './customer-status.ts';

describe('customer status', () => {
  it('maps slugs and codes both ways for the seven statuses', () => {
    for (let code = 0; code <= 6; code++) expect(installStatusOf(slugOfInstallStatus(code)!)).toBe(code);
    expect(slugOfInstallStatus(7)).toBeNull();
    expect(installStatusOf('nonsense')).toBeNull();
  });
  it('offers "all" first in the filter', () => {
    expect(CUSTOMER_STATUS_FILTERS[0]).toBe('all');
    expect(CUSTOMER_STATUS_FILTERS).toHaveLength(8);
  });
  it('treats completed and uninstalled loans as no longer active', () => {
    expect([0, 1, 2, 3, 4, 5, 6].filter(isActiveLoan)).toEqual([0, 1, 2, 4, 6]);
  });
});
