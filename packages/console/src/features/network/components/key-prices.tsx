/**
 * A retailer's price per key to the members below it, by product type (its "scheme"): recorded on each
 * transfer it makes, so the key history shows what each member owes up the chain. Also what it buys at.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BalanceType } from '@kisht/contract/network';
import { formatRupees } from '@kisht/domain/money';
import { paiseToRupeesText, parseRupeesToPaise } from '@kisht/domain/money-input';
import { FormDialog } from '../../../shared/ui/form-dialog.tsx';
import { RupeeField } from '../../../shared/ui/rupee-field.tsx';
import { useSetSchemeMutation } from '../api/network-api.ts';

/** The most a price per key may be (the server's limit): ₹10,00,000. */
const PRICE_MAX_PAISE = 100_000_000;

function PriceDialog({ type, onClose }: { type: BalanceType; onClose: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(type.sell_price_paise === null ? '' : paiseToRupeesText(type.sell_price_paise));
  const [error, setError] = useState<string | null>(null);
  const [save, { isLoading }] = useSetSchemeMutation();
  async function submit() {
    const paise = text.trim() === '' ? null : parseRupeesToPaise(text);
    if (text.trim() !== '' && (paise === null || paise > PRICE_MAX_PAISE)) return setError(t('addCustomer.errors.amount'));
    try {
      await save({ product_type: type.product_type, price_paise: paise }).unwrap();
      onClose();
    } catch {
      // The error toast says why.
    }
  }
  return (
    <FormDialog title={t('network.prices.editTitle', { name: type.name })} busy={isLoading} onClose={onClose} onSubmit={() => void submit()}>
      <RupeeField
        label={t('network.prices.sellLabel')}
        value={text}
        error={error}
        hint={t('network.prices.clearHint')}
        onChange={(typed) => {
          setText(typed);
          setError(null);
        }}
      />
    </FormDialog>
  );
}

export function KeyPrices({ types }: { types: BalanceType[] }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<BalanceType | null>(null);
  // Only the prices that are set, each in its own words ("You buy at ₹20"); "not set" when neither is.
  const pricesLine = (type: BalanceType) =>
    [
      type.buy_price_paise !== null ? t('network.prices.buy', { price: formatRupees(type.buy_price_paise) }) : null,
      type.sell_price_paise !== null ? t('network.prices.sell', { price: formatRupees(type.sell_price_paise) }) : null,
    ].filter(Boolean).join(' · ') || t('network.prices.notSet');
  return (
    <section className="card stack" aria-labelledby="prices-title">
      <h2 id="prices-title">{t('network.prices.title')}</h2>
      <p className="muted">{t('network.prices.help')}</p>
      <ul className="list">
        {types.map((type) => (
          <li key={type.product_type} className="price-row">
            <span className="price-row__name">{type.name}</span>
            <span className="muted small">
              {pricesLine(type)}
            </span>
            <button type="button" className="button button--secondary button--small" aria-label={`${t('network.prices.edit')}: ${type.name}`} onClick={() => setEditing(type)}>
              {t('network.prices.edit')}
            </button>
          </li>
        ))}
      </ul>
      {editing ? <PriceDialog type={editing} onClose={() => setEditing(null)} /> : null}
    </section>
  );
}
