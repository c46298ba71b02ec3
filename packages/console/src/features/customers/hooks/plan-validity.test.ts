import { describe, expect, it } from 'vitest';
import type { Plan } from '@kisht/contract/catalogue';
import { customerPlan, planDaysLeft, planYearsLeft } from './plan-validity.ts';

const plan = (id: number, validity_days: number | null): Plan => ({ id, product_id: 1, name: `Plan ${id}`, plan_type: 0, app_type: 0, validity_days, price_paise: null, terms: null });
const now = new Date('2026-11-24T10:00:00Z');

describe('customerPlan', () => {
  it("is the chosen plan, else the product's only plan", () => {
    expect(customerPlan([plan(1, 365), plan(2, 730)], 2)?.id).toBe(2);
    expect(customerPlan([plan(1, 365), plan(2, 730)], 9)).toBeNull();
    expect(customerPlan([plan(1, 365)], null)?.id).toBe(1);
    expect(customerPlan([plan(1, 365), plan(2, 730)], null)).toBeNull();
    expect(customerPlan(undefined, 1)).toBeNull();
  });
});

describe('planDaysLeft and planYearsLeft', () => {
  it('count the validity from enrolment', () => {
    expect(planDaysLeft(365, '2026-11-24T08:00:00Z', now)).toBe(365);
    expect(planDaysLeft(365, '2026-11-14T10:00:00Z', now)).toBe(355);
    expect(planDaysLeft(365, '2024-01-01T00:00:00Z', now)).toBe(0);
    expect(planDaysLeft(null, '2026-11-24T08:00:00Z', now)).toBeNull();
    expect(planDaysLeft(365, 'not a date', now)).toBeNull();
  });

  it('give whole years left, floored', () => {
    expect(planYearsLeft(365, '2026-11-24T08:00:00Z', now)).toBe(1);
    expect(planYearsLeft(365 * 3 + 1, '2026-11-24T08:00:00Z', now)).toBe(3);
    expect(planYearsLeft(365, '2026-11-14T10:00:00Z', now)).toBe(0);
    expect(planYearsLeft(730, '2025-11-24T10:00:00Z', now)).toBe(1);
    expect(planYearsLeft(null, '2026-11-24T08:00:00Z', now)).toBeNull();
  });
});
