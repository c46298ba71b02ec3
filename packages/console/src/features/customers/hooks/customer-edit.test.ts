import { describe, expect, it } from 'vitest';
import type { CustomerProfile } from '@kisht/contract/customers';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { buildDetailsBody, buildRegistrationBody, detailsDraftFrom, registrationDraftFrom, validateDetails, validateRegistration } from './customer-edit.ts';

const IMEI_A = withImeiCheckDigit('35209900176148');
const IMEI_B = withImeiCheckDigit('35209900176149');

const profile = {
  id: 7,
  first_name: 'Asha',
  last_name: 'Rao',
  mobile: '+919812345678',
  alt_mobile: null,
  email: 'asha@example.com',
  address: null,
  date_of_birth: '1990-05-01',
  device_brand: 'Samsung',
  device_model: 'A15',
  imei1: IMEI_A,
  imei2: null,
  serial_number: 'SN1',
} as unknown as CustomerProfile;

describe('registration edit', () => {
  it('starts from the profile and sends nothing when nothing changed', () => {
    const draft = registrationDraftFrom(profile);
    expect(draft).toEqual({ brand: 'Samsung', model: 'A15', imei1: IMEI_A, imei2: '', serial: 'SN1' });
    expect(buildRegistrationBody(profile, draft)).toBeNull();
  });

  it('sends only the changed fields, an emptied serial as null', () => {
    const draft = { ...registrationDraftFrom(profile), imei2: IMEI_B, serial: ' ' };
    expect(buildRegistrationBody(profile, draft)).toEqual({ customer_id: 7, imei2: IMEI_B, serial_number: null });
  });

  it('checks the IMEI check digits, the same IMEI twice and the required fields', () => {
    const bad = `${IMEI_A.slice(0, 14)}${(Number(IMEI_A[14]) + 1) % 10}`;
    expect(Object.keys(validateRegistration({ brand: '', model: 'A15', imei1: bad, imei2: '', serial: '' })).sort()).toEqual(['brand', 'imei1']);
    expect(validateRegistration({ brand: 'X', model: 'Y', imei1: IMEI_A, imei2: IMEI_A, serial: '' })).toEqual({ imei2: { key: 'addCustomer.errors.imeiSame' } });
    expect(validateRegistration(registrationDraftFrom(profile))).toEqual({});
  });
});

describe('details edit', () => {
  it('shows the mobile without +91 and sends it back with it', () => {
    const draft = detailsDraftFrom(profile);
    expect(draft.mobile).toBe('9812345678');
    expect(buildDetailsBody(profile, draft)).toBeNull();
    expect(buildDetailsBody(profile, { ...draft, mobile: '9000000001', altMobile: '9000000002', email: '' })).toEqual({
      customer_id: 7,
      mobile: '+919000000001',
      alt_mobile: '+919000000002',
      email: null,
    });
  });

  it('uses the add-customer checks for the edited fields only', () => {
    const draft = { ...detailsDraftFrom(profile), firstName: ' ', mobile: '12345', dateOfBirth: '2030-01-01' };
    expect(Object.keys(validateDetails(draft, '2025-01-01')).sort()).toEqual(['dateOfBirth', 'firstName', 'mobile']);
    expect(validateDetails(detailsDraftFrom(profile), '2025-01-01')).toEqual({});
  });
});
