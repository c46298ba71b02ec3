import { describe, expect, it } from 'vitest';
import type { KindPlan } from '@kisht/contract/plans';
import { emptySaleDraft, plansOffered, presetPlanId, readPlanQuery, saleBody, validateSale } from './sale-form.ts';

const plan = (id: number, appType: number, productId: number): KindPlan => ({
  id, name: `Plan ${id}`, app_type: appType, product_id: productId, product_type: appType, validity_days: 365, price_paise: 29900, terms: null,
});
const PLANS = [plan(1, 8, 10), plan(2, 12, 11), plan(3, 13, 12), plan(4, 8, 10)];

describe('the screen query', () => {
  it('reads app_type, plan_id and product_id, dropping what is malformed', () => {
    expect(readPlanQuery(new URLSearchParams('app_type=8&plan_id=4&product_id=10'))).toEqual({ appType: 8, planId: 4, productId: 10 });
    expect(readPlanQuery(new URLSearchParams('app_type=x&plan_id=0&product_id=-1'))).toEqual({ appType: null, planId: null, productId: null });
    expect(readPlanQuery(new URLSearchParams(''))).toEqual({ appType: null, planId: null, productId: null });
  });
});

describe('the plans offered', () => {
  it("narrows the dropdown to the app type's tier and the product", () => {
    expect(plansOffered(PLANS, { appType: 8, planId: null, productId: null }).map((p) => p.id)).toEqual([1, 4]);
    expect(plansOffered(PLANS, { appType: null, planId: null, productId: 11 }).map((p) => p.id)).toEqual([2]);
    expect(plansOffered(PLANS, { appType: null, planId: null, productId: null })).toHaveLength(4);
  });

  it('lists every plan when the query matches none (an old link) rather than none', () => {
    expect(plansOffered(PLANS, { appType: 5, planId: null, productId: null })).toHaveLength(4);
  });

  it("preselects the query's plan when offered, else the only plan offered, else none", () => {
    const tier8 = plansOffered(PLANS, { appType: 8, planId: 4, productId: null });
    expect(presetPlanId(tier8, { appType: 8, planId: 4, productId: null })).toBe('4');
    expect(presetPlanId(tier8, { appType: 8, planId: 2, productId: null })).toBe('');
    expect(presetPlanId([plan(2, 12, 11)], { appType: 12, planId: null, productId: 11 })).toBe('2');
  });
});

describe('the sale form', () => {
  it('asks for the names, the mobile and the plan; the email may stay empty', () => {
    expect(validateSale(emptySaleDraft(), PLANS)).toEqual({ firstName: 'common.required', lastName: 'common.required', mobile: 'common.required', planId: 'common.required' });
    expect(validateSale({ firstName: 'Asha', lastName: 'Rao', email: '', mobile: '9876501234', planId: '1' }, PLANS)).toEqual({});
  });

  it('checks the mobile, the email and that the plan is still offered', () => {
    expect(validateSale({ firstName: 'A', lastName: 'B', email: 'not-an-email', mobile: '12345', planId: '9' }, PLANS)).toEqual({
      email: 'addCustomer.errors.email',
      mobile: 'addCustomer.errors.mobile',
      planId: 'errors.PLAN_NOT_AVAILABLE',
    });
  });

  it("sends the mobile with +91 and the plan's own app type and name", () => {
    const draft = { firstName: ' Asha ', lastName: 'Rao ', email: '', mobile: '9876501234', planId: '2' };
    expect(saleBody(draft, plan(2, 12, 11))).toEqual({ firstName: 'Asha', lastName: 'Rao', mobile: '+919876501234', plan_id: 2, app_type: 12, plan_name: 'Plan 2' });
    expect(saleBody({ ...draft, email: ' asha@example.com ' }, plan(2, 12, 11)).email).toBe('asha@example.com');
  });
});
