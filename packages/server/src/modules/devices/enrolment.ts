/**
 * Who may be enrolled, and the single-use token every enrolment channel hands to the phone (DPC QR, LINKFL
 * deep link, Apple profile URL): 32 random bytes, stored only as their SHA-256, bound to the customer.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ProvisioningType } from '@kisht/domain/device-actions';
import { INSTALL_STATUS } from '@kisht/domain/constants';
import { AppError } from '../../errors.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import type { CustomerRow } from '../customers/customers.repository.ts';
import type { DevicesRepository } from './devices.repository.ts';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A phone can be enrolled while the loan runs (inactive, install, deactivated, maturing), not after it ended or the app was removed. */
const ENROLABLE: readonly number[] = [INSTALL_STATUS.inactive, INSTALL_STATUS.install, INSTALL_STATUS.deactivate, INSTALL_STATUS.emis_maturing];

/** Throws the retailer's reason when this customer's phone cannot be enrolled now through `channel`. */
export function assertEnrolable(customer: CustomerRow, channel: ProvisioningType): void {
  if (!ENROLABLE.includes(customer.install_status)) throw new AppError('ENROLMENT_CLOSED');
  if (customer.provisioning_type !== channel) throw new AppError('WRONG_ENROLMENT_CHANNEL');
}

/** Checks the customer, then stores a fresh token's hash; the token itself goes only into the QR or link. */
export async function issueEnrolmentToken(devices: DevicesRepository, caller: RequestAuth, customer: CustomerRow, channel: ProvisioningType, ttlHours: number) {
  assertEnrolable(customer, channel);
  const token = randomBytes(32).toString('base64url');
  const expires = await devices.createToken({ token_hash: sha256(token), customer_id: customer.id, account_id: caller.accountId, created_by: caller.userId, ttl_hours: ttlHours });
  return { token, expires };
}
