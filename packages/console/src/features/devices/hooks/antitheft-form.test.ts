import { describe, expect, it } from 'vitest';
import { antitheftRequest, draftOf, renewedUntil, validateAntitheft } from './antitheft-form.ts';

const saved = { customer_id: 7, lost_mode_on_sim_change: true, message: 'Please return', contact_mobile: '+919700011122', alert_mobiles: ['+919876543210'], updated_at: '2026-11-26T10:00:00.000Z', covered_until: '2027-11-25', in_cover: true, renewal_days: 365 };

describe('anti-theft form', () => {
  it('starts from what was saved, with the contact as ten digits', () => {
    expect(draftOf(saved)).toEqual({ lostModeOnSimChange: true, message: 'Please return', contact: '9700011122' });
    expect(draftOf({ ...saved, message: null, contact_mobile: null })).toEqual({ lostModeOnSimChange: true, message: '', contact: '' });
  });

  it('refuses a number that is not a mobile, and a message past 160 characters', () => {
    expect(validateAntitheft({ lostModeOnSimChange: false, message: '', contact: '' })).toEqual({});
    expect(validateAntitheft({ lostModeOnSimChange: false, message: '', contact: '12345' })).toEqual({ contact: 'errors.INVALID_MOBILE' });
    expect(validateAntitheft({ lostModeOnSimChange: false, message: '', contact: '5123456789' })).toEqual({ contact: 'errors.INVALID_MOBILE' });
    expect(validateAntitheft({ lostModeOnSimChange: false, message: 'x'.repeat(161), contact: '' })).toEqual({ message: 'antitheft.messageHint' });
    expect(validateAntitheft({ lostModeOnSimChange: false, message: ` ${'x'.repeat(160)} `, contact: '' })).toEqual({});
  });

  it('sends empty fields as null, spaces collapsed, and the number with +91', () => {
    expect(antitheftRequest(7, { lostModeOnSimChange: false, message: '   ', contact: '' })).toEqual({ customer_id: 7, lost_mode_on_sim_change: false, message: null, contact_mobile: null });
    expect(antitheftRequest(7, { lostModeOnSimChange: true, message: '  Call   me  ', contact: '9700011122' })).toEqual({ customer_id: 7, lost_mode_on_sim_change: true, message: 'Call me', contact_mobile: '+919700011122' });
  });

  it('says until when a renewal keeps anti-theft in force: on from the last day, or from today once ended', () => {
    expect(renewedUntil(saved, '2026-11-26')).toBe('2028-11-24');
    expect(renewedUntil({ ...saved, covered_until: '2026-11-26' }, '2026-11-26')).toBe('2027-11-26');
    expect(renewedUntil({ ...saved, covered_until: '2026-10-01' }, '2026-11-26')).toBe('2027-11-25');
    expect(renewedUntil({ ...saved, covered_until: '2026-11-25', renewal_days: 30 }, '2026-11-26')).toBe('2026-12-25');
  });
});
