/** The operator's commands (signups, access switches, organisation switches), shared by the CLI and the local endpoint. */
import { LOCK_ACCESS_KEYS, ORG_FEATURE_KEYS, USER_ACCESS_KEYS, type OrgFeatureKey } from '@kisht/domain/constants';
import type { Database } from '../../db/database.ts';
import { isRefusedValue, isUniqueViolation } from '../../db/errors.ts';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../errors.ts';
import { isValidVpa } from '@kisht/domain/upi';
import { PRODUCT_TYPE } from '@kisht/domain/constants';
import { parseRupeesToPaise, paiseToRupeesText } from '@kisht/domain/money-input';
import { createNetworkRepository } from '../network/network.repository.ts';
import { EVENTS_CHANNEL } from '../events/events.bus.ts';
import { createNetworkService } from '../network/network.service.ts';
import { LoanProductError, STANDARD_PRODUCT, validateProduct, type LoanProductSettings } from '@kisht/domain/loan-product';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
import { createSignupRepository, createUsersRepository } from '../users/users.repository.ts';
import { createSignupsService } from '../users/signups.service.ts';
import { createOrgRepository } from '../config/org.repository.ts';
import { createDuesRepository } from '../dues/dues.repository.ts';
import { createDuesService } from '../dues/dues.service.ts';
import { createAuditRepository } from '../audit/audit.repository.ts';
import { createAuditService } from '../audit/audit.service.ts';

export const OPERATOR_USAGE = 'commands: signups | approve <id> | reject <id> | access <mobile> key=0|1 ... | feature <org_id> <switch> on|off | dues [<org_id>] [YYYY-MM-DD] | device-policy <org_id> [offline_lock_days=N] [lock_on_sim_change=on|off] [auto_lock_days_overdue=N] [auto_unlock_when_paid=on|off] | keys <mobile> <product_type> <quantity> [transfer id] | upi <mobile> <vpa>|none | plans <org_id> | product <org_id> <product_type> <name...> | plan-add <org_id> <product_type> <validity_days> <price_rupees> <name...> | plan-set <plan_id> name=... validity_days=N price=RUPEES terms=... active=on|off | warranty-rules <plan_id> purchase_window_days=N waiting_days=N term_months=N brand_warranty_months=N max_claims=N cover_limit_bps=N covers_defects=on|off covers_accidental=on|off covers_liquid=on|off | loan-products <org_id> | loan-product-add <org_id> "<name>" [setting=value ...] | loan-product-set <id> [name=...] [active=on|off] [setting=value ...] | announce <org_id|all> "<title>" "<text>" [https link] | announce-off <id> | offer-caps <org_id> [per_day=0-10] [per_week=0-50] | audit [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--org N] (CSV)';

const LOAN_SETTING_USAGE = 'settings start from the standard product (monthly, reducing, EMI to the rupee half up); each setting=value sets one, dotted for nested ones: '
  + 'amortisation=equal_instalments|equal_principal interest=reducing|flat|zero periodRate=nominal|actual_days daysInYear=360|364|365|actual '
  + 'frequency.unit=month|week|day frequency.every=N instalmentRounding.multipleOfPaise=N instalmentRounding.mode=half_up|half_even|down|up '
  + 'interestRounding=half_up|half_even|down|up absorb=last|first principalGrace.periods=N principalGrace.kind=interest_only|none noCost=true|false '
  + 'gstOnInterestBps=N allocation.order=penalty,interest,principal allocation.across=instalment|component foreclosureFeeBps=N emiFrom=nominal_rate|period_rates emiAdjustment=none|closest_last';

/**
 * A loan product's settings with `setting=value` pairs applied (dotted paths for nested settings; numbers,
 * true/false and comma lists for the allocation order read as such), checked by the domain's own rules.
 */
