/**
 * Customer details with the device channel's sections (with family care among them for its phones), "Collect by UPI"
 * and the plans sold for the customer's phone in their slots (composed here: features do not import each other).
 */
import { lazy, Suspense } from 'react';
import { CustomerDetailsScreen } from '../features/customers/components/customer-details-screen.tsx';
import { CustomerDeviceSections } from '../features/devices/components/customer-device-sections.tsx';
import type { FamilyCareSectionProps } from '../features/familycare/components/familycare-section.tsx';
import { CollectByUpi } from '../features/payments/components/collect-by-upi.tsx';
import { CustomerPlansSection } from '../features/warranty/components/customer-plans.tsx';
import type { CustomerDeviceSectionProps } from '../shared/customers/device-section.ts';
import { Skeleton, SKELETON_LARGE } from '../shared/ui/skeleton.tsx';

// Loaded only for a family-care phone's details: its form and charts are not every customer's cost.
const FamilyCareSection = lazy(async () => ({ default: (await import('../features/familycare/components/familycare-section.tsx')).FamilyCareSection }));

function FamilyCare(props: FamilyCareSectionProps) {
  return (
    <Suspense fallback={<Skeleton height={SKELETON_LARGE} />}>
      <FamilyCareSection {...props} />
    </Suspense>
  );
}

function DeviceSections(props: CustomerDeviceSectionProps) {
  return <CustomerDeviceSections {...props} FamilyCare={FamilyCare} />;
}

export function CustomerDetailsRoute() {
  return <CustomerDetailsScreen DeviceSection={DeviceSections} PaymentSection={CollectByUpi} PlansSection={CustomerPlansSection} />;
}
