/**
 * The caller's key stock by product type, coloured green (6 or more), amber (1-5) or red (0), with a notice
 * when a type runs low and a link to ask for more. On the dashboard and on one's own profile.
 */
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { BalanceType } from '@kisht/contract/network';
import { keyStockLevel } from '@kisht/domain/key-stock';
import { memberPath } from '../hooks/member.ts';
import './network.css';

export function KeyStock({ types, askLink = false }: { types: BalanceType[]; askLink?: boolean }) {
  const { t } = useTranslation();
  if (types.length === 0) return <p className="muted">{t('network.noKeys')}</p>;
  const empty = types.filter((type) => keyStockLevel(type.balance) === 'empty');
  const low = types.filter((type) => keyStockLevel(type.balance) === 'low');
  return (
    <div className="stack">
      <ul className="key-stock">
        {types.map((type) => {
          const level = keyStockLevel(type.balance);
          return (
            <li key={type.product_type} className={`key-stock__item key-stock__item--${level}`}>
              <span className="key-stock__name">
                {type.name}
                <span className="visually-hidden">{` · ${t(`network.stock.${level}`)}`}</span>
              </span>
              <span className="key-stock__count">{type.balance}</span>
            </li>
          );
        })}
      </ul>
      {empty.length > 0 || low.length > 0 ? (
        <p className={`notice${empty.length > 0 ? ' notice--danger' : ''}`} role="status">
          {empty.length > 0
            ? t('network.stock.emptyNotice', { names: empty.map((type) => type.name).join(', ') })
            : t('network.stock.lowNotice', { names: low.map((type) => type.name).join(', ') })}
          {askLink ? (
            <>
              {' '}
              <Link to={memberPath()}>{t('network.stock.askMore')}</Link>
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
