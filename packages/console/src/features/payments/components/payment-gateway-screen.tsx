/**
 * payment_gateway: the signed-in retailer's open "I paid" claims (confirm or reject), gateway payments held for
 * review (record or mark refunded), its gateway orders with their status and receipts, and buying keys through the gateway. With the organisation's payment-gateway switch off it
 * says so and shows the claims only.
 */
import { useTranslation } from 'react-i18next';
import { Page } from '../../../shared/ui/page.tsx';
import { selectAppConfig } from '../../../shared/config/config-api.ts';
import { useAppSelector } from '../../../shared/state/hooks.ts';
import { BuyKeys } from './buy-keys.tsx';
import { ConfirmedClaims, OpenClaims } from './claims-section.tsx';
import { HeldOrders } from './held-orders.tsx';
import { OrdersSection } from './orders-section.tsx';
import './payments.css';

export function PaymentGatewayScreen() {
  const { t } = useTranslation();
  // Until the organisation's switches arrive, neither the gateway's parts nor the "switched off" notice show.
  const config = useAppSelector(selectAppConfig);
  const gatewayOn = config?.features.payment_gateway === true;
  return (
    <Page title={t('gateway.title')}>
      {config && !gatewayOn ? <p className="card gateway-off">{t('gateway.off')}</p> : null}
      <OpenClaims />
      {/* Held payments need a person even after the organisation's gateway is switched off. */}
      <HeldOrders />
      {gatewayOn ? (
        <>
          <OrdersSection />
          <BuyKeys />
        </>
      ) : null}
      <ConfirmedClaims />
    </Page>
  );
}
