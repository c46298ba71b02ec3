import { describe, expect, it } from 'vitest';
import { PRODUCT_TYPE } from './constants.ts';
import { hasLoan, isPlanOnlyProduct } from './plans.ts';

describe('plans sold on their own', () => {
  it('are anti-theft and family care only', () => {
    expect(isPlanOnlyProduct(PRODUCT_TYPE.ANTI_THEFT)).toBe(true);
    expect(isPlanOnlyProduct(PRODUCT_TYPE.FAMILYCARE)).toBe(true);
    for (const type of [PRODUCT_TYPE.DPC, PRODUCT_TYPE.DPC_ANTITHEFT, PRODUCT_TYPE.EXTENDED_WARRANTY, PRODUCT_TYPE.ANTIHACKING]) expect(isPlanOnlyProduct(type)).toBe(false);
  });
  it('leave the customer without a loan', () => {
    expect(hasLoan({ price_paise: null })).toBe(false);
    expect(hasLoan({ price_paise: 1 })).toBe(true);
  });
});
