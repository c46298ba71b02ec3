import { describe, expect, it } from 'vitest';
import { documentTagId, tagsAfterPayment, TAGS_AFTER_ENROLMENT } from './cache-tags.ts';

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
