/**
 * Anti-hacking plans (decision 020): a retailer sells a plan to a buyer's mobile number and gets an activation
 * code; the security app on the buyer's phone activates it once; the retailer may revoke it (its key comes back
 * while the code was never activated). Each sale uses one key of the plan's product type.
 */
import { randomInt } from 'node:crypto';
import { ANTIHACKING_PRODUCT_TYPES } from '@kisht/domain/constants';
import { newActivationCode, parseActivationCode } from '@kisht/domain/activation-code';
import type {
  ActivateAntihackingBody, AddAntihackingBody, AntihackingActivation, AntihackingAdded, AntihackingListQuery, AntihackingPage, AntihackingSale,
} from '@kisht/contract/plans';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../errors.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import type { AuditRecord } from '../audit/audit.repository.ts';
import type { CatalogueRepository } from '../catalogue/catalogue.repository.ts';
import { ownRetailerOf } from '../customers/customers.repository.ts';
import type { Notify } from '../events/events.bus.ts';
import type { LicensesRepository } from '../licenses/licenses.repository.ts';
import { toSale, type AntihackingRepository, type SaleRow } from './antihacking.repository.ts';

/** Refused activations (wrong code or mobile) one address may make in FAILURE_WINDOW_SECONDS before it waits. */
export const ACTIVATION_FAILURES_ALLOWED = 10;
export const FAILURE_WINDOW_SECONDS = 3600;

export interface AntihackingServiceDeps {
  db: Database;
  sales: AntihackingRepository;
  catalogue: CatalogueRepository;
  licenses: LicensesRepository;
  notify?: Notify;
  /** The audit log: an activation, or a refused one, of a known code goes in the seller's network's log. */
  audit?: (entry: AuditRecord) => Promise<void>;
}

