/**
 * Which cached answers a change makes stale. Every mutation that records money or enrols a customer
 * names its tags here, so the screens that show the same figures (list rows, EMI details, upcoming
 * counts, dashboard, balances) refetch together.
 */
import type { TagDescription } from '@reduxjs/toolkit/query';
import type { ApiTagType } from './api.ts';

export type CacheTag = TagDescription<ApiTagType>;

/** A payment or its reversal changed what this customer owes. */
export function tagsAfterPayment(customerId: number): CacheTag[] {
  return [
    { type: 'Emi', id: customerId },
    // The status can move (EMIs completed) with the last payment.
    { type: 'Customer', id: customerId },
    'CustomerList',
    'Upcoming',
    'Dashboard',
    'Outstanding',
    { type: 'Payments', id: customerId },
  ];
}

/** The schedule changed (an instalment edited or added, a penalty): the same figures as a payment, not the payments. */
export function tagsAfterScheduleEdit(customerId: number): CacheTag[] {
  return tagsAfterPayment(customerId).filter((tag) => typeof tag === 'string' || tag.type !== 'Payments');
}

/** The family-care screen's list (a customer's family-care reads are tagged with the customer's id). */
export const FAMILY_CARE_LIST = { type: 'FamilyCare', id: 'LIST' } as const satisfies CacheTag;

/** A family-care phone's rules, confirmation, cover or usage changed: its reads and the list. */
export function tagsAfterFamilyCare(customerIds: readonly number[]): CacheTag[] {
  return [...customerIds.map((id) => ({ type: 'FamilyCare' as const, id })), FAMILY_CARE_LIST];
}

/** The customer's own details or device changed: the profile and the list row. */
export function tagsAfterCustomerEdit(customerId: number): CacheTag[] {
  return [{ type: 'Customer', id: customerId }, 'CustomerList'];
}

/** A phone reported a lock, unlock or removal: the profile's badges, the list rows and the dashboard's counts. */
export function tagsAfterDeviceChange(customerId?: number): CacheTag[] {
  return [customerId === undefined ? 'Customer' : { type: 'Customer', id: customerId }, 'CustomerList', 'Dashboard'];
}

/** A new customer: a new list row, one license key fewer, new dues. */
export const TAGS_AFTER_ENROLMENT: CacheTag[] = ['CustomerList', 'Balance', 'Dashboard', 'Upcoming', 'Outstanding', 'Network', 'KeyHistory'];

/** The cache id of one customer document (photo, signature, witness signature, invoice). */
export function documentTagId(customerId: number, documentType: string): string {
  return `${customerId}:${documentType}`;
}

/** A gateway order moved: the order lists, and for a customer's order what it paid; a key order that is paid credits keys. */
export function tagsAfterOrder(customerIds: readonly number[]): CacheTag[] {
  return ['PaymentOrders', 'Balance', 'KeyHistory', ...customerIds.flatMap((id) => tagsAfterPayment(id))];
}

/** An "I paid" claim was made or decided: the claim lists; a confirmed one is a payment of its customer. */
export function tagsAfterClaim(customerIds: readonly number[], confirmed: boolean): CacheTag[] {
  return ['PaymentClaims', ...(confirmed ? customerIds.flatMap((id) => tagsAfterPayment(id)) : [])];
}
