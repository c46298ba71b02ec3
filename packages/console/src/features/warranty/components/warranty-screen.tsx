/**
 * The extended warranty route: one sale with its certificate and claims (sale_id), else the sale form (for a
 * financed customer's phone with customer_id).
 */
import { useSearchParams } from 'react-router';
import { parseId } from '../../../shared/routes.ts';
import { NotFoundScreen } from '../../../shared/ui/not-found-screen.tsx';
import { SaleScreen } from './sale-screen.tsx';
import { SellScreen } from './sell-screen.tsx';

export function WarrantyScreen() {
  const [params] = useSearchParams();
  if (params.has('sale_id')) {
    const saleId = parseId(params.get('sale_id'));
    // Keyed by the sale: another sale's screen starts with its own dialogs closed.
    return saleId === null ? <NotFoundScreen /> : <SaleScreen key={saleId} saleId={saleId} />;
  }
  return <SellScreen customerId={parseId(params.get('customer_id'))} />;
}
