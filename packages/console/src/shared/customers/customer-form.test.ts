import { describe, expect, it } from 'vitest';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { STANDARD_PRODUCT } from '@kisht/domain/loan-product';
import type { LoanProduct } from '@kisht/contract/catalogue';
import {
  buildEnrolRequest,
  emptyDraft,
  fieldErrorsFromServer,
  firstStepWithError,
  previewLoan,
  validateCustomerStep,
  validateDeviceStep,
  validateImagesStep,
  validateLoanStep,
  type EnrolDraft,
} from './customer-form.ts';

const TODAY = '2026-05-20';
const IMEI1 = withImeiCheckDigit('35693803564380');
const IMEI2 = withImeiCheckDigit('35693803564381');

function filled(overrides: Partial<EnrolDraft> = {}): EnrolDraft {
  return {
    ...emptyDraft(TODAY),
    firstName: ' Ravi ',
    lastName: 'Kumar',
    mobile: '9800000001',
    brand: 'Samsung',
    model: 'Galaxy A15',
    imei1: IMEI1,
    provisioningType: '0',
    productId: '1',
    price: '15,999',
    downPayment: '3000',
    rate: '14',
    tenure: '6',
    ...overrides,
  };
}

describe('emptyDraft', () => {
  it('proposes the first due date one month after today', () => {
    expect(emptyDraft('2026-01-31').firstDueDate).toBe('2026-02-28');
  });
});

describe('step checks', () => {
  it('says "required" for every missing required field', () => {
    expect(validateCustomerStep(emptyDraft(TODAY), TODAY)).toEqual({
      firstName: { key: 'common.required' },
      lastName: { key: 'common.required' },
      mobile: { key: 'common.required' },
    });
    expect(Object.keys(validateDeviceStep(emptyDraft(TODAY))).sort()).toEqual(['brand', 'imei1', 'model', 'provisioningType']);
  });

  it('checks mobile numbers, pincode, date of birth and the ID number for its type', () => {
    const errors = validateCustomerStep(
      filled({ mobile: '12345', altMobile: '5000000000', pincode: '012345', dateOfBirth: TODAY, idType: 'PAN', idNumber: 'ABCDE1234' }),
      TODAY,
    );
    expect(Object.keys(errors).sort()).toEqual(['altMobile', 'dateOfBirth', 'idNumber', 'mobile', 'pincode']);
    expect(validateCustomerStep(filled({ idType: 'PAN', idNumber: 'abcde1234f' }), TODAY)).toEqual({});
    expect(validateCustomerStep(filled({ idNumber: 'ABCDE1234F' }), TODAY)).toEqual({ idType: { key: 'common.required' } });
  });

  it('checks the IMEI check digit before anything is sent, and that the two IMEIs differ', () => {
    const wrongDigit = `${IMEI1.slice(0, 14)}${(Number(IMEI1[14]) + 1) % 10}`;
    expect(validateDeviceStep(filled({ imei1: wrongDigit })).imei1).toEqual({ key: 'addCustomer.errors.imei' });
    expect(validateDeviceStep(filled({ imei2: IMEI1 })).imei2).toEqual({ key: 'addCustomer.errors.imeiSame' });
    expect(validateDeviceStep(filled({ imei2: IMEI2 }))).toEqual({});
  });

  it('asks for each reference the chosen financier requires', () => {
    const financier = { id: 2, required_fields: ['loan_reference', 'agreement_number'] };
    const errors = validateLoanStep(filled({ financierReference: { loan_reference: 'L-1' } }), TODAY, financier);
    expect(errors).toEqual({ 'financier_reference.agreement_number': { key: 'common.required' } });
  });

  it('needs the photo and signature, and the witness signature only when switched on', () => {
    expect(Object.keys(validateImagesStep({ photo: false, signature: false, witnessSignature: false }, false))).toEqual(['photo', 'signature']);
    expect(validateImagesStep({ photo: true, signature: true, witnessSignature: false }, true)).toEqual({ witnessSignature: { key: 'common.required' } });
  });
});

