/** The dashboard with the network's key stock card in its slot (composed here: features do not import each other). */
import { DashboardScreen } from '../features/dashboard/components/dashboard-screen.tsx';
import { KeyStockCard } from '../features/network/components/key-stock-card.tsx';

export function DashboardRoute() {
  return <DashboardScreen KeyStockSection={KeyStockCard} />;
}
