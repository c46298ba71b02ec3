/** Products, plans, brands, financiers and places: what the add-customer form chooses from. */
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope.ts';
import type { LoanProductSettings } from '@kisht/domain/loan-product';


export const Product = Type.Object({ id: Type.Integer(), product_type: Type.Integer(), name: Type.String() });
/** A loan product (decision 027): the named settings that decide a loan's schedule, chosen at enrolment. */
export const LoanProduct = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  settings: Type.Unsafe<LoanProductSettings>({ type: 'object', additionalProperties: true }),
});
export type LoanProduct = Static<typeof LoanProduct>;
export const Plan = Type.Object({
  id: Type.Integer(),
  product_id: Type.Integer(),
  name: Type.String(),
  plan_type: Type.Integer(),
  /** The app the plan installs (its product type; anti-hacking's tiers are 8, 12 and 13). */
  app_type: Type.Integer(),
  validity_days: Nullable(Type.Integer()),
  price_paise: Nullable(Type.Integer()),
  terms: Nullable(Type.String()),
});
export const Brand = Type.Object({ id: Type.Integer(), name: Type.String() });
export const Financier = Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String(), required_fields: Type.Array(Type.String()) });
export const Place = Type.Object({ id: Type.Integer(), name: Type.String() });
export const LicenseBalance = Type.Object({ product_type: Type.Integer(), balance: Type.Integer() });

export type Product = Static<typeof Product>;
export type Plan = Static<typeof Plan>;
export type Brand = Static<typeof Brand>;
export type Financier = Static<typeof Financier>;
export type Place = Static<typeof Place>;
export type LicenseBalance = Static<typeof LicenseBalance>;
