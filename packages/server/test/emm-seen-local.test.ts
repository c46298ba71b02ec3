/**
 * The anti-replay store of a PGlite server: checked in memory, written to emm_auth_seen behind the request, and
 * read back by the next start, so a restart does not reopen a value's window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmmAuthSession } from '@kisht/domain/emm-auth';
import type { Queryable } from '../src/db/database.ts';
import { localEmmSeen } from '../src/modules/security/emm-seen.local.ts';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The database as a new process would see it (its own object), counting the statements it is sent. */
function countingProcess(): Queryable & { statements: string[] } {
  const statements: string[] = [];
  return {
    statements,
    query: (sql, params, prepared) => {
      statements.push(sql);
      return t.db.query(sql, params, prepared);
    },
  };
}

const WINDOW_MS = 60_000;
const noLog = () => undefined;
const stored = async (values: string[]) =>
  (await t.db.query<{ value: string }>('SELECT value FROM emm_auth_seen WHERE value = ANY($1::text[]) ORDER BY value', [values])).rows.map((r) => r.value);

describe('the in-memory anti-replay store', () => {
  it('refuses a value seen before without a statement, then writes the new values in one', async () => {
    const process1 = countingProcess();
    const seen = await localEmmSeen(process1, WINDOW_MS, noLog);
    const atStart = process1.statements.length;
    expect(await seen.remember('a1')).toBe(true);
    expect(await seen.remember('a2')).toBe(true);
    expect(await seen.remember('a1')).toBe(false);
    expect(process1.statements.length, 'no statement on the request path').toBe(atStart);
    await seen.flush();
    expect(process1.statements.slice(atStart)).toHaveLength(1);
    expect(await stored(['a1', 'a2'])).toEqual(['a1', 'a2']);
  });

  it('still refuses after a restart what was used before it, and forgets a value only after its window', async () => {
    const before = await localEmmSeen(countingProcess(), WINDOW_MS, noLog);
    expect(await before.remember('b1')).toBe(true);
    await before.flush();
    const after = await localEmmSeen(countingProcess(), WINDOW_MS, noLog);
    expect(await after.remember('b1')).toBe(false);
    expect(await after.remember('b2')).toBe(true);
    await after.flush();
    await after.forgetOlderThan(3600);
    expect(await after.remember('b2')).toBe(false);
    await after.forgetOlderThan(0);
    expect(await stored(['b1', 'b2'])).toEqual([]);
    expect(await after.remember('b2')).toBe(true);
  });

  it('keeps refusing a value while its write fails, and writes it once the database answers', async () => {
    let failing = true;
    const flaky: Queryable = {
      query: (sql, params, prepared) => (failing && sql.startsWith('INSERT') ? Promise.reject(new Error('gone')) : t.db.query(sql, params, prepared)),
    };
    const seen = await localEmmSeen(flaky, WINDOW_MS, noLog);
    expect(await seen.remember('c1')).toBe(true);
    await seen.flush();
    expect(await stored(['c1'])).toEqual([]);
    expect(await seen.remember('c1')).toBe(false);
    failing = false;
    await seen.flush();
    expect(await stored(['c1'])).toEqual(['c1']);
  });

  it('is what a PGlite server checks: a replayed header is refused, and the value reaches the table', async () => {
    const value = await createEmmAuthSession('/api/organizations/get_org_app_config', t.config.APP_ORG_ID);
    expect((await t.get('/api/organizations/get_org_app_config', { emm: value })).statusCode).toBe(200);
    const again = await t.get('/api/organizations/get_org_app_config', { emm: value });
    expect([again.statusCode, again.json().code]).toEqual([401, 'EMM_AUTH_REPLAYED']);
    await expect.poll(() => stored([value.toLowerCase()])).toEqual([value.toLowerCase()]);
  });
});
