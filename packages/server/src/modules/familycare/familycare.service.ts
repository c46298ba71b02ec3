/**
 * Family care (decision 024): the rules a parent asks for, sent to the child's phone as the signed `family_rules`
 * command (protocol revision 5), and the usage the phone reports per day and app.
 */
import type { FamilyCare, FamilyCareListQuery, FamilyCarePage, FamilyRulesBody, FamilyUsage, FamilyUsageQuery } from '@kisht/contract/familycare';
import { PRODUCT_TYPE } from '@kisht/domain/constants';
import { accessFor } from '@kisht/domain/device-access';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import type { FamilyRules } from '@kisht/protocol/messages';
import type { Database, Queryable } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { assertAccess } from '../../plugins/access.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import { classifySearch, ownRetailerOf, type CustomerRow } from '../customers/customers.repository.ts';
import type { DevicesRepository } from '../devices/devices.repository.ts';
import type { CommandChannel } from '../devices/command-channel.ts';
import type { LicensesRepository } from '../licenses/licenses.repository.ts';
import type { Notify } from '../events/events.bus.ts';
import { createFamilyCareRepository } from './familycare.repository.ts';
import { lockCustomer, renewIn } from '../../shared/plan-cover.ts';

/** A phone may be off for weeks (a child's phone in a drawer): its rules wait for it this long. */
export const RULES_TTL_MINUTES = 60 * 24 * 60;

