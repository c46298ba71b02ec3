/**
 * The slot customer details leaves under its EMI summary for collecting a payment through the gateway. Features
 * do not import each other, so the app layer fills it (src/app/customer-details-route.tsx).
 */
import type { ComponentType } from 'react';
import type { CustomerProfile } from '@kisht/contract/customers';

export interface CustomerPaymentSectionProps {
  customerId: number;
  profile: CustomerProfile;
}

export type CustomerPaymentSection = ComponentType<CustomerPaymentSectionProps>;
