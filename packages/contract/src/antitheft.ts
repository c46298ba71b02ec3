/**
 * Anti-theft (decision 022): what the owner of a phone on an anti-theft product chose a SIM change does and what
 * lost mode shows, and who a SIM change alert goes to.
 */
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope.ts';
import { Mobile } from './auth.ts';
import { Id, NOT_BLANK, Page } from './fields.ts';

/** The most characters of the owner's message on the lost-mode screen. */
export const LOST_MESSAGE_MAX = 160;

export const AntitheftQuery = Type.Object({ customer_id: Id });

export const AntitheftSettingsBody = Type.Object({
  customer_id: Id,
  lost_mode_on_sim_change: Type.Boolean({ description: 'a SIM change turns lost mode on by itself' }),
  message: Nullable(Type.String({ minLength: 1, maxLength: LOST_MESSAGE_MAX, pattern: NOT_BLANK, description: 'what lost mode shows; null: the default text' })),
  contact_mobile: Nullable(Mobile),
}, { additionalProperties: false });
export type AntitheftSettingsBody = Static<typeof AntitheftSettingsBody>;

export const AntitheftRenewBody = Type.Object({ customer_id: Id }, { additionalProperties: false });
export type AntitheftRenewBody = Static<typeof AntitheftRenewBody>;

export const Antitheft = Type.Object({
  customer_id: Type.Integer(),
  lost_mode_on_sim_change: Type.Boolean(),
  message: Nullable(Type.String()),
  contact_mobile: Nullable(Type.String()),
  /** Who a SIM change alert is sent to: the owner's alternate number (when the customer has one) and the retailer. */
  alert_mobiles: Type.Array(Type.String()),
  /** When the owner's choice was last saved; null: never (the defaults apply). */
  updated_at: Nullable(Type.String()),
  /** YYYY-MM-DD: the last day anti-theft is in force (the enrolment day plus the plan's validity, or as renewed). */
  covered_until: Type.String(),
  /** Anti-theft is in force today (India): SIM changes alert and may turn lost mode on. */
  in_cover: Type.Boolean(),
  /** How many days a renewal adds (the plan's validity); a renewal uses one key of the customer's product. */
  renewal_days: Type.Integer(),
});
export type Antitheft = Static<typeof Antitheft>;

/** The anti-theft screen's list: phones sold with anti-theft, newest first; `search` as the customer list's. */
export const AntitheftListQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 60 })),
  /** lost: lost mode on as the phone last confirmed; ended: anti-theft no longer in force. */
  state: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('lost'), Type.Literal('ended')], { default: 'all' })),
  page: Page,
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
export type AntitheftListQuery = Static<typeof AntitheftListQuery>;

export const AntitheftPhone = Type.Object({
  customer_id: Type.Integer(),
  customer_name: Type.String(),
  mobile: Type.String(),
  imei1: Type.String(),
  device: Type.String(),
  covered_until: Type.String(),
  in_cover: Type.Boolean(),
  /** Lost mode is on, as the phone last confirmed. */
  lost_mode: Type.Boolean(),
  enrolled: Type.Boolean(),
  last_check_in_at: Nullable(Type.String()),
  last_sim_change_at: Nullable(Type.String()),
});
export type AntitheftPhone = Static<typeof AntitheftPhone>;

export const AntitheftPage = Type.Object({ total: Type.Integer(), page: Type.Integer(), limit: Type.Integer(), items: Type.Array(AntitheftPhone) });
export type AntitheftPage = Static<typeof AntitheftPage>;
