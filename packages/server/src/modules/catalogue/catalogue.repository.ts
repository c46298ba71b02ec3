/** Read-only reference data, always scoped to the caller's organisation where it is per organisation. */
import type { Queryable } from '../../db/database.ts';
import type { Brand, Financier, LicenseBalance, LoanProduct, Place, Plan, Product } from '@kisht/contract/catalogue';
import type { KindPlan } from '@kisht/contract/plans';

export function createCatalogueRepository(db: Queryable) {
  return {
    /** The organisation's active loan products, in its order. */
    async loanProducts(orgId: number): Promise<LoanProduct[]> {
      return (await db.query<LoanProduct>('SELECT id, name, settings FROM loan_products WHERE org_id = $1 AND active ORDER BY sort_order, id', [orgId])).rows;
    },
    async loanProduct(orgId: number, id: number): Promise<LoanProduct | undefined> {
      return (await db.query<LoanProduct>('SELECT id, name, settings FROM loan_products WHERE org_id = $1 AND id = $2 AND active', [orgId, id])).rows[0];
    },
    async products(orgId: number): Promise<Product[]> {
      return (await db.query<Product>('SELECT id, product_type, name FROM products WHERE org_id = $1 AND active ORDER BY id', [orgId])).rows;
    },
    async product(orgId: number, id: number): Promise<Product | undefined> {
      return (await db.query<Product>('SELECT id, product_type, name FROM products WHERE org_id = $1 AND id = $2 AND active', [orgId, id])).rows[0];
    },
    async plans(orgId: number, productId: number | undefined): Promise<Plan[]> {
      const res = await db.query<Plan>(
        `SELECT id, product_id, name, plan_type, app_type::int AS app_type, validity_days, price_paise, terms FROM plans
          WHERE org_id = $1 AND active AND ($2::int IS NULL OR product_id = $2) ORDER BY id`,
        [orgId, productId ?? null],
      );
      return res.rows;
    },
    async plan(orgId: number, id: number): Promise<Plan | undefined> {
      return (await db.query<Plan>('SELECT id, product_id, name, plan_type, app_type::int AS app_type, validity_days, price_paise, terms FROM plans WHERE org_id = $1 AND id = $2 AND active', [orgId, id])).rows[0];
    },
    /** The active plans of these product types whose product is active too (get_plans_antihacking, get_plans_familycare). */
    async plansOfTypes(orgId: number, productTypes: readonly number[]): Promise<KindPlan[]> {
      const res = await db.query<KindPlan>(
        `SELECT pl.id, pl.name, pl.app_type::int AS app_type, pl.product_id, pr.product_type, pl.validity_days, pl.price_paise, pl.terms
           FROM plans pl JOIN products pr ON pr.id = pl.product_id AND pr.active
          WHERE pl.org_id = $1 AND pl.active AND pr.product_type = ANY($2::int[]) ORDER BY pr.product_type, pl.price_paise NULLS LAST, pl.id`,
        [orgId, [...productTypes]],
      );
      return res.rows;
    },
    async brands(): Promise<Brand[]> {
      return (await db.query<Brand>('SELECT id, name FROM brands ORDER BY name')).rows;
    },
    async financiers(orgId: number): Promise<Financier[]> {
      return (await db.query<Financier>('SELECT id, code, name, required_fields FROM financiers WHERE org_id = $1 ORDER BY id', [orgId])).rows;
    },
    async financier(orgId: number, id: number): Promise<Financier | undefined> {
      return (await db.query<Financier>('SELECT id, code, name, required_fields FROM financiers WHERE org_id = $1 AND id = $2', [orgId, id])).rows[0];
    },
    async countries(): Promise<Place[]> {
      return (await db.query<Place>('SELECT id, name FROM countries ORDER BY name')).rows;
    },
    async states(countryId: number): Promise<Place[]> {
      return (await db.query<Place>('SELECT id, name FROM states WHERE country_id = $1 ORDER BY name', [countryId])).rows;
    },
    async cities(stateId: number): Promise<Place[]> {
      return (await db.query<Place>('SELECT id, name FROM cities WHERE state_id = $1 ORDER BY name', [stateId])).rows;
    },
    async cityInState(cityId: number, stateId: number): Promise<boolean> {
      return (await db.query('SELECT 1 FROM cities WHERE id = $1 AND state_id = $2', [cityId, stateId])).rows.length > 0;
    },
    async licenseBalances(userId: number): Promise<LicenseBalance[]> {
      return (await db.query<LicenseBalance>('SELECT product_type, balance FROM license_balances WHERE user_id = $1 ORDER BY product_type', [userId])).rows;
    },
  };
}
export type CatalogueRepository = ReturnType<typeof createCatalogueRepository>;
