/** The customer list with the anti-hacking plans and the extended warranties sold as its other lists (composed here: features do not import each other). */
import { CustomerListScreen } from '../features/customers/components/customer-list-screen.tsx';
import { AntihackingSalesList } from '../features/antihacking/components/sales-list.tsx';
import { WarrantySalesList } from '../features/warranty/components/sales-list.tsx';

export function CustomerListRoute() {
  return <CustomerListScreen AntihackingList={AntihackingSalesList} WarrantyList={WarrantySalesList} />;
}
