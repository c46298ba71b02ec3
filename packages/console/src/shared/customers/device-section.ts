/**
 * The slot customer details leaves for the device channel's sections. Features do not import each
 * other, so the app layer fills it (src/app/customer-details-route.tsx).
 */
import type { ComponentType } from 'react';
import type { CustomerProfile } from '@kisht/contract/customers';

export interface CustomerDeviceSectionProps {
  customerId: number;
  profile: CustomerProfile;
  /** Grows each time the edit menu's "Check status" is chosen: the section comes into view and reads the phone again. */
  checkStatusRequest: number;
}

export type CustomerDeviceSection = ComponentType<CustomerDeviceSectionProps>;
