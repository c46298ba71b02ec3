/** Translation keys of the codes the screens show (provisioning, product types, methods, ID types). */
import type { IdType } from '@kisht/domain/identity';
import type { InterestMethod } from '@kisht/domain/emi';
import { PAYMENT_METHODS, type PaymentMethod } from './payment-methods.ts';
import type { EditAction } from '@kisht/domain/edit-menu';

export const PROVISIONING_LABEL_KEYS: Record<number, string> = {
  0: 'provisioning.dpc',
  1: 'provisioning.amapi',
  2: 'provisioning.linkfl',
  3: 'provisioning.apple',
};

export const PRODUCT_TYPE_LABEL_KEYS: Record<number, string> = {
  0: 'productType.dpc',
  1: 'productType.linkfl',
  2: 'productType.apple',
  4: 'productType.antiTheft',
  5: 'productType.extendedWarranty',
  6: 'productType.oldFl',
  7: 'productType.familycare',
  8: 'productType.antihacking',
  9: 'productType.dpcAntitheft',
  11: 'productType.dpcLite',
  12: 'productType.antihackingPro',
  13: 'productType.antihackingPremium',
};

export const INTEREST_METHOD_LABEL_KEYS: Record<InterestMethod, string> = {
  reducing: 'loan.method.reducing',
  flat: 'loan.method.flat',
};

export const PAYMENT_METHOD_LABEL_KEYS: Record<PaymentMethod, string> = Object.fromEntries(
  PAYMENT_METHODS.map((method) => [method, `paymentMethod.${method}`]),
) as Record<PaymentMethod, string>;

export const ID_TYPE_LABEL_KEYS: Record<IdType, string> = {
  AADHAAR: 'idType.aadhaar',
  PAN: 'idType.pan',
  VOTER_ID: 'idType.voterId',
  DRIVING_LICENCE: 'idType.drivingLicence',
  PASSPORT: 'idType.passport',
};

export const EDIT_ACTION_LABEL_KEYS: Record<EditAction, string> = {
  IMEI_EDIT: 'editAction.imeiEdit',
  EMI_EDIT: 'editAction.emiEdit',
  EDIT_SIGNATURE: 'editAction.editSignature',
  EDIT_DOCUMENTS: 'editAction.editDocuments',
  EMM_QR_CODE: 'editAction.emmQrCode',
  CHECK_STATUS: 'editAction.checkStatus',
};
