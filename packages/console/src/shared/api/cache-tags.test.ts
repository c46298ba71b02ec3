import { describe, expect, it } from 'vitest';
import { documentTagId, tagsAfterClaim, tagsAfterCustomerEdit, tagsAfterOrder, tagsAfterPayment, tagsAfterScheduleEdit, TAGS_AFTER_ENROLMENT } from './cache-tags.ts';

describe('cache tags', () => {
  it('a payment refreshes the EMI details, the customer, the list row, the upcoming counts and the dashboard', () => {
    expect(tagsAfterPayment(7)).toEqual(
      expect.arrayContaining([{ type: 'Emi', id: 7 }, { type: 'Customer', id: 7 }, 'CustomerList', 'Upcoming', 'Dashboard']),
    );
  });

  it('an enrolment refreshes the list, the balances and the dashboard', () => {
    expect(TAGS_AFTER_ENROLMENT).toEqual(expect.arrayContaining(['CustomerList', 'Balance', 'Dashboard']));
  });

  it('names a document by customer and type', () => {
    expect(documentTagId(3, 'photo')).toBe('3:photo');
  });
});

describe('edit tags', () => {
  it('a payment refreshes the payment list; a schedule edit does not', () => {
    expect(tagsAfterPayment(7)).toContainEqual({ type: 'Payments', id: 7 });
    expect(tagsAfterScheduleEdit(7)).not.toContainEqual({ type: 'Payments', id: 7 });
    expect(tagsAfterScheduleEdit(7)).toEqual(expect.arrayContaining([{ type: 'Emi', id: 7 }, 'Upcoming', 'Dashboard']));
  });

  it('a customer edit refreshes the profile and the list', () => {
    expect(tagsAfterCustomerEdit(7)).toEqual([{ type: 'Customer', id: 7 }, 'CustomerList']);
  });
});

describe('payment tags', () => {
  it("an order refreshes the order lists and its customer's figures", () => {
    expect(tagsAfterOrder([3])).toEqual(expect.arrayContaining(['PaymentOrders', { type: 'Emi', id: 3 }, 'Dashboard']));
  });

  it('a rejected claim refreshes only the claims; a confirmed one is a payment too', () => {
    expect(tagsAfterClaim([3], false)).toEqual(['PaymentClaims']);
    expect(tagsAfterClaim([3], true)).toEqual(expect.arrayContaining(['PaymentClaims', { type: 'Payments', id: 3 }, { type: 'Emi', id: 3 }]));
  });
});
