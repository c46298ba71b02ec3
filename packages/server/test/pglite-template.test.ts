import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { createFromTemplate, templateKey } from '../src/db/pglite-template.ts';

const work = mkdtempSync(path.join(tmpdir(), 'kisht-template-'));
const cache = path.join(work, 'cache');
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('PGlite template', () => {
  it('makes new folders migrated copies that share no rows with each other', { timeout: 180_000 }, async () => {
    const first = path.join(work, 'a', 'pglite');
    expect(await createFromTemplate(first, cache)).toEqual({ copied: true });
    expect(readdirSync(cache)).toEqual([`pglite-${await templateKey()}`]);
    const a = await openDatabase({ dataDir: first });
    expect(await migrate(a)).toEqual([]);
    await a.query(`INSERT INTO sms_outbox (recipient, body) VALUES ('+919876543210', 'only in a')`);
    await a.close();

    // An existing empty folder (as server.ts used to create) is filled too.
    const second = path.join(work, 'b');
    mkdirSync(second);
    expect(await createFromTemplate(second, cache)).toEqual({ copied: true });
    const b = await openDatabase({ dataDir: second });
    expect(await migrate(b)).toEqual([]);
    expect((await b.query('SELECT count(*)::int AS n FROM sms_outbox')).rows).toEqual([{ n: 0 }]);
    expect((await b.query('SELECT count(*)::int AS n FROM users')).rows).toEqual([{ n: 0 }]);
    await b.close();
    // Nothing is left beside the folders by the copy.
    expect(readdirSync(work).sort()).toEqual(['a', 'b', 'cache']);
  });

  it('leaves a folder that holds anything alone', async () => {
    const used = path.join(work, 'used');
    mkdirSync(used);
    writeFileSync(path.join(used, 'note.txt'), 'mine');
    expect(await createFromTemplate(used, cache)).toEqual({ copied: false });
    expect(readdirSync(used)).toEqual(['note.txt']);
  });

  it('falls back to an empty folder when the cache cannot be written', async () => {
    const blocked = path.join(work, 'not-a-folder');
    writeFileSync(blocked, '');
    const target = path.join(work, 'c', 'pglite');
    const result = await createFromTemplate(target, path.join(blocked, 'cache'));
    expect(result.copied).toBe(false);
    expect(result.problem).toBeTruthy();
    expect(existsSync(target) && readdirSync(target)).toEqual([]);
  });
});
