/**
 * Buy keys through the gateway: product type and quantity -> Validate (the price from the seller: the parent, or the
 * operator at the top) -> Pay opens an order and shows its UPI QR. Keys are credited when the gateway confirms.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { KeyQuote, PaymentOrderView } from '@kisht/contract/payments';
import { formatRupees } from '@kisht/domain/money';
import { SelectField } from '../../../shared/ui/select-field.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { isApiFailure } from '../../../shared/api/api-failure.ts';
import { useGetBalanceTypesQuery } from '../../../shared/network/member-api.ts';
import { useBuyKeysMutation, useGetPaymentOrdersInfiniteQuery, useQuoteKeysMutation } from '../api/payments-api.ts';
import { newIdempotencyKey, parseQuantity } from '../hooks/payment-rules.ts';
import { mergeMorePages } from '../../../shared/api/paging.ts';
import { OrderQrDialog } from './order-qr.tsx';
import './payments.css';

/** A quote and the request id its order is opened with (kept for a retried Pay). */
interface Quoted {
  quote: KeyQuote;
  key: string;
}

export function BuyKeys() {
  const { t } = useTranslation();
  const { data: types = [] } = useGetBalanceTypesQuery();
  const [productType, setProductType] = useState('');
  const [quantityText, setQuantityText] = useState('1');
  const [error, setError] = useState<{ product?: string; quantity?: string }>({});
  const [quoted, setQuoted] = useState<Quoted | null>(null);
  const [noPrice, setNoPrice] = useState(false);
  const [order, setOrder] = useState<PaymentOrderView | null>(null);
  const [quoteKeys, quoting] = useQuoteKeysMutation();
  const [buyKeys, buying] = useBuyKeysMutation();
  // The order as the list (kept fresh by the server's payment events) has it: paid shows as paid.
  const { data: orders } = useGetPaymentOrdersInfiniteQuery({}, { skip: !order });
  const shown = (order && mergeMorePages(orders?.pages).find((row) => row.id === order.id)) ?? order;

  const chosenType = productType === '' ? (types[0]?.product_type ?? null) : Number(productType);

  function changed() {
    setQuoted(null);
    setNoPrice(false);
  }

  async function validate(event: FormEvent) {
    event.preventDefault();
    const quantity = parseQuantity(quantityText);
    const problems = {
      ...(chosenType === null ? { product: t('common.required') } : {}),
      ...(quantity === null ? { quantity: quantityText.trim() ? t('gateway.buy.quantityInvalid') : t('common.required') } : {}),
    };
    setError(problems);
    if (chosenType === null || quantity === null) return;
    changed();
    try {
      setQuoted({ quote: await quoteKeys({ product_type: chosenType, quantity }).unwrap(), key: newIdempotencyKey() });
    } catch (failure) {
      if (isApiFailure(failure) && failure.code === 'PRICE_UNAVAILABLE') setNoPrice(true);
    }
  }

  async function pay() {
    if (!quoted) return;
    try {
      const created = await buyKeys({ product_type: quoted.quote.product_type, quantity: quoted.quote.quantity, idempotency_key: quoted.key }).unwrap();
      setQuoted(null);
      setOrder(created);
    } catch {
      // The error toast says why; the same request id is sent again with the next try.
    }
  }

  return (
    <section className="card stack" aria-labelledby="buy-keys-title">
      <h2 id="buy-keys-title">{t('gateway.buy.title')}</h2>
      <form className="form buy-keys" noValidate onSubmit={(event) => void validate(event)}>
        <SelectField
          label={t('gateway.buy.product')}
          value={chosenType === null ? '' : String(chosenType)}
          error={error.product}
          onChange={(event) => {
            setProductType(event.target.value);
            changed();
          }}
        >
          {types.map((type) => (
            <option key={type.product_type} value={type.product_type}>
              {type.name}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('gateway.buy.quantity')}
          inputMode="numeric"
          autoComplete="off"
          maxLength={5}
          value={quantityText}
          error={error.quantity}
          onChange={(event) => {
            setQuantityText(event.target.value);
            setError({});
            changed();
          }}
        />
        <button type="submit" className="button button--secondary" disabled={quoting.isLoading}>
          {t('gateway.buy.validate')}
        </button>
      </form>
      {noPrice ? (
        <p className="buy-keys__no-price" role="status">
          {t('errors.PRICE_UNAVAILABLE')}
        </p>
      ) : null}
      {quoted ? (
        <div className="buy-keys__quote" role="status">
          <p>
            {t('gateway.buy.quote', {
              count: quoted.quote.quantity,
              unit: formatRupees(quoted.quote.unit_price_paise),
              seller: quoted.quote.seller_name,
            })}
          </p>
          <p className="buy-keys__total">{t('gateway.buy.total', { amount: formatRupees(quoted.quote.amount_paise) })}</p>
          <button type="button" className="button button--primary" disabled={buying.isLoading} onClick={() => void pay()}>
            {t('gateway.buy.pay', { amount: formatRupees(quoted.quote.amount_paise) })}
          </button>
        </div>
      ) : null}
      {shown ? <OrderQrDialog order={shown} title={t('gateway.buy.orderTitle')} onClose={() => setOrder(null)} /> : null}
    </section>
  );
}
