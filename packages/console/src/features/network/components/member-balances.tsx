/** A member's key balances by product type, as small chips coloured by stock (green, amber, red). */
import { useTranslation } from 'react-i18next';
import { keyStockLevel, type KeyStockLevel } from '@kisht/domain/key-stock';
import type { NetworkMember } from '@kisht/contract/network';
import { PRODUCT_TYPE_LABEL_KEYS } from '../../../shared/labels.ts';

/** Stock colours are the status colours: green 6 or more, amber 1-5, red 0. */
const STOCK_TONE: Record<KeyStockLevel, 'success' | 'warning' | 'danger'> = { ok: 'success', low: 'warning', empty: 'danger' };

export function MemberBalances({ balances }: { balances: NetworkMember['balances'] }) {
  const { t } = useTranslation();
  if (balances.length === 0) return <span className="muted">{t('network.noKeys')}</span>;
  return (
    <ul className="key-chips" aria-label={t('network.keys')}>
      {balances.map((b) => (
        <li key={b.product_type} className={`badge badge--${STOCK_TONE[keyStockLevel(b.balance)]}`}>
          {t(PRODUCT_TYPE_LABEL_KEYS[b.product_type] ?? 'productType.other')} <strong>{b.balance}</strong>
        </li>
      ))}
    </ul>
  );
}
