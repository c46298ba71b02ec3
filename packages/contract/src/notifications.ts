/**
 * Notifications for retailers (issue 14): what a retailer needs to act on in time, kept per recipient, read and unread.
 * Each names what it is about by ids; the console words it in the user's language and opens the screen concerned.
 */
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope.ts';
import { Id, Page } from './fields.ts';
import { LANGUAGES, type Language } from '@kisht/domain/constants';

export const NOTIFICATION_KINDS = [
  'sim_change', 'command_failed', 'command_expired', 'payment_received', 'payment_claim', 'key_request', 'keys_received', 'keys_low',
  'phone_offline', 'dues_run',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NotificationListQuery = Type.Object({
  page: Page,
  limit: Type.Integer({ minimum: 1, maximum: 50, default: 20 }),
  unread: Type.Optional(Type.Boolean({ description: 'only the unread ones' })),
});
export type NotificationListQuery = Static<typeof NotificationListQuery>;

export const Notification = Type.Object({
  id: Type.Integer(),
  kind: Type.Unsafe<NotificationKind>({ type: 'string', enum: [...NOTIFICATION_KINDS] }),
  /** The customer it is about, with the name to show; null for the network's own (keys). */
  customer_id: Nullable(Type.Integer()),
  customer_name: Nullable(Type.String()),
  /**
   * What the words need, by kind: sim_change {operator}; command_failed/command_expired {command, error}; payment_received
   * {amount_paise}; payment_claim {amount_paise}; key_request/keys_received {from_name, count, product_type}; keys_low
   * {product_type, balance}; phone_offline {days}; dues_run {instalments, amount_paise} (overdue in the network today).
   */
  data: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])),
  created_at: Type.String(),
  read: Type.Boolean(),
});
export type Notification = Static<typeof Notification>;

export const NotificationPage = Type.Object({
  items: Type.Array(Notification),
  /** Unread notifications in all (the bell's count). */
  unread: Type.Integer(),
  has_more: Type.Boolean(),
  page: Type.Integer(),
  limit: Type.Integer(),
});
export type NotificationPage = Static<typeof NotificationPage>;

export const NotificationReadBody = Type.Object({
  /** These; omitted: every notification of the caller. */
  ids: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 100, uniqueItems: true })),
}, { additionalProperties: false });
export type NotificationReadBody = Static<typeof NotificationReadBody>;

export const NotificationCount = Type.Object({ unread: Type.Integer() });
export type NotificationCount = Static<typeof NotificationCount>;

/**
 * The native shell's push token (docs/native-bridge.md), registered by the signed-in console so notifications reach
 * the phone while the console is closed; `language`: the one the pushes are worded in (the console's).
 */
export const PushTokenBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 4096, pattern: '^[\\x21-\\x7e]+$' }),
  language: Type.Optional(Type.Unsafe<Language>({ type: 'string', enum: [...LANGUAGES] })),
}, { additionalProperties: false });
export type PushTokenBody = Static<typeof PushTokenBody>;
export const PushTokenRemoveBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 4096 }) }, { additionalProperties: false });
export type PushTokenRemoveBody = Static<typeof PushTokenRemoveBody>;
