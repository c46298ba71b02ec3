/**
 * Family care (decision 024): the rules a parent asks the retailer to set for a child's phone, as sent to the phone
 * (protocol revision 5, the `family_rules` command), and the usage the phone reports per day and app.
 */
import { Type, type Static } from 'typebox';
import { FAMILY_LIMITS } from '@kisht/protocol/messages';
import { Nullable } from './envelope.ts';
import { Id, Page } from './fields.ts';

const Clock = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, India time' });
const App = Type.String({ minLength: 1, maxLength: FAMILY_LIMITS.appName, pattern: '^[A-Za-z][A-Za-z0-9_]*(\\.[A-Za-z0-9_]+)+$', description: 'an Android package name' });
const Minutes = Nullable(Type.Integer({ minimum: 0, maximum: 1440 }));

export const FamilyRules = Type.Object({
  daily_limit_minutes: Type.Array(Minutes, { minItems: 7, maxItems: 7, description: 'screen time a day, Sunday first; null: no limit' }),
  downtime: Type.Array(Type.Object({ start: Clock, end: Clock }, { additionalProperties: false }), { maxItems: FAMILY_LIMITS.downtimeWindows, description: 'every day; an end at or before the start runs past midnight' }),
  allowed_apps: Type.Array(App, { maxItems: FAMILY_LIMITS.apps, uniqueItems: true }),
  blocked_apps: Type.Array(App, { maxItems: FAMILY_LIMITS.apps, uniqueItems: true }),
  lock_until: Nullable(Type.String({ format: 'date-time', description: 'the phone is closed (but for calls) until then' })),
}, { additionalProperties: false });
export type FamilyRules = Static<typeof FamilyRules>;

export const FamilyCareQuery = Type.Object({ customer_id: Id });

export const FamilyRulesBody = Type.Object({ customer_id: Id, rules: FamilyRules }, { additionalProperties: false });
export type FamilyRulesBody = Static<typeof FamilyRulesBody>;

export const FamilyRenewBody = Type.Object({ customer_id: Id }, { additionalProperties: false });

export const FamilyCare = Type.Object({
  customer_id: Type.Integer(),
  /** 0 until rules are first set. */
  version: Type.Integer(),
  /** The rules as last set, or null before the first time. */
  rules: Nullable(FamilyRules),
  /** The highest version the phone confirmed it keeps; null before it confirmed any. */
  applied_version: Nullable(Type.Integer()),
  updated_at: Nullable(Type.String()),
  /** YYYY-MM-DD: the last day family care is in force (the enrolment day plus the plan's validity, or as renewed). */
  covered_until: Type.String(),
  in_cover: Type.Boolean(),
  renewal_days: Type.Integer(),
});
export type FamilyCare = Static<typeof FamilyCare>;

export const FamilyUsageQuery = Type.Object({
  customer_id: Id,
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 31, default: 7, description: 'this many India days up to today' })),
});
export type FamilyUsageQuery = Static<typeof FamilyUsageQuery>;

export const FamilyUsageDay = Type.Object({
  day: Type.String(),
  total_seconds: Type.Integer(),
  apps: Type.Array(Type.Object({ app: Type.String(), seconds: Type.Integer() })),
});
export const FamilyUsage = Type.Object({
  /** Every day of the period, oldest first; a day without a report has no apps. */
  days: Type.Array(FamilyUsageDay),
  /** When the phone last reported usage; null: never. */
  last_report_at: Nullable(Type.String()),
});
export type FamilyUsage = Static<typeof FamilyUsage>;

export const FamilyCareListQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 60 })),
  page: Page,
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
export type FamilyCareListQuery = Static<typeof FamilyCareListQuery>;

export const FamilyCarePhone = Type.Object({
  customer_id: Type.Integer(),
  customer_name: Type.String(),
  mobile: Type.String(),
  imei1: Type.String(),
  device: Type.String(),
  covered_until: Type.String(),
  in_cover: Type.Boolean(),
  enrolled: Type.Boolean(),
  /** Rules have been set (version above 0), and whether the phone confirmed the latest. */
  rules_set: Type.Boolean(),
  rules_applied: Type.Boolean(),
  /** Screen time today (India), from the phone's latest report. */
  today_seconds: Type.Integer(),
  last_check_in_at: Nullable(Type.String()),
});
export type FamilyCarePhone = Static<typeof FamilyCarePhone>;

export const FamilyCarePage = Type.Object({ total: Type.Integer(), page: Type.Integer(), limit: Type.Integer(), items: Type.Array(FamilyCarePhone) });
export type FamilyCarePage = Static<typeof FamilyCarePage>;
