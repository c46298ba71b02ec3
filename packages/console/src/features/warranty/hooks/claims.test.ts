import { describe, expect, it } from 'vitest';
import type { WarrantyRules } from '@kisht/contract/warranty';
import { CLAIM_STATES } from '@kisht/domain/warranty';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { assessedCostPaise, claimBody, CLAIM_STATE_LABEL_KEYS, coveredCauses, moveBody, nextSteps, payoutPreview, validateClaim, validateMove } from './claims.ts';

const IMEI = withImeiCheckDigit('35693803564380');
const rules: WarrantyRules = {
  cover_kind: 'insurance', insurer_name: 'Suraksha General', purchase_window_days: 15, waiting_days: 7, term_months: 12, brand_warranty_months: 12,
  covers_defects: false, covers_accidental: true, covers_liquid: true,
  deductible_bands: [{ from_months: 0, to_months: 6, bps: 0 }, { from_months: 6, to_months: 12, bps: 1000 }, { from_months: 12, to_months: null, bps: 2000 }],
  max_claims: 2, cover_limit_bps: 8000,
};

describe('the next steps of a claim', () => {
  it('follow the state machine: documents or reject, then approve or reject, then the outcome; none at the end', () => {
    expect(nextSteps('intimated')).toEqual(['documents', 'rejected']);
    expect(nextSteps('documents')).toEqual(['approved', 'rejected']);
    expect(nextSteps('approved')).toEqual(['repaired', 'replaced', 'settled']);
    for (const end of ['rejected', 'repaired', 'replaced', 'settled'] as const) expect(nextSteps(end)).toEqual([]);
  });

  it('has a label for every state', () => {
    for (const state of CLAIM_STATES) expect(CLAIM_STATE_LABEL_KEYS[state]).toMatch(/^warranty\.claim\.state\./);
  });
});

describe('raising a claim', () => {
  it('offers only the causes the plan covers', () => {
    expect(coveredCauses(rules)).toEqual(['accidental', 'liquid']);
    expect(coveredCauses({ covers_defects: true, covers_accidental: false, covers_liquid: false })).toEqual(['defect']);
  });

  it('needs the IMEI typed again (a valid one), a covered cause, a description and a photo', () => {
    expect(validateClaim({ imei: '', cause: '', description: ' ', photoIds: [] }, ['accidental'])).toEqual({
      imei: 'common.required', cause: 'common.required', description: 'common.required', photoIds: 'warranty.claim.photosRequired',
    });
    expect(validateClaim({ imei: IMEI.slice(0, 14), cause: 'defect', description: 'x', photoIds: [1] }, ['accidental'])).toEqual({
      imei: 'addCustomer.errors.imei', cause: 'errors.WARRANTY_NOT_COVERED',
    });
    const draft = { imei: IMEI, cause: 'accidental', description: ' Screen cracked ', photoIds: [4, 5] };
    expect(validateClaim(draft, ['accidental'])).toEqual({});
    expect(claimBody(9, draft)).toEqual({ sale_id: 9, imei: IMEI, cause: 'accidental', description: 'Screen cracked', photo_ids: [4, 5] });
  });
});

describe('moving a claim', () => {
  it('needs a reason to reject and an assessed cost to approve; other steps take a note if given', () => {
    expect(validateMove('rejected', { reason: '  ', cost: '' })).toEqual({ reason: 'common.required' });
    expect(validateMove('approved', { reason: '', cost: '' })).toEqual({ cost: 'common.required' });
    expect(validateMove('approved', { reason: '', cost: '12.345' })).toEqual({ cost: 'addCustomer.errors.amount' });
    expect(validateMove('documents', { reason: '', cost: '' })).toEqual({});
    expect(moveBody(3, 'documents', { reason: '', cost: '' })).toEqual({ claim_id: 3, to: 'documents' });
    expect(moveBody(3, 'rejected', { reason: ' Old damage ', cost: '' })).toEqual({ claim_id: 3, to: 'rejected', reason: 'Old damage' });
    expect(moveBody(3, 'approved', { reason: '', cost: '4,500.50' })).toEqual({ claim_id: 3, to: 'approved', assessed_cost_paise: 450_050 });
  });

  it('takes a cost of 0 up to the server limit, exactly', () => {
    expect(assessedCostPaise('0')).toBe(0);
    expect(assessedCostPaise('20000000')).toBe(2_000_000_000);
    expect(assessedCostPaise('20000000.01')).toBeNull();
  });

  it('previews what an approval pays with the same integer rules as the server: capped, less the deductible for the age', () => {
    const sale = { rules, invoice_value_paise: 1_000_000, invoice_date: '2025-01-31' };
    // 7 completed months on 2025-09-01: the 10% band. Limit 80% of ₹10,000 = ₹8,000; cost ₹9,000 is capped.
    expect(payoutPreview(sale, { claim_date: '2025-09-01' }, '9000')).toMatchObject({ cover_limit_paise: 800_000, base_paise: 800_000, device_age_months: 7, deductible_bps: 1000, deductible_paise: 80_000, payable_paise: 720_000 });
    // Halves round up: 10% of ₹0.05 is half a paisa.
    expect(payoutPreview(sale, { claim_date: '2025-09-01' }, '0.05')).toMatchObject({ deductible_paise: 1, payable_paise: 4 });
    expect(payoutPreview(sale, { claim_date: '2025-02-27' }, '100')).toMatchObject({ device_age_months: 0, deductible_paise: 0, payable_paise: 10_000 });
    expect(payoutPreview(sale, { claim_date: '2025-09-01' }, 'abc')).toBeNull();
  });
});
