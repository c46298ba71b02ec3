/** The dashboard's key stock card (composed into the dashboard by app/dashboard-route.tsx). */
import { useTranslation } from 'react-i18next';
import { Skeleton, SKELETON_SMALL } from '../../../shared/ui/skeleton.tsx';
import { LoadErrorCard } from '../../../shared/ui/load-error-card.tsx';
import { useGetBalanceTypesQuery } from '../../../shared/network/member-api.ts';
import { KeyStock } from './key-stock.tsx';

export function KeyStockCard() {
  const { t } = useTranslation();
  const { data, isLoading, isError, refetch } = useGetBalanceTypesQuery();
  if (isLoading) return <Skeleton height={SKELETON_SMALL} />;
  if (isError || !data) return <LoadErrorCard message={t('network.stock.loadError')} onRetry={() => void refetch()} as="article" />;
  return (
    <section className="card stack" aria-labelledby="key-stock-title">
      <h2 id="key-stock-title">{t('network.stock.title')}</h2>
      <KeyStock types={data} askLink />
    </section>
  );
}