describe('previewLoan', () => {
  it('schedules the loan as typed, in paise and basis points', () => {
    const preview = previewLoan(filled({ processingFee: '499.50', rate: '14.5' }), TODAY);
    expect(preview.kind).toBe('ok');
    if (preview.kind !== 'ok') return;
    expect(preview.terms).toMatchObject({ pricePaise: 1_599_900, downPaymentPaise: 300_000, processingFeePaise: 49_950, annualRateBps: 1450, tenureMonths: 6 });
    expect(preview.schedule.instalments).toHaveLength(6);
    expect(preview.schedule.instalments[0]!.dueDate).toBe('2026-06-20');
    expect(preview.schedule.upfrontPaise).toBe(300_000 + 49_950);
  });

  it('is incomplete (not wrong) while required fields are empty', () => {
    expect(previewLoan(emptyDraft(TODAY), TODAY).kind).toBe('incomplete');
  });

  it('puts the domain rule that failed on its field', () => {
    const preview = previewLoan(filled({ downPayment: '20000' }), TODAY);
    expect(preview).toEqual({ kind: 'invalid', errors: { downPayment: { key: 'addCustomer.loanErrors.downPayment' } } });
    expect(previewLoan(filled({ tenure: '61' }), TODAY)).toMatchObject({ errors: { tenure: { key: 'addCustomer.loanErrors.tenure' } } });
    expect(previewLoan(filled({ advanceEmis: '6' }), TODAY)).toMatchObject({ errors: { advanceEmis: { key: 'addCustomer.loanErrors.advanceEmis' } } });
    expect(previewLoan(filled({ firstDueDate: TODAY }), TODAY)).toMatchObject({ errors: { firstDueDate: { key: 'addCustomer.loanErrors.firstDueDate' } } });
  });

  it('says a loan is too small for its instalments, on the instalments, as the server does', () => {
    // Rs 1.50 left after the down payment over 3 months would be instalments of Rs 0.
    const preview = previewLoan(filled({ price: '3001.50', downPayment: '3000', rate: '0', tenure: '3', advanceEmis: '' }), TODAY);
    expect(preview).toEqual({ kind: 'invalid', errors: { tenure: { key: 'validation.financed_below_tenure' } } });
  });

  it('refuses amounts it cannot read', () => {
    expect(previewLoan(filled({ price: '12.345' }), TODAY)).toMatchObject({ kind: 'invalid', errors: { price: { key: 'addCustomer.errors.amount' } } });
    expect(previewLoan(filled({ tenure: '6.5' }), TODAY)).toMatchObject({ kind: 'invalid', errors: { tenure: { key: 'addCustomer.errors.wholeNumber' } } });
  });
});

describe('buildEnrolRequest', () => {
  it('sends +91 numbers, integer paise and leaves unset optional fields out', () => {
    const request = buildEnrolRequest(filled({ altMobile: '9800000002', idType: 'PAN', idNumber: 'abcde 1234f' }), TODAY, null);
    expect(request.endpoint).toBe('standard');
    expect(request.body).toEqual({
      first_name: 'Ravi',
      last_name: 'Kumar',
      mobile: '+919800000001',
      alt_mobile: '+919800000002',
      id_type: 'PAN',
      id_number: 'ABCDE1234F',
      device_brand: 'Samsung',
      device_model: 'Galaxy A15',
      imei1: IMEI1,
      provisioning_type: 0,
      product_id: 1,
      price_paise: 1_599_900,
      down_payment_paise: 300_000,
      annual_rate_bps: 1400,
      interest_method: 'reducing',
      tenure_months: 6,
      first_due_date: '2026-06-20',
    });
  });

  it('uses the financier flow when the financier requires references', () => {
    const draft = filled({ financierId: '2', financierReference: { loan_reference: ' L-1 ', other: 'x' } });
    const request = buildEnrolRequest(draft, TODAY, { id: 2, required_fields: ['loan_reference'] });
    expect(request.endpoint).toBe('financed');
    expect(request.body).toMatchObject({ financier_id: 2, financier_reference: { loan_reference: 'L-1' } });
    expect(buildEnrolRequest(draft, TODAY, { id: 1, required_fields: [] })).toMatchObject({ endpoint: 'standard', body: { financier_id: 1 } });
  });
});

