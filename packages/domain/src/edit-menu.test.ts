import { describe, expect, it } from 'vitest';
import { PRODUCT_TYPE, PROVISIONING_TYPE } from './constants.ts';
import { editMenuFor } from './edit-menu.ts';

describe('editMenuFor', () => {
  it('gives a DPC_ANTITHEFT plan only IMEI edit and the QR code', () => {
    expect(editMenuFor({ product_type: PRODUCT_TYPE.DPC_ANTITHEFT, provisioning_type: PROVISIONING_TYPE.DPC })).toEqual(['IMEI_EDIT', 'EMM_QR_CODE']);
  });

  it('gives a phone on a plan alone (no loan) only IMEI edit and the QR code, whatever its plan', () => {
    for (const product_type of [PRODUCT_TYPE.ANTI_THEFT, PRODUCT_TYPE.FAMILYCARE]) {
      expect(editMenuFor({ product_type, provisioning_type: PROVISIONING_TYPE.DPC, price_paise: null })).toEqual(['IMEI_EDIT', 'EMM_QR_CODE']);
    }
    expect(editMenuFor({ product_type: PRODUCT_TYPE.FAMILYCARE, provisioning_type: PROVISIONING_TYPE.DPC, price_paise: 1_000_000 })).toContain('EMI_EDIT');
  });

  it('gives an Apple device every edit action and check-status, no QR code', () => {
    expect(editMenuFor({ product_type: PRODUCT_TYPE.APPLE, provisioning_type: PROVISIONING_TYPE.APPLE })).toEqual([
      'IMEI_EDIT',
      'EMI_EDIT',
      'EDIT_SIGNATURE',
      'EDIT_DOCUMENTS',
      'CHECK_STATUS',
    ]);
  });

  it('gives everything else every edit action and the QR code', () => {
    for (const provisioning of [PROVISIONING_TYPE.DPC, PROVISIONING_TYPE.AMAPI, PROVISIONING_TYPE.LINKFL]) {
      expect(editMenuFor({ product_type: PRODUCT_TYPE.DPC, provisioning_type: provisioning })).toEqual([
        'IMEI_EDIT',
        'EMI_EDIT',
        'EDIT_SIGNATURE',
        'EDIT_DOCUMENTS',
        'EMM_QR_CODE',
      ]);
    }
  });
});
