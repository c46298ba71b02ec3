/**
 * The slot customer details leaves for the add-on plans sold for the customer's phone (extended warranties with
 * their claims, anti-hacking plans). Features do not import each other, so the app layer fills it
 * (src/app/customer-details-route.tsx).
 */
import type { ComponentType } from 'react';
import type { CustomerProfile } from '@kisht/contract/customers';

export interface CustomerPlansSectionProps {
  customerId: number;
  profile: CustomerProfile;
}

export type CustomerPlansSection = ComponentType<CustomerPlansSectionProps>;
