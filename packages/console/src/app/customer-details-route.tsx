/**
 * Customer details with the device channel's sections, "Collect by UPI" and the plans sold for the customer's phone
 * in their slots (composed here: features do not import each other).
 */
import { CustomerDetailsScreen } from '../features/customers/components/customer-details-screen.tsx';
import { CustomerDeviceSections } from '../features/devices/components/customer-device-sections.tsx';
import { CollectByUpi } from '../features/payments/components/collect-by-upi.tsx';
import { CustomerPlansSection } from '../features/warranty/components/customer-plans.tsx';

export function CustomerDetailsRoute() {
  return <CustomerDetailsScreen DeviceSection={CustomerDeviceSections} PaymentSection={CollectByUpi} PlansSection={CustomerPlansSection} />;
}
