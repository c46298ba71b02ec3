/** Reference lists for the add-customer form: products, plans, brands, financiers, countries, states, cities, key balances. */
import { Type } from 'typebox';
import type { App } from '../../shared/types.ts';
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import { Brand, Financier, LicenseBalance, LoanProduct, Place, Plan, Product } from '@kisht/contract/catalogue';
import { ok } from '../../shared/reply.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import { AppError } from '../../errors.ts';
import type { CatalogueRepository } from './catalogue.repository.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 404: ErrorReply, 511: ErrorReply };
const tags = ['catalogue'];
const security = [{ bearer: [] }];
const Id = Type.Integer({ minimum: 1 });

export async function catalogueRoutes(app: App, opts: { catalogue: CatalogueRepository }) {
  const { catalogue } = opts;

  app.get('/api/products', { config: { callers: SIGNED_IN, scope: 'org' }, schema: { tags, security, summary: "The organisation's products (license-key types)", response: { 200: Ok(Type.Array(Product)), ...errors } } },
    async (request) => ok(request, await catalogue.products(authOf(request).orgId)));

  app.get('/api/loan_products', { config: { callers: SIGNED_IN, scope: 'org' }, schema: { tags, security, summary: "The organisation's loan products: the named settings that decide a loan's schedule (decision 027)", response: { 200: Ok(Type.Array(LoanProduct)), ...errors } } },
    async (request) => ok(request, await catalogue.loanProducts(authOf(request).orgId)));

  app.get('/api/plans', { config: { callers: SIGNED_IN, scope: 'org' }, schema: { tags, security, summary: 'Plans, optionally of one product', querystring: Type.Object({ product_id: Type.Optional(Id) }), response: { 200: Ok(Type.Array(Plan)), ...errors } } },
    async (request) => ok(request, await catalogue.plans(authOf(request).orgId, request.query.product_id)));

  app.get('/api/plans/readById', { config: { callers: SIGNED_IN, scope: 'org' }, schema: { tags, security, summary: 'One plan', querystring: Type.Object({ plan_id: Id }), response: { 200: Ok(Plan), ...errors } } },
    async (request) => {
      const plan = await catalogue.plan(authOf(request).orgId, request.query.plan_id);
      if (!plan) throw new AppError('NOT_FOUND');
      return ok(request, plan);
    });

  app.get('/api/brands', { config: { callers: SIGNED_IN, scope: 'none' }, schema: { tags, security, summary: 'Phone brands', response: { 200: Ok(Type.Array(Brand)), ...errors } } },
    async (request) => ok(request, await catalogue.brands()));

  app.post('/api/customer/financer_list', { config: { callers: SIGNED_IN, scope: 'org' }, schema: { tags, security, summary: "The organisation's financiers and the fields each requires", response: { 200: Ok(Type.Array(Financier)), ...errors } } },
    async (request) => ok(request, await catalogue.financiers(authOf(request).orgId)));

  app.get('/api/countries', { config: { callers: SIGNED_IN, scope: 'none' }, schema: { tags, security, summary: 'Countries', response: { 200: Ok(Type.Array(Place)), ...errors } } },
    async (request) => ok(request, await catalogue.countries()));

  app.get('/api/states', { config: { callers: SIGNED_IN, scope: 'none' }, schema: { tags, security, summary: 'States of a country', querystring: Type.Object({ country_id: Id }), response: { 200: Ok(Type.Array(Place)), ...errors } } },
    async (request) => ok(request, await catalogue.states(request.query.country_id)));

  app.get('/api/cities', { config: { callers: SIGNED_IN, scope: 'none' }, schema: { tags, security, summary: 'Cities of a state', querystring: Type.Object({ state_id: Id }), response: { 200: Ok(Type.Array(Place)), ...errors } } },
    async (request) => ok(request, await catalogue.cities(request.query.state_id)));

  app.get('/api/user/license_balance', { config: { callers: SIGNED_IN, scope: 'own' }, schema: { tags, security, summary: "The caller's license keys left, by product type", response: { 200: Ok(Type.Array(LicenseBalance)), ...errors } } },
    async (request) => ok(request, await catalogue.licenseBalances(authOf(request).userId)));
}
