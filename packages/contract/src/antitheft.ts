/**
 * Anti-theft (decision 022): what the owner of a phone on an anti-theft product chose a SIM change does and what
 * lost mode shows, and who a SIM change alert goes to.
 */
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope.ts';
import { Mobile } from './auth.ts';
import { Id, NOT_BLANK } from './fields.ts';

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
