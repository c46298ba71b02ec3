/** Customer details with the device channel's sections in its slot (composed here: features do not import each other). */
import { CustomerDetailsScreen } from '../features/customers/components/customer-details-screen.tsx';
import { CustomerDeviceSections } from '../features/devices/components/customer-device-sections.tsx';

export function CustomerDetailsRoute() {
  return <CustomerDetailsScreen DeviceSection={CustomerDeviceSections} />;
}
