/** How long a customer's plan still runs, for customer details (spec section 9: years left). */
import type { Plan } from '@kisht/contract/catalogue';
import { yearsLeft } from '@kisht/domain/format';

const DAY_MS = 86_400_000;

/** The customer's plan: the one chosen at enrolment, else the product's only plan (most products have one). */
export function customerPlan(plans: readonly Plan[] | undefined, planId: number | null): Plan | null {
  if (!plans) return null;
  if (planId !== null) return plans.find((plan) => plan.id === planId) ?? null;
  return plans.length === 1 ? plans[0]! : null;
}

/** Days of the plan still to run: its validity counted from enrolment, never below 0; null without a validity. */
export function planDaysLeft(validityDays: number | null, enrolledAt: string, now: Date = new Date()): number | null {
  const start = Date.parse(enrolledAt);
  if (validityDays === null || !Number.isFinite(start)) return null;
  const used = Math.max(0, Math.floor((now.getTime() - start) / DAY_MS));
  return Math.max(0, validityDays - used);
}

/** Years left: the floor of the years between now and now plus the days left. */
export function planYearsLeft(validityDays: number | null, enrolledAt: string, now: Date = new Date()): number | null {
  const days = planDaysLeft(validityDays, enrolledAt, now);
  return days === null ? null : yearsLeft(days, now);
}
