import { describe, expect, it } from 'vitest';
import { tagsAfterPayment, tagsAfterScheduleEdit } from '../../../shared/api/cache-tags.ts';
import { tagsForEvent } from '../../../shared/api/server-events.ts';
import { loanTags } from './ledger-api.ts';

describe('ledger cache tags', () => {
  it("an open statement, changes list or quote refreshes with anything that moves the loan's money", () => {
    const tags = loanTags(7);
    // Another console's payment or change (the server's emi event), a payment here, and the dues run.
    for (const heard of [tagsForEvent({ type: 'emi', customer_ids: [7] }), tagsAfterPayment(7)]) for (const tag of tags) expect(heard).toContainEqual(tag);
    expect(tagsForEvent({ type: 'dues' })).toContain('Emi');
    // A schedule edit, a penalty or a waiver here.
    expect(tagsAfterScheduleEdit(7)).toContainEqual(tags[0]);
  });
});
