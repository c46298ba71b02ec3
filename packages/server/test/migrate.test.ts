import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { listMigrations, migrate, splitStatements } from '../src/db/migrate.ts';

describe('migrations', () => {
  it('run once on a new PGlite data folder and not again when it is reopened', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kisht-migrate-'));
    try {
      const first = await openDatabase({ dataDir: dir });
      expect(await migrate(first)).toEqual(await listMigrations());
      await first.query(`INSERT INTO sms_outbox (recipient, body) VALUES ('+919876543210', 'kept')`);
      await first.close();
      const second = await openDatabase({ dataDir: dir });
      expect(await migrate(second)).toEqual([]);
      const kept = await second.query<{ body: string }>('SELECT body FROM sms_outbox');
      expect(kept.rows.map((r) => r.body)).toEqual(['kept']);
      expect(kept.rowCount).toBe(1);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // A new data folder runs initdb and every migration (no template here, on purpose): on a loaded CI machine
    // that alone can take most of the default 30 s.
  }, 120_000);

  it('are numbered files split into statements without comment lines', async () => {
    const names = await listMigrations();
    expect(names.length).toBeGreaterThan(0);
    names.forEach((n, i) => expect(n.startsWith(String(i + 1).padStart(3, '0'))).toBe(true));
    expect(splitStatements('-- note; here\nCREATE TABLE a (x int);\nINSERT INTO a VALUES (1);')).toEqual(['CREATE TABLE a (x int)', 'INSERT INTO a VALUES (1)']);
    // A function body keeps its semicolons.
    expect(splitStatements('CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  DELETE FROM a;\n  RETURN NULL;\nEND $$;\nSELECT 1;')).toEqual([
      'CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  DELETE FROM a;\n  RETURN NULL;\nEND $$',
      'SELECT 1',
    ]);
  });
});