export function createAntihackingService(deps: AntihackingServiceDeps) {
  const { db, sales, catalogue, licenses } = deps;
  const told = (row: { account_id: number; retailer_id: number }) => {
    deps.notify?.({ type: 'antihacking', account_id: row.account_id, retailer_id: row.retailer_id });
  };

  async function visible(caller: RequestAuth, id: number): Promise<SaleRow> {
    const row = await sales.find(caller.accountId, ownRetailerOf(caller), id);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  return {
    /** get_plans_antihacking: the organisation's anti-hacking plans of every tier. */
    plans: (orgId: number) => catalogue.plansOfTypes(orgId, ANTIHACKING_PRODUCT_TYPES),

    /**
     * Sells a plan: the sale and its code, and one key of the plan's product type from the seller's stock, in
     * one transaction (no key, no sale). The code is random; a clash with an earlier code (1 in 10^15 per pair)
     * is drawn again.
     */
    async add(caller: RequestAuth, body: AddAntihackingBody): Promise<AntihackingAdded> {
      const plan = await catalogue.plan(caller.orgId, body.plan_id);
      if (!plan || !ANTIHACKING_PRODUCT_TYPES.includes(plan.plan_type) || plan.app_type !== body.app_type) throw new AppError('PLAN_NOT_AVAILABLE');
      for (let attempt = 0; ; attempt++) {
        const code = newActivationCode(() => randomInt(10));
        try {
          const { id, left } = await db.transaction(async (tx) => {
            const saleId = await sales.insert({
              org_id: caller.orgId, account_id: caller.accountId, retailer_id: caller.userId, plan_id: plan.id, product_type: plan.plan_type,
              app_type: plan.app_type, plan_name: plan.name, price_paise: plan.price_paise, first_name: body.firstName.trim(), last_name: body.lastName.trim(),
              email: body.email?.trim() || null, mobile: body.mobile, code, validity_days: plan.validity_days ?? 365,
            }, tx);
            const keysLeft = await licenses.consumeForSale(caller.userId, plan.plan_type, { kind: 'antihacking', id: saleId }, tx);
            if (keysLeft === null) throw new AppError('NO_LICENSE_KEY');
            return { id: saleId, left: keysLeft };
          });
          const row = await visible(caller, id);
          told(row);
          deps.notify?.({ type: 'network', user_ids: [caller.userId] }); // one key fewer
          return [{ ...toSale(row), keys_left: left }];
        } catch (error) {
          if (attempt < 3 && isUniqueViolation(error)) continue;
          throw error;
        }
      }
    },

    async list(caller: RequestAuth, query: AntihackingListQuery): Promise<AntihackingPage> {
      const page = query.page ?? 1;
      const limit = query.limit ?? 20;
      const { rows, total } = await sales.list(caller.accountId, ownRetailerOf(caller), { ...query, page, limit });
      return { total, page, limit, items: rows.map(toSale) };
    },

    async get(caller: RequestAuth, id: number): Promise<AntihackingSale> {
      return toSale(await visible(caller, id));
    },

    /**
     * Revokes a sale (sold by mistake, refunded). The code stops working at once, also on a phone that activated it
     * (its next check is refused). The key goes back to the seller only if the code was never activated.
     */
    async revoke(caller: RequestAuth, id: number, reason: string): Promise<AntihackingSale> {
      const row = await visible(caller, id);
      const released = await db.transaction(async (tx) => {
        const revoked = await sales.revoke(row.id, caller.userId, reason.trim(), tx);
        if (!revoked || revoked.activated) return null;
        return licenses.releaseSale({ kind: 'antihacking', id: row.id }, tx);
      });
      told(row);
      if (released) deps.notify?.({ type: 'network', user_ids: [released.userId] });
      return toSale(await visible(caller, id));
    },

    /**
     * The security app activates a code, once, for the mobile it was sold to. A typo (the check digit) is refused
     * without a lookup; a wrong code or mobile counts against the address (RATE_LIMITED after
     * ACTIVATION_FAILURES_ALLOWED in an hour) and answers the same either way, so a code's mobile cannot be
     * probed. The same installation asking again gets its activation back (the answer may have been lost).
     */
    async activate(body: ActivateAntihackingBody, ip: string): Promise<AntihackingActivation> {
      const code = parseActivationCode(body.code);
      if (!code) throw new AppError('ACTIVATION_CODE_INVALID');
      if ((await sales.recentFailures(ip, FAILURE_WINDOW_SECONDS)) >= ACTIVATION_FAILURES_ALLOWED) {
        throw new AppError('RATE_LIMITED', { retry_after_seconds: FAILURE_WINDOW_SECONDS });
      }
      type Refusal = 'ACTIVATION_CODE_UNKNOWN' | 'ACTIVATION_CODE_REVOKED' | 'ACTIVATION_CODE_EXPIRED' | 'ACTIVATION_CODE_USED';
      type Outcome = { error: Refusal; row?: SaleRow } | { error?: never; row: SaleRow; fresh: boolean };
      const outcome = await db.transaction(async (tx): Promise<Outcome> => {
        const row = await sales.forActivation(code, tx);
        if (!row || row.mobile !== body.mobile) return { error: 'ACTIVATION_CODE_UNKNOWN' };
        if (row.state === 'revoked') return { error: 'ACTIVATION_CODE_REVOKED', row };
        if (row.state === 'expired') return { error: 'ACTIVATION_CODE_EXPIRED', row };
        if (row.install_id !== null && row.install_id !== body.install_id) return { error: 'ACTIVATION_CODE_USED', row };
        if (row.install_id !== null) return { row, fresh: false };
        const at = await sales.activate(row.id, body.install_id, body.device_model?.trim() || null, tx);
        return { row: { ...row, activated_at: at, install_id: body.install_id, state: 'activated' }, fresh: true };
      });
      const sale = outcome.row;
      // Seen by the seller's network (the request's own row is anonymous: a phone, not a user).
      if (sale && (outcome.error || outcome.fresh)) {
        await deps.audit?.({
          actor: 'system', orgId: sale.org_id, accountId: sale.account_id, userId: sale.retailer_id, ip,
          action: outcome.error ? 'antihacking.activation_refused' : 'antihacking.activated', status: outcome.error ? null : 200,
          errorCode: outcome.error ?? null,
          targets: { sale_id: sale.id, install_id: body.install_id.slice(0, 100), ...(body.device_model ? { device_model: body.device_model.slice(0, 100) } : {}) },
        }).catch(() => undefined);
      }
      if (outcome.error) {
        if (outcome.error === 'ACTIVATION_CODE_UNKNOWN') await sales.recordFailure(ip);
        throw new AppError(outcome.error);
      }
      if (outcome.fresh) told(outcome.row);
      return { plan_name: outcome.row.plan_name, app_type: outcome.row.app_type, activated_at: outcome.row.activated_at!, expires_at: outcome.row.expires_at };
    },
  };
}
export type AntihackingService = ReturnType<typeof createAntihackingService>;
