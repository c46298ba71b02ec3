/**
 * Anti-theft settings (decision 022): what the owner of a phone on an anti-theft product chose a SIM change does,
 * and what lost mode shows. The SIM change itself is handled where the phone reports it (devices.service).
 */
import type { Antitheft, AntitheftListQuery, AntitheftPage, AntitheftSettingsBody } from '@kisht/contract/antitheft';
import { isAntiTheftProduct } from '@kisht/domain/device-actions';
import { accessFor } from '@kisht/domain/device-access';
import type { Database } from '../../db/database.ts';
import { todayInIndia } from '@kisht/domain/format';
import type { LicensesRepository } from '../licenses/licenses.repository.ts';
import { AppError } from '../../errors.ts';
import { assertAccess } from '../../plugins/access.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import { classifySearch, ownRetailerOf, type CustomerRow } from '../customers/customers.repository.ts';
import type { Notify } from '../events/events.bus.ts';
import { createAntitheftRepository } from './antitheft.repository.ts';
import { renewIn } from '../../shared/plan-cover.ts';

export function createAntitheftService(deps: {
  db: Database;
  visible: (caller: RequestAuth, customerId: number) => Promise<CustomerRow>;
  licenses: Pick<LicensesRepository, 'consumeForRenewal'>;
  notify?: Notify;
  /** Today in India (YYYY-MM-DD); tests move it. */
  today?: () => string;
}) {
  const repository = createAntitheftRepository(deps.db);
  const today = deps.today ?? (() => todayInIndia());

  async function antitheftCustomer(caller: RequestAuth, customerId: number): Promise<CustomerRow> {
    const customer = await deps.visible(caller, customerId);
    if (!isAntiTheftProduct(customer.product_type)) throw new AppError('NOT_ANTITHEFT');
    return customer;
  }

  async function view(customer: CustomerRow): Promise<Antitheft> {
    const row = await repository.overview(customer.id);
    return {
      customer_id: customer.id,
      lost_mode_on_sim_change: row.lost_mode_on_sim_change ?? false,
      message: row.message,
      contact_mobile: row.contact_mobile,
      alert_mobiles: [...new Set([row.alt_mobile, row.retailer_mobile].filter((m): m is string => !!m))],
      updated_at: row.updated_at?.toISOString() ?? null,
      covered_until: row.covered_until,
      in_cover: today() <= row.covered_until,
      renewal_days: row.renewal_days,
    };
  }

  return {
    /** The anti-theft screen: the caller's phones sold with anti-theft (a mini-retailer: its own), newest first. */
    async list(caller: RequestAuth, query: AntitheftListQuery): Promise<AntitheftPage> {
      const search = query.search?.trim() ? classifySearch(query.search) : undefined;
      const rows = await repository.list(caller.accountId, ownRetailerOf(caller), {
        ...(search ? { search } : {}), state: query.state ?? 'all', today: today(), limit: query.limit, offset: (query.page - 1) * query.limit,
      });
      return {
        total: Number(rows[0]?.total ?? 0), page: query.page, limit: query.limit,
        items: rows.map((r) => ({
          customer_id: r.customer_id, customer_name: `${r.first_name} ${r.last_name}`, mobile: r.mobile, imei1: r.imei1,
          device: [r.device_brand, r.device_model].filter(Boolean).join(' '), covered_until: r.covered_until, in_cover: r.in_cover, lost_mode: r.lost_mode,
          enrolled: r.enrolled, last_check_in_at: r.last_check_in_at?.toISOString() ?? null, last_sim_change_at: r.last_sim_change_at?.toISOString() ?? null,
        })),
      };
    },

    async get(caller: RequestAuth, customerId: number): Promise<Antitheft> {
      return view(await antitheftCustomer(caller, customerId));
    },

    /** Saves the owner's choice; the lost-mode switch guards it, as it guards turning lost mode on by hand. */
    async save(caller: RequestAuth, body: AntitheftSettingsBody): Promise<Antitheft> {
      assertAccess(caller, accessFor('antitheft_lost_mode'));
      const customer = await antitheftCustomer(caller, body.customer_id);
      await repository.save({
        customer_id: customer.id, account_id: customer.account_id, lost_mode_on_sim_change: body.lost_mode_on_sim_change,
        message: body.message?.trim() || null, contact_mobile: body.contact_mobile, updated_by: caller.userId,
      });
      deps.notify?.({ type: 'customer', customer_ids: [customer.id] }); // events
      return view(customer);
    },

    /**
     * Renews the cover for another term of the plan's validity, with one key of the customer's product from the
     * caller's stock (409 NO_LICENSE_KEY when none is left): from the last day in force, or from today once ended.
     */
    async renew(caller: RequestAuth, customerId: number): Promise<Antitheft> {
      const customer = await antitheftCustomer(caller, customerId);
      const withdrew = await deps.db.transaction((tx) => renewIn(tx, customer, () => repository.renew(customer, today(), caller.userId, tx), caller.userId, deps.licenses));
      if (withdrew) deps.notify?.({ type: 'device_command', customer_ids: [customer.id] });
      deps.notify?.({ type: 'customer', customer_ids: [customer.id] }); // events
      deps.notify?.({ type: 'network', user_ids: [caller.userId] }); // one key fewer: the key stock and histories
      return view(customer);
    },
  };
}
export type AntitheftService = ReturnType<typeof createAntitheftService>;
