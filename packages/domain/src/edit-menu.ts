/**
 * The customer edit menu (specification, section 6): a DPC_ANTITHEFT plan gets IMEI edit and the EMM
 * QR code; an Apple device gets every edit action and check-status; everything else gets every edit
 * action and the QR code.
 */
import { PRODUCT_TYPE, PROVISIONING_TYPE } from './constants.ts';

export const EDIT_ACTIONS = ['IMEI_EDIT', 'EMI_EDIT', 'EDIT_SIGNATURE', 'EDIT_DOCUMENTS', 'EMM_QR_CODE', 'CHECK_STATUS'] as const;
export type EditAction = (typeof EDIT_ACTIONS)[number];

const ALL_EDITS: readonly EditAction[] = ['IMEI_EDIT', 'EMI_EDIT', 'EDIT_SIGNATURE', 'EDIT_DOCUMENTS'];

export function editMenuFor(customer: { product_type: number; provisioning_type: number; price_paise?: number | null }): EditAction[] {
  // A phone on a plan alone (decision 023) has no EMIs to edit: as the anti-theft locker, its IMEIs and its QR.
  if (customer.product_type === PRODUCT_TYPE.DPC_ANTITHEFT || customer.price_paise === null) return ['IMEI_EDIT', 'EMM_QR_CODE'];
  if (customer.provisioning_type === PROVISIONING_TYPE.APPLE) return [...ALL_EDITS, 'CHECK_STATUS'];
  return [...ALL_EDITS, 'EMM_QR_CODE'];
}
