/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { emptyPlanPhoneDraft, planPhoneBody, planPhoneErrorsFromServer, validatePlanPhone, type PlanPhoneDraft } from './plan-phone-form.ts';

const EN = JSON.parse(readFileSync(new URL('../../../../../locales/en.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const IMEI = withImeiCheckDigit('35693803564380');
const OTHER_IMEI = withImeiCheckDigit('35693803564381');
const filled: PlanPhoneDraft = {
  planId: '12', firstName: ' Lakshmi ', lastName: 'Venkataraghavan', mobile: '9812300111', altMobile: '9700055566', email: '',
  brand: 'Redmi', model: ' Note 13 ', imei1: IMEI, imei2: '', serial: '',
};

describe('the plan-phone form', () => {
  it('asks for the plan, the owner, both numbers and the phone', () => {
    expect(Object.keys(validatePlanPhone(emptyPlanPhoneDraft())).sort()).toEqual(['altMobile', 'brand', 'firstName', 'imei1', 'lastName', 'mobile', 'model', 'planId']);
    expect(validatePlanPhone(filled)).toEqual({});
    // Every key the form shows is a string in the English file (a missing key would show as itself).
    for (const error of Object.values(validatePlanPhone({ ...emptyPlanPhoneDraft(), altMobile: '98', imei1: '1' }))) {
      const key = (error as { key: string }).key;
      expect(typeof key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], EN), key).toBe('string');
    }
  });

  it('refuses a bad number, the same number twice, a bad IMEI and a second IMEI equal to the first', () => {
    expect(validatePlanPhone({ ...filled, mobile: '12345' }).mobile).toEqual({ key: 'addCustomer.errors.mobile' });
    expect(validatePlanPhone({ ...filled, altMobile: filled.mobile }).altMobile).toEqual({ key: 'validation.alt_mobile_same' });
    expect(validatePlanPhone({ ...filled, imei1: `${IMEI.slice(0, 14)}${(Number(IMEI[14]) + 1) % 10}` }).imei1).toEqual({ key: 'addCustomer.errors.imei' });
    expect(validatePlanPhone({ ...filled, imei2: IMEI }).imei2).toEqual({ key: 'addCustomer.errors.imeiSame' });
    expect(validatePlanPhone({ ...filled, imei2: OTHER_IMEI })).toEqual({});
    expect(validatePlanPhone({ ...filled, email: 'not-an-email' }).email).toEqual({ key: 'addCustomer.errors.email' });
  });

  it('sends trimmed names, numbers with +91, the plan as a number and no empty optional field', () => {
    expect(planPhoneBody(filled, 7)).toEqual({
      product_id: 7, plan_id: 12, first_name: 'Lakshmi', last_name: 'Venkataraghavan', mobile: '+919812300111', alt_mobile: '+919700055566',
      device_brand: 'Redmi', device_model: 'Note 13', imei1: IMEI, provisioning_type: 0,
    });
    expect(planPhoneBody({ ...filled, imei2: OTHER_IMEI, email: ' a@b.in ', serial: ' R58N1234 ' }, 7)).toMatchObject({ imei2: OTHER_IMEI, email: 'a@b.in', serial_number: 'R58N1234' });
  });

  it("places the server's refusals on their fields, and an IMEI in use on IMEI 1", () => {
    expect(planPhoneErrorsFromServer({ code: 'VALIDATION_FAILED', message: 'Check', details: [{ field: 'plan_id', message: 'Not this plan' }, { field: 'alt_mobile', message: 'Another number' }, { field: 'unknown', message: 'x' }] }))
      .toEqual({ planId: { text: 'Not this plan' }, altMobile: { text: 'Another number' } });
    expect(planPhoneErrorsFromServer({ code: 'IMEI_IN_USE', message: 'Already enrolled' })).toEqual({ imei1: { text: 'Already enrolled' } });
  });
});
