/** Public price list; a product without a price asks the retailer to contact the admin. */
import { useTranslation } from 'react-i18next';
import { formatRupees } from '@kisht/domain/money';
import { PublicPage } from '../../../shared/ui/page.tsx';
import { useGetPricingQuery } from '../api/pricing-api.ts';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import './info.css';

export function PricingScreen() {
  const { t } = useTranslation();
  const { data, isError, refetch } = useGetPricingQuery();
  return (
    <PublicPage title={t('pricing.title')}>
      <p className="muted">{t('pricing.intro')}</p>
      {isError && !data ? (
        <LoadErrorCard message={t('pricing.loadError')} onRetry={() => void refetch()} />
      ) : null}
      {data && data.length === 0 ? <p>{t('pricing.empty')}</p> : null}
      <ul className="list">
        {(data ?? []).map((item) => (
          <li key={`${item.product_type}-${item.name}`} className="card price-card">
            <div>
              <h2>{item.name}</h2>
              <p className="muted">
                {item.validity_days ? t('pricing.validity', { days: item.validity_days }) : t('pricing.noValidity')}
              </p>
            </div>
            {item.price_paise === null ? (
              <p className="price-card__missing">{t('pricing.contactAdmin')}</p>
            ) : (
              <p className="price-card__price">{formatRupees(item.price_paise)}</p>
            )}
          </li>
        ))}
      </ul>
    </PublicPage>
  );
}
