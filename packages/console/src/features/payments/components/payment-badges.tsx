/** Status badges of a gateway order (pending, paid, held, expired, failed) and of an "I paid" claim. */
import { useTranslation } from 'react-i18next';
import type { ClaimStatus, OrderStatus } from '@kisht/contract/payments';
import { CLAIM_STATUS_LABEL_KEYS, CLAIM_STATUS_TONE, ORDER_STATUS_LABEL_KEYS, ORDER_STATUS_TONE } from '../hooks/payment-rules.ts';

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useTranslation();
  const key = ORDER_STATUS_LABEL_KEYS[status];
  return <span className={`badge badge--${ORDER_STATUS_TONE[status] ?? 'neutral'}`}>{key ? t(key) : status}</span>;
}

export function ClaimStatusBadge({ status }: { status: ClaimStatus }) {
  const { t } = useTranslation();
  const key = CLAIM_STATUS_LABEL_KEYS[status];
  return <span className={`badge badge--${CLAIM_STATUS_TONE[status] ?? 'neutral'}`}>{key ? t(key) : status}</span>;
}
