/**
 * Public price list; a product without a price asks the retailer to contact the admin. Signed in, each product
 * also shows the retailer's own price per key, set by its parent (the network's scheme); a retailer at the top of
 * its network buys from the operator at the listed prices.
 */
import { useTranslation } from 'react-i18next';
import { formatRupees } from '@kisht/domain/money';
import { PublicPage } from '../../../shared/ui/page.tsx';
import { useGetPricingQuery } from '../api/pricing-api.ts';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { useAppSelector } from '../../../shared/state/hooks.ts';
import { useGetBalanceTypesQuery, useGetMemberQuery } from '../../../shared/network/member-api.ts';
import './info.css';

export function PricingScreen() {
  const { t } = useTranslation();
  const { data, isError, refetch } = useGetPricingQuery();
  // Only once the MPIN opened the console in this page load: a guest (or a locked session) reads the public list alone.
  const signedIn = useAppSelector((state) => state.session.unlocked);
  const { data: me } = useGetMemberQuery(undefined, { skip: !signedIn });
  const { data: balances } = useGetBalanceTypesQuery(undefined, { skip: !signedIn });
  // Prices from a parent; at the top of the network the list above is the retailer's price.
  const own = me?.has_parent ? balances : undefined;
  const ownPrice = (productType: number) => own?.find((type) => type.product_type === productType)?.buy_price_paise ?? null;
  return (
    <PublicPage title={t('pricing.title')}>
      <p className="muted">{t('pricing.intro')}</p>
      {isError && !data ? (
        <LoadErrorCard message={t('pricing.loadError')} onRetry={() => void refetch()} />
      ) : null}
      {data && data.length === 0 ? <p>{t('pricing.empty')}</p> : null}
      <ul className="list">
        {(data ?? []).map((item) => {
          const yours = own ? ownPrice(item.product_type) : null;
          return (
            <li key={`${item.product_type}-${item.name}`} className="card price-card">
              <div>
                <h2>{item.name}</h2>
                <p className="muted">
                  {item.validity_days ? t('pricing.validity', { days: item.validity_days }) : t('pricing.noValidity')}
                </p>
                {yours !== null ? <p className="price-card__yours">{t('pricing.yourPrice', { price: formatRupees(yours) })}</p> : null}
              </div>
              {item.price_paise === null ? (
                <p className="price-card__missing">{t('pricing.contactAdmin')}</p>
              ) : (
                <p className="price-card__price">{formatRupees(item.price_paise)}</p>
              )}
            </li>
          );
        })}
      </ul>
      {me && !me.has_parent ? <p className="muted small">{t('pricing.yourPriceListed')}</p> : null}
      {own && own.every((type) => type.buy_price_paise === null) ? <p className="muted small">{t('pricing.yourPriceNone')}</p> : null}
    </PublicPage>
  );
}
