/** Organisation white-labelling, feature switches and access configuration. */
import { Type, type Static } from 'typebox';
import { LANGUAGES, type Language } from '@kisht/domain/constants';

const Flag = Type.Union([Type.Literal('0'), Type.Literal('1')]);

export const OrgAppConfig = Type.Object({
  org_id: Type.Integer(),
  name: Type.String(),
  short_name: Type.String(),
  company_name: Type.String(),
  parent_company_name: Type.String(),
  ai_assistant_name: Type.String(),
  main_layout: Type.Union([Type.Literal('tabs'), Type.Literal('drawer')]),
  antihacking_layout: Type.Union([Type.Literal('standard'), Type.Literal('compact')]),
  theme: Type.Object({ primary: Type.String(), onPrimary: Type.String(), accent: Type.String(), surface: Type.String() }),
  support: Type.Object({
    phone: Type.Union([Type.String(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
    whatsapp: Type.Union([Type.String(), Type.Null()]),
    hours: Type.Union([Type.String(), Type.Null()]),
  }),
});
export type OrgAppConfig = Static<typeof OrgAppConfig>;

export const AppConfigs = Type.Object({
  features: Type.Object({
    witness_signature: Type.Boolean(),
    payment_gateway: Type.Boolean(),
    outstanding_amount: Type.Boolean(),
  }),
  languages: Type.Array(Type.Unsafe<Language>({ type: 'string', enum: [...LANGUAGES] })),
  cache_seconds: Type.Object({ default: Type.Integer(), query: Type.Integer(), plans: Type.Integer() }),
  offline_lock_days: Type.Integer(),
});
export type AppConfigs = Static<typeof AppConfigs>;

export const LockAccessConfig = Type.Object({ lock: Flag, unlock: Flag, read: Flag, uninstall: Flag });
export type LockAccessConfig = Static<typeof LockAccessConfig>;

export const UserAccessConfig = Type.Object({
  feature_access: Flag,
  lock_unlock: Flag,
  unistall: Flag,
  active_deactive: Flag,
  bulk_retailer: Flag,
  penalty_waiver: Flag,
});
export type UserAccessConfig = Static<typeof UserAccessConfig>;

export const PriceItem = Type.Object({
  product_type: Type.Integer(),
  name: Type.String(),
  validity_days: Type.Union([Type.Integer(), Type.Null()]),
  price_paise: Type.Union([Type.Integer(), Type.Null()], { description: 'null: no price set; show "Please contact admin for prices."' }),
});
export const PriceList = Type.Array(PriceItem);
export type PriceItem = Static<typeof PriceItem>;
