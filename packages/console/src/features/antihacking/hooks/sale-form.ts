/**
 * The anti-hacking form's rules: which plans the dropdown offers for the screen's query (app_type, plan_id,
 * product_id), what is required, and the add-customer body (spec: mobile with +91, plan_id, app_type, plan_name).
 */
import type { AddAntihackingBody, KindPlan } from '@kisht/contract/plans';
import { isValidEmail } from '@kisht/domain/email';
import { isValidLocalMobile, withCountryPrefix } from '@kisht/domain/mobile';
import { parseId } from '../../../shared/routes.ts';

/** The screen's query parameters, each null when missing or malformed. */
export interface PlanQuery {
  appType: number | null;
  planId: number | null;
  productId: number | null;
}

export function readPlanQuery(params: URLSearchParams): PlanQuery {
  const appType = params.get('app_type');
  return {
    appType: appType !== null && /^\d{1,2}$/.test(appType) ? Number(appType) : null,
    planId: parseId(params.get('plan_id')),
    productId: parseId(params.get('product_id')),
  };
}

/**
 * The plans the dropdown lists: an app_type (the tier chosen elsewhere) or a product_id narrows them; a query
 * that matches no plan (an old link, a plan since withdrawn) lists them all rather than none.
 */
export function plansOffered(plans: readonly KindPlan[], query: PlanQuery): KindPlan[] {
  const narrowed = plans.filter(
    (plan) => (query.appType === null || plan.app_type === query.appType) && (query.productId === null || plan.product_id === query.productId),
  );
  return narrowed.length > 0 ? narrowed : [...plans];
}

/** The plan chosen before the retailer picks one: the query's plan_id when offered, else the only plan offered. */
export function presetPlanId(offered: readonly KindPlan[], query: PlanQuery): string {
  if (query.planId !== null && offered.some((plan) => plan.id === query.planId)) return String(query.planId);
  return offered.length === 1 ? String(offered[0]!.id) : '';
}

export interface SaleDraft {
  firstName: string;
  lastName: string;
  email: string;
  /** The ten local digits; +91 is put in front when sending. */
  mobile: string;
  planId: string;
}

export type SaleField = keyof SaleDraft;
/** Each field's error as a translation key. */
export type SaleErrors = Partial<Record<SaleField, string>>;

export const NAME_MAX_LENGTH = 60;
export const EMAIL_MAX_LENGTH = 120;

export const emptySaleDraft = (planId = ''): SaleDraft => ({ firstName: '', lastName: '', email: '', mobile: '', planId });

/** What is missing or wrong, in the form's order (the first one gets the focus). */
export function validateSale(draft: SaleDraft, offered: readonly KindPlan[]): SaleErrors {
  const errors: SaleErrors = {};
  if (!draft.firstName.trim()) errors.firstName = 'common.required';
  if (!draft.lastName.trim()) errors.lastName = 'common.required';
  if (draft.email.trim() && !isValidEmail(draft.email)) errors.email = 'addCustomer.errors.email';
  if (!draft.mobile) errors.mobile = 'common.required';
  else if (!isValidLocalMobile(draft.mobile)) errors.mobile = 'addCustomer.errors.mobile';
  if (!draft.planId) errors.planId = 'common.required';
  else if (!offered.some((plan) => String(plan.id) === draft.planId)) errors.planId = 'errors.PLAN_NOT_AVAILABLE';
  return errors;
}

/** The request for a valid draft and its plan: the plan's own app type and name go with its id. */
export function saleBody(draft: SaleDraft, plan: KindPlan): AddAntihackingBody {
  const body: AddAntihackingBody = {
    firstName: draft.firstName.trim(),
    lastName: draft.lastName.trim(),
    mobile: withCountryPrefix(draft.mobile),
    plan_id: plan.id,
    app_type: plan.app_type,
    plan_name: plan.name,
  };
  const email = draft.email.trim();
  if (email) body.email = email;
  return body;
}
