/** The operator's commands (signups, access switches, organisation switches), shared by the CLI and the local endpoint. */
import { LOCK_ACCESS_KEYS, ORG_FEATURE_KEYS, USER_ACCESS_KEYS, type OrgFeatureKey } from '@kisht/domain/constants';
import type { Database } from '../../db/database.ts';
import { createSignupRepository, createUsersRepository } from '../users/users.repository.ts';
import { createSignupsService } from '../users/signups.service.ts';
import { createOrgRepository } from '../config/org.repository.ts';
import { createDuesRepository } from '../dues/dues.repository.ts';
import { createDuesService } from '../dues/dues.service.ts';

export const OPERATOR_USAGE = 'commands: signups | approve <id> | reject <id> | access <mobile> key=0|1 ... | feature <org_id> <switch> on|off | dues [<org_id>] [YYYY-MM-DD] | device-policy <org_id> [offline_lock_days=N] [lock_on_sim_change=on|off] [auto_lock_days_overdue=N] [auto_unlock_when_paid=on|off] | upi <mobile> <vpa>|none';

export async function runOperatorCommand(db: Database, args: string[], print: (line: string) => void = console.log): Promise<number> {
  const [command, ...rest] = args;
  const users = createUsersRepository(db);
  // The operator decides on requests; filing them (the only use of appOrgId) happens in the API.
  const signups = createSignupsService({ db, users, signups: createSignupRepository(db), appOrgId: 0 });
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
      if (Object.keys(userAccess).length) await users.setAccess(user.id, 'user_access', userAccess);
      if (Object.keys(lockAccess).length) await users.setAccess(user.id, 'lock_access', lockAccess);
      print(`Updated access of ${user.mobile}.`);
      return 0;
    }
    case 'feature': {
      const [org, feature, state] = rest;
      if (!(ORG_FEATURE_KEYS as readonly string[]).includes(feature ?? '') || (state !== 'on' && state !== 'off')) {
        return fail(print, `usage: feature <org_id> <${ORG_FEATURE_KEYS.join('|')}> on|off`);
      }
      const changed = await createOrgRepository(db).setFeature(Number(org), feature as OrgFeatureKey, state === 'on');
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
      try {
        if (sets.length) await db.query(`UPDATE organizations SET ${sets.join(', ')} WHERE id = $1`, values);
      } catch {
        return fail(print, 'A value is out of range (offline_lock_days 1-365, auto_lock_days_overdue 0-365).');
      }
      const row = (await db.query('SELECT offline_lock_days, lock_on_sim_change, auto_lock_days_overdue, auto_unlock_when_paid FROM organizations WHERE id = $1', [Number(org)])).rows[0];
      if (!row) return fail(print, `No organisation ${org}.`);
      print(`Organisation ${org}: ${JSON.stringify(row)}`);
      return 0;
    }
    case 'upi': {
      // The retailer's UPI address, shown as a payment QR on their customers' lock screens.
      const [mobile, vpa] = rest;
      const user = mobile ? await users.findByMobile(mobile) : undefined;
      if (!user || !vpa) return fail(print, 'usage: upi <+91 mobile of an existing user> <vpa>|none');
      try {
        await db.query('UPDATE users SET upi_vpa = $2 WHERE id = $1', [user.id, vpa === 'none' ? null : vpa]);
      } catch {
        return fail(print, `${vpa}: not a UPI address (name@bank).`);
      }
      print(`UPI address of ${user.mobile}: ${vpa}.`);
      return 0;
    }
    default:
      return fail(print, OPERATOR_USAGE);
  }
}

function fail(print: (line: string) => void, message: string): number {
  print(message);
  return 1;
}