export function applyLoanSettings(base: LoanProductSettings, pairs: string[]): LoanProductSettings {
  const settings = structuredClone(base) as unknown as Record<string, unknown>;
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at < 1) throw new LoanProductError(pair, 'is not setting=value');
    const path = pair.slice(0, at).split('.');
    const text = pair.slice(at + 1);
    const value = path.join('.') === 'allocation.order' ? text.split(',') : /^[0-9]{1,9}$/.test(text) ? Number(text) : text === 'true' ? true : text === 'false' ? false : text;
    let node = settings;
    for (const key of path.slice(0, -1)) {
      if (typeof node[key] !== 'object' || node[key] === null || Array.isArray(node[key])) throw new LoanProductError(path.join('.'), 'is not a setting');
      node = node[key] as Record<string, unknown>;
    }
    const leaf = path[path.length - 1]!;
    if (!(leaf in node)) throw new LoanProductError(path.join('.'), 'is not a setting');
    node[leaf] = value;
  }
  const product = settings as unknown as LoanProductSettings;
  validateProduct(product);
  return product;
}

/**
 * Runs one operator command. On PostgreSQL the API nodes are told afterwards (the events channel, as a network
 * change): a switch, a block or an account change is then read again by every node at once, whichever machine
 * the command ran on. In the server (the PGlite route) the route does the same in-process.
 */
export async function runOperatorCommand(db: Database, args: string[], print: (line: string) => void = console.log): Promise<number> {
  const code = await runCommand(db, args, print);
  if (db.driver === 'postgres') {
    await db.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, JSON.stringify({ from: 'operator', message: { type: 'network', user_ids: [], access: true } })]).catch(() => undefined);
  }
  return code;
}