describe('with a loan product', () => {
  const noCost: LoanProduct = { id: 7, name: 'No-cost EMI', settings: { ...STANDARD_PRODUCT, noCost: true, gstOnInterestBps: 1800, instalmentRounding: { multipleOfPaise: 1, mode: 'half_up' } } };
  const weekly: LoanProduct = { id: 8, name: 'Weekly', settings: { ...STANDARD_PRODUCT, frequency: { unit: 'week', every: 1 } } };

  it('schedules by the product and gives its Key Fact Statement figures', () => {
    const preview = previewLoan(filled({ loanProductId: '7', price: '30000', downPayment: '0', rate: '16' }), TODAY, noCost);
    if (preview.kind !== 'ok') throw new Error(JSON.stringify(preview));
    expect(preview.schedule.emiPaise).toBe(5_000_00);
    expect(preview.product).toMatchObject({ id: 7, rate: '16' });
    expect(preview.product!.keyFacts.taxPaise).toBeGreaterThan(0);
    expect(preview.product!.keyFacts.discountPaise).toBe(30_000_00 - (preview.schedule as { financedPaise: number }).financedPaise);
  });

  it('takes an exact rate of up to four decimals, but not past 60%', () => {
    expect(previewLoan(filled({ rate: '10.125', tenure: '52' }), TODAY, weekly).kind).toBe('ok');
    expect(previewLoan(filled({ rate: '60.5' }), TODAY, weekly)).toMatchObject({ kind: 'invalid', errors: { rate: { key: 'addCustomer.errors.rate' } } });
    expect(previewLoan(filled({ rate: '75' }), TODAY, weekly)).toMatchObject({ kind: 'invalid', errors: { rate: { key: 'addCustomer.errors.rate' } } });
  });

  it("says what this product takes: 0 on a 0% product, the lender's rate on a no-cost one, at most so many instalments", () => {
    const zero: LoanProduct = { id: 9, name: '0%', settings: { ...STANDARD_PRODUCT, interest: 'zero' } };
    expect(previewLoan(filled({ rate: '14' }), TODAY, zero)).toMatchObject({ kind: 'invalid', errors: { rate: { key: 'addCustomer.loanErrors.rateZeroOnly' } } });
    expect(previewLoan(filled({ rate: '0' }), TODAY, zero).kind).toBe('ok');
    expect(previewLoan(filled({ rate: '0' }), TODAY, noCost)).toMatchObject({ kind: 'invalid', errors: { rate: { key: 'addCustomer.loanErrors.rateNeeded' } } });
    expect(previewLoan(filled({ tenure: '600' }), TODAY, weekly)).toMatchObject({ kind: 'invalid', errors: { tenure: { key: 'addCustomer.loanErrors.periodsMax', vars: { count: 520 } } } });
    expect(previewLoan(filled({ tenure: '241' }), TODAY, noCost)).toMatchObject({ kind: 'invalid', errors: { tenure: { key: 'addCustomer.loanErrors.periodsMax', vars: { count: 240 } } } });
  });

  it('says a loan too small for its instalments on the price, in the words the server uses', () => {
    expect(previewLoan(filled({ price: '100', downPayment: '0', tenure: '200' }), TODAY, weekly)).toMatchObject({ kind: 'invalid', errors: { price: { key: 'validation.financed_below_tenure' } } });
  });

  it('sends the product and the exact rate, and places the server\'s complaint about the product on its field', () => {
    const request = buildEnrolRequest(filled({ loanProductId: '7', rate: '13.99' }), TODAY, null, noCost);
    expect(request.body).toMatchObject({ loan_product_id: 7, annual_rate: '13.99', annual_rate_bps: 1399, start_date: TODAY });
    expect(buildEnrolRequest(filled(), TODAY, null).body).not.toHaveProperty('loan_product_id');
    expect(fieldErrorsFromServer([{ field: 'loan_product_id', message: 'not yours' }]).errors).toEqual({ loanProductId: { text: 'not yours' } });
  });
});

describe('server complaints', () => {
  it('lands on the field and the first step that has one', () => {
    const { errors, unplaced } = fieldErrorsFromServer([
      { field: 'price_paise', message: 'must be more than 0' },
      { field: 'imei1', message: 'is not a valid IMEI (check digit)' },
      { field: 'financier_reference.loan_reference', message: 'is required by HDB' },
      { field: 'body', message: 'must not have additional properties' },
    ]);
    expect(errors).toEqual({
      price: { text: 'must be more than 0' },
      imei1: { text: 'is not a valid IMEI (check digit)' },
      'financier_reference.loan_reference': { text: 'is required by HDB' },
    });
    expect(unplaced).toEqual(['body: must not have additional properties']);
    expect(firstStepWithError(errors)).toBe('device');
    expect(firstStepWithError({})).toBeNull();
  });
});
