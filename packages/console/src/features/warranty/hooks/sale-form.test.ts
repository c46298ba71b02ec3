import { describe, expect, it } from 'vitest';
import type { WarrantyPlan } from '@kisht/contract/warranty';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { draftFromCustomer, emptySaleDraft, invoicePaise, lastSaleDay, presetPlanId, saleBody, saleErrorsFromServer, validateSale, type SaleDraft } from './sale-form.ts';

const rules: WarrantyPlan['rules'] = {
  cover_kind: 'insurance', insurer_name: 'Suraksha General', purchase_window_days: 15, waiting_days: 7, term_months: 12, brand_warranty_months: 12,
  covers_defects: false, covers_accidental: true, covers_liquid: true, deductible_bands: [{ from_months: 0, to_months: null, bps: 0 }], max_claims: 2, cover_limit_bps: 10000,
};
const plan = (id: number): WarrantyPlan => ({ id, name: `Plan ${id}`, app_type: 5, product_id: 3, product_type: 5, validity_days: 365, price_paise: 149900, terms: null, rules });
const PLANS = [plan(1), plan(2)];
const TODAY = '2026-03-10';
const IMEI = withImeiCheckDigit('35693803564380');

const valid: SaleDraft = {
  planId: '2', firstName: ' Asha ', lastName: 'Rao', mobile: '9876501234', email: '', imei: IMEI, brand: 'Samsung', model: ' Galaxy A55 ',
  invoiceValue: '39,999.50', invoiceDate: '2026-03-01',
};

describe('the invoice value', () => {
  it('is exact paise from what was typed, never a float', () => {
    expect(invoicePaise('39999.5')).toEqual({ paise: 3_999_950 });
    expect(invoicePaise('0.29')).toEqual({ paise: 29 });
    expect(invoicePaise('₹ 1,00,000')).toEqual({ paise: 10_000_000 });
  });

  it('is required, a positive amount with at most two decimals, and at most ₹10,00,000', () => {
    expect(invoicePaise('  ')).toEqual({ error: { key: 'common.required' } });
    expect(invoicePaise('12.345')).toEqual({ error: { key: 'addCustomer.errors.amount' } });
    expect(invoicePaise('0')).toEqual({ error: { key: 'warranty.sell.invoiceValuePositive' } });
    expect(invoicePaise('1000000')).toEqual({ paise: 100_000_000 });
    expect(invoicePaise('1000000.01')).toEqual({ error: { key: 'warranty.sell.invoiceValueMax', vars: { amount: '₹10,00,000' } } });
  });
});

describe('the sale form', () => {
  it('asks for every field but the email, in the form order', () => {
    expect(Object.keys(validateSale(emptySaleDraft(), PLANS, TODAY))).toEqual(['planId', 'firstName', 'lastName', 'mobile', 'imei', 'brand', 'model', 'invoiceValue', 'invoiceDate']);
    expect(validateSale(valid, PLANS, TODAY)).toEqual({});
  });

  it('checks the IMEI as the add-customer form does (15 digits, the check digit), the mobile, the email and the plan', () => {
    const wrongDigit = `${IMEI.slice(0, 14)}${(Number(IMEI[14]) + 1) % 10}`;
    expect(validateSale({ ...valid, imei: wrongDigit, mobile: '12345', email: 'asha@', planId: '9' }, PLANS, TODAY)).toEqual({
      planId: { key: 'errors.PLAN_NOT_AVAILABLE' },
      mobile: { key: 'addCustomer.errors.mobile' },
      email: { key: 'addCustomer.errors.email' },
      imei: { key: 'addCustomer.errors.imei' },
    });
    expect(validateSale({ ...valid, imei: IMEI.slice(0, 14) }, PLANS, TODAY).imei).toEqual({ key: 'addCustomer.errors.imei' });
  });

  it('refuses an invoice dated after today (India) and accepts today', () => {
    expect(validateSale({ ...valid, invoiceDate: '2026-03-11' }, PLANS, TODAY).invoiceDate).toEqual({ key: 'validation.not_future_date' });
    expect(validateSale({ ...valid, invoiceDate: TODAY }, PLANS, TODAY)).toEqual({});
    expect(validateSale({ ...valid, invoiceDate: '2026-02-30' }, PLANS, TODAY).invoiceDate).toEqual({ key: 'validation.invalid' });
  });

  it('sends the mobile with +91, the value in paise, the trimmed names and phone, the email and the customer only when given', () => {
    expect(saleBody(valid, null)).toEqual({
      plan_id: 2, first_name: 'Asha', last_name: 'Rao', mobile: '+919876501234', imei: IMEI, brand: 'Samsung', model: 'Galaxy A55',
      invoice_value_paise: 3_999_950, invoice_date: '2026-03-01',
    });
    expect(saleBody({ ...valid, email: ' asha@example.com ' }, 41)).toMatchObject({ email: 'asha@example.com', customer_id: 41 });
  });

  it('starts from a financed customer: names, local mobile, email, IMEI, brand and model', () => {
    const draft = draftFromCustomer({ first_name: 'Asha', last_name: 'Rao', mobile: '+919876501234', email: null, imei1: IMEI, device_brand: 'Vivo', device_model: 'Y28s' });
    expect(draft).toEqual({ ...emptySaleDraft(), firstName: 'Asha', lastName: 'Rao', mobile: '9876501234', imei: IMEI, brand: 'Vivo', model: 'Y28s' });
  });

  it('preselects the only plan offered, and says the last day the chosen plan may be sold', () => {
    expect(presetPlanId([plan(4)])).toBe('4');
    expect(presetPlanId(PLANS)).toBe('');
    expect(lastSaleDay(plan(1), '2026-02-20')).toBe('2026-03-07');
    expect(lastSaleDay(undefined, '2026-02-20')).toBeNull();
    expect(lastSaleDay(plan(1), '')).toBeNull();
  });
});

describe("the server's refusals", () => {
  it('go on the field they concern, in its words', () => {
    expect(saleErrorsFromServer({ code: 'WARRANTY_PURCHASE_WINDOW_CLOSED', message: 'Too late' })).toEqual({ invoiceDate: { text: 'Too late' } });
    expect(saleErrorsFromServer({ code: 'NO_LICENSE_KEY', message: 'No key' })).toEqual({ planId: { text: 'No key' } });
    expect(saleErrorsFromServer({ code: 'VALIDATION_FAILED', message: 'Check', details: [{ field: 'imei', message: 'Bad IMEI' }, { field: 'body.invoice_date', message: 'Future' }, { field: 'other', message: 'x' }] }))
      .toEqual({ imei: { text: 'Bad IMEI' }, invoiceDate: { text: 'Future' } });
  });
});
