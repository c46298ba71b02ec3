/**
 * How a notification reads and where tapping it goes. The server sends ids and figures only (contract
 * notifications.ts); the words are the console's, in the user's language, so these take the translate function.
 */
import type { Notification } from '@kisht/contract/notifications';
import { formatRupees } from '@kisht/domain/money';
import { customerPath, receiptPath, ROUTES } from '../../../shared/routes.ts';

export type Translate = (key: string, values?: Record<string, unknown>) => string;

export interface NotificationWords {
  /** What happened, one line. */
  title: string;
  /** The particulars (new SIM, the phone's error, keys), when there are any. */
  detail: string | null;
}

type Data = Notification['data'];

// `data` is a loose record on the wire: a field of the wrong type reads as missing rather than as "undefined".
function textOf(data: Data, key: string): string | null {
  const value = data[key];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}
function numberOf(data: Data, key: string): number | null {
  const value = data[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** A device action by the device panel's name for it (`lock` -> "Lock"); an action the console does not know shows as sent. */
function commandName(command: string | null, t: Translate): string {
  if (!command) return t('notifications.unknownCommand');
  return /^[a-z_]+$/.test(command) ? t(`device.action.${command}`, { defaultValue: command }) : command;
}

/** The words of a notification: `productTypeName` names a key's product type as the key stock does. */
export function notificationWords(notification: Notification, t: Translate, productTypeName: (productType: number) => string): NotificationWords {
  const { data } = notification;
  const keyLine = () => {
    const type = numberOf(data, 'product_type');
    return t('notifications.keys', { count: numberOf(data, 'count') ?? 0, type: type === null ? '' : productTypeName(type) });
  };
  switch (notification.kind) {
    case 'sim_change': {
      const operator = textOf(data, 'operator');
      return { title: t('notifications.kind.sim_change'), detail: operator ? t('notifications.newSim', { operator }) : null };
    }
    case 'command_failed':
    case 'command_expired': {
      const error = textOf(data, 'error');
      const command = commandName(textOf(data, 'command'), t);
      const fallback = notification.kind === 'command_expired' ? t('notifications.expiredDetail') : null;
      return { title: t(`notifications.kind.${notification.kind}`, { command }), detail: error ? t('notifications.phoneSaid', { error }) : fallback };
    }
    case 'payment_received': {
      const amount = numberOf(data, 'amount_paise');
      const receipt = textOf(data, 'receipt_no');
      return {
        title: amount === null ? t('notifications.kind.payment_received_plain') : t('notifications.kind.payment_received', { amount: formatRupees(amount) }),
        detail: receipt ? t('notifications.receipt', { receipt }) : null,
      };
    }
    case 'payment_claim': {
      const amount = numberOf(data, 'amount_paise');
      return {
        title: amount === null ? t('notifications.kind.payment_claim_plain') : t('notifications.kind.payment_claim', { amount: formatRupees(amount) }),
        detail: t('notifications.claimDetail'),
      };
    }
    case 'key_request':
      return { title: t('notifications.kind.key_request', { name: textOf(data, 'from_name') ?? '' }), detail: keyLine() };
    case 'keys_received':
      return { title: t('notifications.kind.keys_received', { name: textOf(data, 'from_name') ?? '' }), detail: keyLine() };
    case 'keys_low': {
      const type = numberOf(data, 'product_type');
      return {
        title: t('notifications.kind.keys_low', { type: type === null ? '' : productTypeName(type) }),
        detail: t('notifications.keysLeft', { count: numberOf(data, 'balance') ?? 0 }),
      };
    }
    case 'phone_offline':
      return { title: t('notifications.kind.phone_offline', { count: numberOf(data, 'days') ?? 0 }), detail: t('notifications.offlineDetail') };
    case 'dues_run': {
      const amount = numberOf(data, 'amount_paise');
      return {
        title: t('notifications.kind.dues_run', { count: numberOf(data, 'instalments') ?? 0 }),
        detail: amount === null ? null : t('notifications.overdueAmount', { amount: formatRupees(amount) }),
      };
    }
    default:
      // A kind added on the server before the console knows it: still listed, still markable.
      return { title: t('notifications.kind.other'), detail: null };
  }
}

/**
 * The screen a notification opens: the customer's details for the customer kinds, the EMI screen (with the receipt
 * open when it has one) for a payment, and the key history, where requests are approved, for the key kinds.
 */
export function notificationPath(notification: Notification): string | null {
  const customerId = notification.customer_id;
  switch (notification.kind) {
    case 'payment_received': {
      if (customerId === null) return null;
      const receipt = textOf(notification.data, 'receipt_no');
      return receipt ? receiptPath(customerId, receipt) : customerPath('view_emi_details', customerId);
    }
    case 'sim_change':
    case 'phone_offline':
    case 'command_failed':
    case 'command_expired':
    case 'payment_claim':
      return customerId === null ? null : customerPath('customer_details', customerId);
    case 'key_request':
    case 'keys_received':
    case 'keys_low':
      return ROUTES.top_up_history;
    case 'dues_run':
      // What is due and overdue, to call the customers.
      return ROUTES.up_coming_emi;
    default:
      return customerId === null ? null : customerPath('customer_details', customerId);
  }
}
