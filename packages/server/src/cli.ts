/**
 * Operator commands: `npm run operator -- <command>`.
 *   signups                          list pending signup requests
 *   approve <id>                     create the retailer account for a signup request
 *   reject <id>                      turn a signup request down
 *   access <mobile> key=0|1 ...      set user access (feature_access, lock_unlock, unistall, active_deactive,
 *                                    bulk_retailer) or lock access (lock, unlock, read, uninstall) switches
 *   feature <org_id> <switch> on|off witness_signature, payment_gateway or outstanding_amount
 * Uses the same configuration as the server (DATABASE_URL, or the PGlite data folder).
 */
import { mkdirSync } from 'node:fs';
import { LOCK_ACCESS_KEYS, ORG_FEATURE_KEYS, USER_ACCESS_KEYS, type OrgFeatureKey } from '@kisht/domain/constants';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { createSignupRepository, createUsersRepository } from './modules/users/users.repository.ts';
import { createOrgRepository } from './modules/config/org.repository.ts';

export async function runOperatorCommand(db: Database, args: string[], print: (line: string) => void = console.log): Promise<number> {
  const [command, ...rest] = args;
  const users = createUsersRepository(db);
  const signups = createSignupRepository(db);
  switch (command) {
    case 'signups': {
      const pending = await signups.listPending();
      if (pending.length === 0) print('No pending signup requests.');
      for (const s of pending) print(`${s.id}\t${s.mobile}\t${s.first_name} ${s.last_name}\t${s.shop_name}, ${s.city}\t${s.created_at.toISOString()}`);
      return 0;
    }
    case 'approve':
    case 'reject': {
      const id = Number(rest[0]);
      if (!Number.isInteger(id)) return fail(print, `usage: ${command} <signup id>`);
      const outcome = await db.transaction(async (tx) => {
        const request = await signups.findPendingForUpdate(id, tx);
        if (!request) return `No pending signup request ${id}.`;
        if (command === 'reject') {
          await signups.decide(id, 'rejected', null, tx);
          return `Rejected signup request ${id} (${request.mobile}).`;
        }
        if (await users.findByMobile(request.mobile, tx)) {
          await signups.decide(id, 'rejected', null, tx);
          return `${request.mobile} already has an account; request ${id} closed.`;
        }
        const user = await users.insert({ org_id: request.org_id, user_type: 'retailer', first_name: request.first_name, last_name: request.last_name, mobile: request.mobile, email: request.email, shop_name: request.shop_name, city: request.city }, tx);
        await signups.decide(id, 'approved', user.id, tx);
        return `Approved: retailer ${user.id} (${user.mobile}) can now sign in with OTP.`;
      });
      print(outcome);
      return outcome.startsWith('No pending') ? 1 : 0;
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
    default:
      return fail(print, 'commands: signups | approve <id> | reject <id> | access <mobile> key=0|1 ... | feature <org_id> <switch> on|off');
  }
}

function fail(print: (line: string) => void, message: string): number {
  print(message);
  return 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const config = loadConfig();
    if (!config.DATABASE_URL && config.DATA_DIR !== 'memory://') mkdirSync(config.DATA_DIR, { recursive: true });
    const db = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
    await migrate(db);
    const code = await runOperatorCommand(db, process.argv.slice(2));
    await db.close();
    process.exit(code);
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
}