async function runCommand(db: Database, args: string[], print: (line: string) => void): Promise<number> {
  const [command, ...rest] = args;
  const users = createUsersRepository(db);
  // The operator decides on requests; filing them (the only use of appOrgId) happens in the API.
  const signups = createSignupsService({ db, users, signups: createSignupRepository(db), appOrgId: 0 });
  // Changes of switches and accounts leave an audit row, whichever way the command arrived.
  const audit = createAuditService({ audit: createAuditRepository(db) });
  switch (command) {
    case 'signups': {
      const pending = await signups.pending();
      if (pending.length === 0) print('No pending signup requests.');
      for (const s of pending) print(`${s.id}\t${s.mobile}\t${s.first_name} ${s.last_name}\t${s.shop_name}, ${s.city}\t${s.created_at.toISOString()}`);
      return 0;
    }
    case 'approve':
    case 'reject': {
      const id = Number(rest[0]);
      if (!Number.isInteger(id)) return fail(print, `usage: ${command} <signup id>`);
      const outcome = await signups.decide(id, command);
      if (outcome.done) await audit.recordOperator(`operator.signup_${command}`, {}, { signup_id: id });
      print(outcome.text);
      return outcome.done ? 0 : 1;
    }
    case 'access': {
      const [mobile, ...pairs] = rest;
      const user = mobile ? await users.findByMobile(mobile) : undefined;
      if (!user) return fail(print, 'usage: access <+91 mobile of an existing user> key=0|1 ...');
      const userAccess: Record<string, '0' | '1'> = {};
      const lockAccess: Record<string, '0' | '1'> = {};
      for (const pair of pairs) {
        const [key, value] = pair.split('=');
        if (value !== '0' && value !== '1') return fail(print, `${pair}: the value must be 0 or 1`);
        if ((USER_ACCESS_KEYS as readonly string[]).includes(key!)) userAccess[key!] = value;
        else if ((LOCK_ACCESS_KEYS as readonly string[]).includes(key!)) lockAccess[key!] = value;
        else return fail(print, `${key}: not one of ${[...USER_ACCESS_KEYS, ...LOCK_ACCESS_KEYS].join(', ')}`);
      }
      // Each change and its audit row in one transaction: neither without the other.
      await db.transaction(async (tx) => {
        if (Object.keys(userAccess).length) await users.setAccess(user.id, 'user_access', userAccess, tx);
        if (Object.keys(lockAccess).length) await users.setAccess(user.id, 'lock_access', lockAccess, tx);
        await audit.recordOperator('operator.access', { orgId: user.org_id, accountId: user.account_id, userId: user.id }, { user_access: userAccess, lock_access: lockAccess }, tx);
      });
      print(`Updated access of ${user.mobile}.`);
      return 0;
    }
    case 'feature': {
      const [org, feature, state] = rest;
      if (!(ORG_FEATURE_KEYS as readonly string[]).includes(feature ?? '') || (state !== 'on' && state !== 'off')) {
        return fail(print, `usage: feature <org_id> <${ORG_FEATURE_KEYS.join('|')}> on|off`);
      }
      const changed = await db.transaction(async (tx) => {
        if (!(await createOrgRepository(tx).setFeature(Number(org), feature as OrgFeatureKey, state === 'on', tx))) return false;
        await audit.recordOperator('operator.feature', { orgId: Number(org) }, { feature, on: state === 'on' }, tx);
        return true;
      });
      if (!changed) return fail(print, `No organisation ${org}.`);
      print(`Organisation ${org}: ${feature} ${state}.`);
      return 0;
    }
    case 'dues': {
      // dues [YYYY-MM-DD] runs every organisation's day that has not run; dues <org_id> <YYYY-MM-DD> runs one again.
      const service = createDuesService({ db, dues: createDuesRepository(db) });
      if (rest.length === 2) {
        const stats = await service.rerun(Number(rest[0]), rest[1]!);
        if (!stats) return fail(print, `No organisation ${rest[0]}.`);
        print(`Organisation ${rest[0]}, ${rest[1]}: ${JSON.stringify(stats)}`);
        return 0;
      }
      const done = rest[0] ? await service.runDue(rest[0]) : await service.runDue();
      if (done.size === 0) print('Nothing to run: every organisation has run that day.');
      for (const [org, stats] of done) print(`Organisation ${org}: ${JSON.stringify(stats)}`);
      return 0;
    }
    case 'device-policy': {
      // The organisation's device policies; with no settings it prints them.
      const [org, ...pairs] = rest;
      const columns: Record<string, 'days' | 'switch'> = { offline_lock_days: 'days', lock_on_sim_change: 'switch', auto_lock_days_overdue: 'days', auto_unlock_when_paid: 'switch' };
      const sets: string[] = [];
      const values: unknown[] = [Number(org)];
      for (const pair of pairs) {
        const [key, value] = pair.split('=');
        const kind = columns[key ?? ''];
        if (!kind) return fail(print, `${key}: not one of ${Object.keys(columns).join(', ')}`);
        if (kind === 'switch' && value !== 'on' && value !== 'off') return fail(print, `${key}: on or off`);
        if (kind === 'days' && !/^[0-9]{1,3}$/.test(value ?? '')) return fail(print, `${key}: a number of days`);
        values.push(kind === 'switch' ? value === 'on' : Number(value));
        sets.push(`${key} = $${values.length}`);
      }
      let row: unknown;
      try {
        row = await db.transaction(async (tx) => {
          const updated = sets.length ? (await tx.query(`UPDATE organizations SET ${sets.join(', ')} WHERE id = $1`, values)).rowCount : 0;
          if (updated) await audit.recordOperator('operator.device_policy', { orgId: Number(org) }, { settings: pairs }, tx);
          return (await tx.query('SELECT offline_lock_days, lock_on_sim_change, auto_lock_days_overdue, auto_unlock_when_paid FROM organizations WHERE id = $1', [Number(org)])).rows[0];
        });
      } catch (error) {
        if (!isRefusedValue(error)) throw error;
        return fail(print, 'A value is out of range (offline_lock_days 1-365, auto_lock_days_overdue 0-365).');
      }
      if (!row) return fail(print, `No organisation ${org}.`);
      print(`Organisation ${org}: ${JSON.stringify(row)}`);
      return 0;
    }
    case 'keys': {
      // keys <mobile> <product_type> <quantity> [transfer id]: the operator's top-up of a member's keys. The
      // transfer id (default: a new one) makes a repeated command move keys once.
      const [mobile, type, count, id] = rest;
      const quantity = Number(count);
      const productType = Number(type);
      if (!mobile || !Number.isInteger(productType) || productType < 0 || !Number.isInteger(quantity) || quantity < 1 || quantity > 100_000 || (id !== undefined && !UUID.test(id))) {
        return fail(print, 'usage: keys <+91 mobile> <product_type> <quantity 1-100000> [transfer id (uuid)]');
      }
      const network = createNetworkService({ db, users, network: createNetworkRepository(db) });
      try {
        const transfer = await db.transaction(async (tx) => {
          const done = await network.topUp(mobile, productType, quantity, id ?? randomUUID(), tx);
          await audit.recordOperator('operator.keys_topup', { userId: done.to_user_id }, { transfer_id: done.id, product_type: productType, quantity }, tx);
          return done;
        });
        print(`Keys topped up: ${quantity} of product type ${productType} to ${mobile} (transfer ${transfer.id}).`);
        return 0;
      } catch (error) {
        if (error instanceof AppError && error.code === 'NOT_FOUND') return fail(print, `No user with mobile ${mobile}.`);
        throw error;
      }
    }
    case 'upi': {
      // The retailer's UPI ID: the same one its Payment QR screen sets and shows, and the lock screens' payment QR.
      const [mobile, vpa] = rest;
      const user = mobile ? await users.findByMobile(mobile) : undefined;
      if (!user || !vpa) return fail(print, 'usage: upi <+91 mobile of an existing user> <vpa>|none');
      if (vpa !== 'none' && !isValidVpa(vpa)) return fail(print, `${vpa}: not a UPI address (name@bank).`);
      try {
        await db.transaction(async (tx) => {
          // A new address drops the payee name read from the old QR (it named someone else's account, maybe).
          await tx.query('UPDATE users SET upi_id = $2, upi_name = CASE WHEN upi_id IS NOT DISTINCT FROM $2 THEN upi_name END WHERE id = $1', [user.id, vpa === 'none' ? null : vpa]);
          await audit.recordOperator('operator.upi', { orgId: user.org_id, accountId: user.account_id, userId: user.id }, { vpa }, tx);
        });
      } catch (error) {
        if (!isRefusedValue(error)) throw error;
        return fail(print, `${vpa}: not a UPI address (name@bank).`);
      }
      print(`UPI address of ${user.mobile}: ${vpa}.`);
      return 0;
    }
    case 'plans': {
      // plans <org_id>: the organisation's products and plans, switched off ones too.
      const orgId = Number(rest[0]);
      if (!Number.isInteger(orgId) || orgId < 1) return fail(print, 'usage: plans <org_id>');
      const rows = (await db.query<{ product_id: number; product_type: number; product: string; product_active: boolean; id: number | null; name: string | null; validity_days: number | null; price_paise: number | null; active: boolean | null }>(
        `SELECT pr.id AS product_id, pr.product_type, pr.name AS product, pr.active AS product_active, pl.id, pl.name, pl.validity_days, pl.price_paise, pl.active
           FROM products pr LEFT JOIN plans pl ON pl.product_id = pr.id WHERE pr.org_id = $1 ORDER BY pr.product_type, pl.id`, [orgId],
      )).rows;
      if (rows.length === 0) print(`Organisation ${orgId} has no products.`);
      for (const r of rows) {
        const product = `product ${r.product_id} type ${r.product_type} ${r.product}${r.product_active ? '' : ' (off)'}`;
        print(r.id === null ? `${product}\t(no plan)` : `${product}\tplan ${r.id}\t${r.name}\t${r.validity_days ?? '-'} days\t${r.price_paise === null ? 'no price' : `Rs ${paiseToRupeesText(r.price_paise)}`}${r.active ? '' : '\t(off)'}`);
      }
      return 0;
    }
    case 'product': {
      // product <org_id> <product_type> <name...>: adds the organisation's product of that type, or renames it.
      const [org, type, ...words] = rest;
      const orgId = Number(org);
      const productType = Number(type);
      const name = words.join(' ').trim();
      if (!Number.isInteger(orgId) || !(Object.values(PRODUCT_TYPE) as number[]).includes(productType) || !name || name.length > 100) {
        return fail(print, `usage: product <org_id> <product_type: ${Object.entries(PRODUCT_TYPE).map(([k, v]) => `${v} ${k}`).join(', ')}> <name>`);
      }
      const saved = await db.transaction(async (tx) => {
        const row = (await tx.query<{ id: number }>(
          `INSERT INTO products (org_id, product_type, name) SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM organizations WHERE id = $1)
           ON CONFLICT (org_id, product_type) DO UPDATE SET name = EXCLUDED.name, active = true RETURNING id`, [orgId, productType, name],
        )).rows[0];
        if (row) await audit.recordOperator('operator.product', { orgId }, { product_type: productType, name }, tx);
        return row;
      });
      if (!saved) return fail(print, `No organisation ${orgId}.`);
      print(`Product ${saved.id}: type ${productType}, ${name}.`);
      return 0;
    }
    case 'plan-add': {
      // plan-add <org_id> <product_type> <validity_days> <price_rupees> <name...>: a plan of the organisation's product of that type.
      const [org, type, days, price, ...words] = rest;
      const orgId = Number(org);
      const productType = Number(type);
      const validity = Number(days);
      const pricePaise = parseRupeesToPaise(price ?? '');
      const name = words.join(' ').trim();
      if (!Number.isInteger(orgId) || !Number.isInteger(productType) || !Number.isInteger(validity) || validity < 1 || validity > 3650 || pricePaise === null || !name || name.length > 100) {
        return fail(print, 'usage: plan-add <org_id> <product_type> <validity_days 1-3650> <price in rupees, e.g. 299 or 299.50> <name>');
      }
      const plan = await db.transaction(async (tx) => {
        const row = (await tx.query<{ id: number }>(
          `INSERT INTO plans (org_id, product_id, name, plan_type, app_type, validity_days, price_paise)
           SELECT p.org_id, p.id, $3, p.product_type, p.product_type, $4, $5 FROM products p WHERE p.org_id = $1 AND p.product_type = $2 RETURNING id`,
          [orgId, productType, name, validity, pricePaise],
        )).rows[0];
        if (row) await audit.recordOperator('operator.plan_add', { orgId }, { plan_id: row.id, product_type: productType, validity_days: validity, price_paise: pricePaise }, tx);
        return row;
      });
      if (!plan) return fail(print, `Organisation ${orgId} has no product of type ${productType} (add it with: product ${orgId} ${productType} <name>).`);
      print(`Plan ${plan.id}: ${name}, ${validity} days, Rs ${paiseToRupeesText(pricePaise)}.`);
      return 0;
    }
    case 'plan-set': {
      // plan-set <plan_id> key=value ...: name, validity_days, price (rupees), terms, active (on|off).
      const [id, ...pairs] = rest;
      const planId = Number(id);
      const sets: string[] = [];
      const values: unknown[] = [planId];
      const changed: Record<string, unknown> = {};
      for (const pair of pairs) {
        const at = pair.indexOf('=');
        const key = pair.slice(0, at);
        const value = pair.slice(at + 1);
        if (key === 'name' && value.trim() && value.length <= 100) sets.push(`name = $${values.push(value.trim())}`);
        else if (key === 'validity_days' && /^[0-9]{1,4}$/.test(value) && Number(value) >= 1 && Number(value) <= 3650) sets.push(`validity_days = $${values.push(Number(value))}`);
        else if (key === 'price' && parseRupeesToPaise(value) !== null) sets.push(`price_paise = $${values.push(parseRupeesToPaise(value))}`);
        else if (key === 'terms' && value.length <= 4000) sets.push(`terms = $${values.push(value.trim() || null)}`);
        else if (key === 'active' && (value === 'on' || value === 'off')) sets.push(`active = $${values.push(value === 'on')}`);
        else return fail(print, 'usage: plan-set <plan_id> [name=...] [validity_days=1-3650] [price=RUPEES] [terms=...] [active=on|off]');
        changed[key] = key === 'price' ? parseRupeesToPaise(value) : value;
      }
      if (!Number.isInteger(planId) || planId < 1 || sets.length === 0) return fail(print, 'usage: plan-set <plan_id> [name=...] [validity_days=1-3650] [price=RUPEES] [terms=...] [active=on|off]');
      // A plan already sold keeps what it was sold with (each sale stores its plan's name and expiry).
      const plan = await db.transaction(async (tx) => {
        const row = (await tx.query<{ org_id: number }>(`UPDATE plans SET ${sets.join(', ')} WHERE id = $1 RETURNING org_id`, values)).rows[0];
        if (row) await audit.recordOperator('operator.plan_set', { orgId: row.org_id }, { plan_id: planId, ...changed }, tx);
        return row;
      });
      if (!plan) return fail(print, `No plan ${planId}.`);
      print(`Plan ${planId} updated.`);
      return 0;
    }
    case 'warranty-rules': {
      // warranty-rules <plan_id> key=value ...: an extended-warranty plan's rules; sales keep the rules they were sold with.
      const usage = 'usage: warranty-rules <plan_id> [purchase_window_days=0-365] [waiting_days=0-365] [term_months=1-120] [brand_warranty_months=0-60] [max_claims=1-20] [cover_limit_bps=1-10000] [covers_defects|covers_accidental|covers_liquid=on|off]';
      const [id, ...pairs] = rest;
      const planId = Number(id);
      const numbers: Record<string, [number, number]> = {
        purchase_window_days: [0, 365], waiting_days: [0, 365], term_months: [1, 120], brand_warranty_months: [0, 60], max_claims: [1, 20], cover_limit_bps: [1, 10_000],
      };
      const flags = ['covers_defects', 'covers_accidental', 'covers_liquid'];
      const sets: string[] = [];
      const values: unknown[] = [planId];
      const changed: Record<string, number | boolean> = {};
      for (const pair of pairs) {
        const at = pair.indexOf('=');
        const key = pair.slice(0, at);
        const value = pair.slice(at + 1);
        const range = numbers[key];
        if (range && /^[0-9]{1,5}$/.test(value) && Number(value) >= range[0] && Number(value) <= range[1]) changed[key] = Number(value);
        else if (flags.includes(key) && (value === 'on' || value === 'off')) changed[key] = value === 'on';
        else return fail(print, usage);
        sets.push(`${key} = $${values.push(changed[key])}`);
      }
      if (!Number.isInteger(planId) || planId < 1 || sets.length === 0) return fail(print, usage);
      try {
        const plan = await db.transaction(async (tx) => {
          const row = (await tx.query<{ org_id: number }>(
            `UPDATE warranty_rules r SET ${sets.join(', ')} FROM plans p WHERE r.plan_id = $1 AND p.id = r.plan_id RETURNING p.org_id`, values,
          )).rows[0];
          if (row) await audit.recordOperator('operator.warranty_rules', { orgId: row.org_id }, { plan_id: planId, ...changed }, tx);
          return row;
        });
        if (!plan) return fail(print, `No extended-warranty plan ${planId}.`);
      } catch (error) {
        // The table's checks: damage cover only with an insurer, a defect cover that ends after the brand warranty.
        if (isRefusedValue(error)) return fail(print, `Plan ${planId}: these rules break the plan's checks (accidental or liquid damage only for insurance; the brand warranty shorter than the term; something covered).`);
        throw error;
      }
      print(`Plan ${planId}: rules updated.`);
      return 0;
    }
    case 'announce': {
      // announce <org_id|all> "<title>" "<text>" [link]: shown once on load to the organisation's retailers (or everyone's) until dismissed.
      const [org, rawTitle, rawText, link] = rest;
      const orgId = org === 'all' ? null : Number(org);
      const title = (rawTitle ?? '').trim();
      const text = (rawText ?? '').trim();
      const usage = 'usage: announce <org_id|all> "<title, 1-80 characters>" "<text, 1-500 characters>" [https link]';
      if ((orgId !== null && (!Number.isInteger(orgId) || orgId < 1)) || !title || title.length > 80 || !text || text.length > 500) return fail(print, usage);
      if (link !== undefined && !/^https:\/\/\S{1,490}$/.test(link)) return fail(print, usage);
      const made = await db.transaction(async (tx) => {
        const row = (await tx.query<{ id: number }>(
          `INSERT INTO announcements (org_id, title, text, link) SELECT $1, $2, $3, $4 WHERE $1::int IS NULL OR EXISTS (SELECT 1 FROM organizations WHERE id = $1) RETURNING id`,
          [orgId, title, text, link ?? null],
        )).rows[0];
        if (row) await audit.recordOperator('operator.announce', { orgId }, { announcement_id: row.id }, tx);
        return row;
      });
      if (!made) return fail(print, `No organisation ${org}.`);
      print(`Announcement ${made.id}: shown once to ${orgId === null ? 'every organisation' : `organisation ${orgId}`}'s retailers.`);
      return 0;
    }
    case 'announce-off': {
      const id = Number(rest[0]);
      if (!Number.isInteger(id) || id < 1) return fail(print, 'usage: announce-off <id>');
      const row = (await db.query<{ org_id: number | null }>('UPDATE announcements SET active = false WHERE id = $1 RETURNING org_id', [id])).rows[0];
      if (!row) return fail(print, `No announcement ${id}.`);
      await audit.recordOperator('operator.announce_off', { orgId: row.org_id }, { announcement_id: id });
      print(`Announcement ${id} is no longer shown.`);
      return 0;
    }
    case 'offer-caps': {
      // offer-caps <org_id> per_day=N per_week=N: offers per phone per India day and per week (decision 029).
      const [org, ...pairs] = rest;
      const orgId = Number(org);
      const usage = 'usage: offer-caps <org_id> [per_day=0-10] [per_week=0-50]';
      const value = (key: string, max: number) => {
        const pair = pairs.find((p) => p.startsWith(`${key}=`));
        if (pair === undefined) return undefined;
        const n = Number(pair.slice(key.length + 1));
        return /^[0-9]{1,2}$/.test(pair.slice(key.length + 1)) && n <= max ? n : NaN;
      };
      const perDay = value('per_day', 10);
      const perWeek = value('per_week', 50);
      if (!Number.isInteger(orgId) || orgId < 1 || pairs.length === 0 || Number.isNaN(perDay) || Number.isNaN(perWeek) || pairs.some((p) => !/^per_(day|week)=/.test(p))) return fail(print, usage);
      const row = (await db.query<{ per_day: number; per_week: number }>(
        'UPDATE organizations SET offers_per_day = coalesce($2, offers_per_day), offers_per_week = coalesce($3, offers_per_week) WHERE id = $1 RETURNING offers_per_day AS per_day, offers_per_week AS per_week',
        [orgId, perDay ?? null, perWeek ?? null],
      )).rows[0];
      if (!row) return fail(print, `No organisation ${orgId}.`);
      await audit.recordOperator('operator.offer_caps', { orgId }, { per_day: row.per_day, per_week: row.per_week });
      print(`Organisation ${orgId}: at most ${row.per_day} offers a day and ${row.per_week} a week per phone.`);
      return 0;
    }
    case 'loan-products': {
      // loan-products <org_id>: the organisation's loan products, retired ones too, with their settings.
      const orgId = Number(rest[0]);
      if (!Number.isInteger(orgId) || orgId < 1) return fail(print, 'usage: loan-products <org_id>');
      const rows = (await db.query<{ id: number; name: string; active: boolean; settings: LoanProductSettings; loans: number }>(
        `SELECT p.id, p.name, p.active, p.settings, (SELECT count(*)::int FROM customers c WHERE c.loan_product_id = p.id) AS loans
           FROM loan_products p WHERE p.org_id = $1 ORDER BY p.sort_order, p.id`, [orgId],
      )).rows;
      if (rows.length === 0) print(`Organisation ${orgId} has no loan products.`);
      for (const r of rows) print(`loan product ${r.id}\t${r.name}${r.active ? '' : ' (retired)'}\t${r.loans} loans\t${JSON.stringify(r.settings)}`);
      return 0;
    }
    case 'loan-product-add': {
      // loan-product-add <org_id> "<name>" [setting=value ...]: a new loan product, from the standard one.
      const [org, rawName, ...pairs] = rest;
      const orgId = Number(org);
      const name = (rawName ?? '').trim();
      if (!Number.isInteger(orgId) || orgId < 1 || !name || name.length > 80 || name.includes('=')) return fail(print, `usage: loan-product-add <org_id> "<name, 1-80 characters>" [setting=value ...]; ${LOAN_SETTING_USAGE}`);
      let settings: LoanProductSettings;
      try {
        settings = applyLoanSettings(STANDARD_PRODUCT, pairs);
      } catch (error) {
        if (error instanceof LoanProductError) return fail(print, `Not a loan product: ${error.message}. ${LOAN_SETTING_USAGE}`);
        throw error;
      }
      const saved = await db.transaction(async (tx) => {
        const row = (await tx.query<{ id: number }>(
          `INSERT INTO loan_products (org_id, name, settings, sort_order)
           SELECT $1, $2, $3, coalesce((SELECT max(sort_order) + 1 FROM loan_products WHERE org_id = $1), 0) WHERE EXISTS (SELECT 1 FROM organizations WHERE id = $1)
           ON CONFLICT (org_id, name) DO NOTHING RETURNING id`,
          [orgId, name, JSON.stringify(settings)],
        )).rows[0];
        if (row) await audit.recordOperator('operator.loan_product_add', { orgId }, { loan_product_id: row.id, name }, tx);
        return row;
      });
      if (!saved) return fail(print, `No organisation ${orgId}, or it already has a loan product named "${name}".`);
      print(`Loan product ${saved.id}: ${name}.`);
      return 0;
    }
    case 'loan-product-set': {
      // loan-product-set <id> [name=...] [active=on|off] [setting=value ...]: loans already made keep the settings they were made with.
      const [id, ...pairs] = rest;
      const productId = Number(id);
      const usage = `usage: loan-product-set <id> [name=...] [active=on|off] [setting=value ...]; ${LOAN_SETTING_USAGE}`;
      if (!Number.isInteger(productId) || productId < 1 || pairs.length === 0) return fail(print, usage);
      const named = pairs.find((p) => p.startsWith('name='))?.slice(5).trim();
      const active = pairs.find((p) => p.startsWith('active='))?.slice(7);
      if (named !== undefined && (!named || named.length > 80)) return fail(print, usage);
      if (active !== undefined && active !== 'on' && active !== 'off') return fail(print, usage);
      const settingPairs = pairs.filter((p) => !p.startsWith('name=') && !p.startsWith('active='));
      const result = await db.transaction(async (tx) => {
        const row = (await tx.query<{ org_id: number; settings: LoanProductSettings }>('SELECT org_id, settings FROM loan_products WHERE id = $1 FOR UPDATE', [productId])).rows[0];
        if (!row) return 'missing' as const;
        let settings: LoanProductSettings;
        try {
          settings = applyLoanSettings(row.settings, settingPairs);
        } catch (error) {
          if (error instanceof LoanProductError) return error;
          throw error;
        }
        await tx.query(
          'UPDATE loan_products SET settings = $2, name = coalesce($3, name), active = coalesce($4, active) WHERE id = $1',
          [productId, JSON.stringify(settings), named ?? null, active === undefined ? null : active === 'on'],
        );
        await audit.recordOperator('operator.loan_product_set', { orgId: row.org_id }, { loan_product_id: productId, ...(named ? { name: named } : {}), ...(active ? { active } : {}), settings: settingPairs }, tx);
        return 'saved' as const;
      }).catch((error: unknown) => {
        if (isUniqueViolation(error)) return 'taken' as const;
        throw error;
      });
      if (result === 'missing') return fail(print, `No loan product ${productId}.`);
      if (result === 'taken') return fail(print, `Another loan product of the organisation is named "${named}".`);
      if (result instanceof LoanProductError) return fail(print, `Not a loan product: ${result.message}. ${LOAN_SETTING_USAGE}`);
      print(`Loan product ${productId} updated; loans already made keep the settings they were made with.`);
      return 0;
    }
    case 'audit': {
      // audit [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--org N]: the log as CSV, oldest first.
      const filter: { from?: string; to?: string; orgId?: number } = {};
      for (let i = 0; i < rest.length; i += 2) {
        const [flag, value = ''] = [rest[i], rest[i + 1]];
        if ((flag === '--from' || flag === '--to') && isCalendarDate(value)) filter[flag === '--from' ? 'from' : 'to'] = value;
        else if (flag === '--org' && /^[0-9]{1,9}$/.test(value)) filter.orgId = Number(value);
        else return fail(print, 'usage: audit [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--org N]');
      }
      await audit.exportCsv(filter, print);
      return 0;
    }
    default:
      return fail(print, OPERATOR_USAGE);
  }
}

/** A real YYYY-MM-DD day from 1900 to 2199 (not 2026-02-31). */
function isCalendarDate(value: string): boolean {
  if (!/^(19|20|21)[0-9]{2}-[0-9]{2}-[0-9]{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}

function fail(print: (line: string) => void, message: string): number {
  print(message);
  return 1;
}
