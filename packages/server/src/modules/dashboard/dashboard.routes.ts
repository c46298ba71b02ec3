/** GET /api/customer/get_keygen_dashboardV1: customers by status and lock, keys left, dues, collections over time. */
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import type { App } from '../../shared/types.ts';
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import { DashboardQuery, DashboardStats } from '@kisht/contract/dashboard';
import { ok } from '../../shared/reply.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import type { DashboardRepository } from './dashboard.repository.ts';
import type { CatalogueRepository } from '../catalogue/catalogue.repository.ts';
import { ownRetailerOf } from '../customers/customers.repository.ts';

export async function dashboardRoutes(app: App, opts: { dashboard: DashboardRepository; catalogue: CatalogueRepository }) {
  const { dashboard, catalogue } = opts;
  app.get('/api/customer/get_keygen_dashboardV1', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags: ['dashboard'], security: [{ bearer: [] }], summary: 'Dashboard figures of your network', querystring: DashboardQuery, response: { 200: Ok(DashboardStats), 401: ErrorReply, 511: ErrorReply } },
  }, async (request) => {
    const caller = authOf(request);
    const retailer = ownRetailerOf(caller);
    const today = todayInIndia();
    const from = addDays(today, -(request.query.days - 1));
    const [counts, dues, collected, keys] = await Promise.all([
      dashboard.statusCounts(caller.accountId, retailer),
      dashboard.dues(caller.accountId, retailer, today),
      dashboard.collections(caller.accountId, retailer, from, today),
      catalogue.licenseBalances(caller.userId),
    ]);
    const byStatus = [0, 1, 2, 3, 4, 5, 6].map((s) => ({ install_status: s, count: counts.filter((c) => c.install_status === s).reduce((n, c) => n + c.n, 0) }));
    const locked = counts.filter((c) => c.lock_status === 1).reduce((n, c) => n + c.n, 0);
    const total = counts.reduce((n, c) => n + c.n, 0);
    const collections = Array.from({ length: request.query.days }, (_, i) => {
      const date = addDays(from, i);
      return { date, amount_paise: collected.get(date) ?? 0 };
    });
    return ok(request, { total_customers: total, customers_by_status: byStatus, lock: { locked, unlocked: total - locked }, keys_left: keys, emis: dues, collections });
  });
}