export function createFamilyCareService(deps: {
  db: Database;
  visible: (caller: RequestAuth, customerId: number) => Promise<CustomerRow>;
  devices: Pick<DevicesRepository, 'activeDevice'>;
  channel: Pick<CommandChannel, 'write' | 'publish'>;
  licenses: Pick<LicensesRepository, 'consumeForRenewal'>;
  notify?: Notify;
  /** Today in India (YYYY-MM-DD) and the time; tests move them. */
  today?: () => string;
  now?: () => number;
}) {
  const repository = createFamilyCareRepository(deps.db);
  const today = deps.today ?? (() => todayInIndia());
  const now = deps.now ?? Date.now;

  async function familyCustomer(caller: RequestAuth, customerId: number): Promise<CustomerRow> {
    const customer = await deps.visible(caller, customerId);
    if (customer.product_type !== PRODUCT_TYPE.FAMILYCARE) throw new AppError('NOT_FAMILYCARE');
    return customer;
  }

  async function view(customer: CustomerRow): Promise<FamilyCare> {
    const row = await repository.overview(customer.id);
    return {
      customer_id: customer.id, version: row.version, rules: row.rules, applied_version: row.applied_version,
      updated_at: row.updated_at?.toISOString() ?? null, covered_until: row.covered_until, in_cover: today() <= row.covered_until, renewal_days: row.renewal_days,
    };
  }

  /** What the schema cannot say: an app both allowed and blocked, and a lock that ends in the past. */
  function check(rules: FamilyRules): void {
    const problems: { field: string; message: string; rule: 'rules_invalid' | 'future_time' }[] = [];
    const allowed = new Set(rules.allowed_apps);
    const both = rules.blocked_apps.find((app) => allowed.has(app));
    if (both) problems.push({ field: 'rules.blocked_apps', message: `${both} is both allowed and blocked`, rule: 'rules_invalid' });
    if (rules.lock_until !== null && Date.parse(rules.lock_until) <= now()) problems.push({ field: 'rules.lock_until', message: 'must be in the future', rule: 'future_time' });
    if (problems.length > 0) throw new AppError('VALIDATION_FAILED', { details: problems });
  }

  /** Writes the rules command for the customer's phone in `tx` (none before it enrolled); publish it after commit. */
  async function writeRules(customerId: number, version: number, rules: FamilyRules, by: number, tx: Queryable) {
    const device = await deps.devices.activeDevice(customerId, tx);
    if (!device) return null;
    const { row } = await deps.channel.write({ device, type: 'family_rules', payload: { version, rules }, createdBy: by, origin: 'retailer', ttlMinutes: RULES_TTL_MINUTES, dedupe: false }, tx);
    return { device, row };
  }

  return {
    async list(caller: RequestAuth, query: FamilyCareListQuery): Promise<FamilyCarePage> {
      const search = query.search?.trim() ? classifySearch(query.search) : undefined;
      const rows = await repository.list(caller.accountId, ownRetailerOf(caller), { ...(search ? { search } : {}), today: today(), limit: query.limit, offset: (query.page - 1) * query.limit });
      return {
        total: Number(rows[0]?.total ?? 0), page: query.page, limit: query.limit,
        items: rows.map((r) => ({
          customer_id: r.customer_id, customer_name: `${r.first_name} ${r.last_name}`, mobile: r.mobile, imei1: r.imei1,
          device: [r.device_brand, r.device_model].filter(Boolean).join(' '), covered_until: r.covered_until, in_cover: r.in_cover, enrolled: r.enrolled,
          rules_set: r.version > 0, rules_applied: r.version > 0 && r.applied_version !== null && r.applied_version >= r.version,
          today_seconds: r.today_seconds, last_check_in_at: r.last_check_in_at?.toISOString() ?? null,
        })),
      };
    },

    async get(caller: RequestAuth, customerId: number): Promise<FamilyCare> {
      return view(await familyCustomer(caller, customerId));
    },

    /**
     * Saves the parent's rules as the next version and sends them to the phone in the same transaction (a phone not
     * enrolled yet gets them when it enrols). The app-restriction switch guards it, as it guards the device controls.
     */
    async save(caller: RequestAuth, body: FamilyRulesBody): Promise<FamilyCare> {
      assertAccess(caller, accessFor('family_rules'));
      const customer = await familyCustomer(caller, body.customer_id);
      check(body.rules);
      const rules: FamilyRules = {
        ...body.rules,
        lock_until: body.rules.lock_until === null ? null : new Date(body.rules.lock_until).toISOString(),
      };
      const written = await deps.db.transaction(async (tx) => {
        // The customer row first, as enrolment takes it: a phone enrolling meanwhile gets these rules either way.
        await lockCustomer(customer.id, tx);
        const version = await repository.saveRules(customer, rules, caller.userId, tx);
        return writeRules(customer.id, version, rules, caller.userId, tx);
      });
      if (written) await deps.channel.publish(written.device, written.row);
      deps.notify?.({ type: 'family_usage', customer_ids: [customer.id] }); // events
      return view(customer);
    },

    /** A phone that has just enrolled: the rules set before it, in its enrolment's transaction. */
    async onEnrolled(customerId: number, by: number, tx: Queryable) {
      const current = await repository.currentRules(customerId, tx);
      return current ? writeRules(customerId, current.version, current.rules, by, tx) : null;
    },

    /** Usage per India day for the last `days` days up to today, oldest first; a day without a report is empty. */
    async usage(caller: RequestAuth, query: FamilyUsageQuery): Promise<FamilyUsage> {
      const customer = await familyCustomer(caller, query.customer_id);
      const count = query.days ?? 7;
      const to = today();
      const from = addDays(to, 1 - count);
      const rows = await repository.usage(customer.id, from, to);
      const days = Array.from({ length: count }, (_, i) => {
        const day = addDays(from, i);
        const apps = rows.filter((r) => r.day === day).map((r) => ({ app: r.app, seconds: r.seconds }));
        return { day, total_seconds: apps.reduce((s, a) => s + a.seconds, 0), apps };
      });
      const last = await repository.lastUsageReport(customer.id);
      return { days, last_report_at: last?.toISOString() ?? null };
    },

    /** Another term with one key of the customer's product: from the last day in force, or from today once ended. */
    async renew(caller: RequestAuth, customerId: number): Promise<FamilyCare> {
      const customer = await familyCustomer(caller, customerId);
      const withdrew = await deps.db.transaction((tx) => renewIn(tx, customer, () => repository.renew(customer, today(), caller.userId, tx), caller.userId, deps.licenses));
      if (withdrew) deps.notify?.({ type: 'device_command', customer_ids: [customer.id] });
      deps.notify?.({ type: 'customer', customer_ids: [customer.id] }); // events
      deps.notify?.({ type: 'network', user_ids: [caller.userId] });
      return view(customer);
    },
  };
}
export type FamilyCareService = ReturnType<typeof createFamilyCareService>;
