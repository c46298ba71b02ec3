import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.ts';

/**
 * PGlite runs statements on the server's own thread. A backlog of them must still leave the event loop its
 * turns (timers, sockets, accepting connections), and must still run in the order it was asked for, with a
 * transaction's statements never interleaved with others.
 */
describe('the embedded database under a backlog', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ dataDir: 'memory://' });
    await db.query('CREATE TABLE pacing (id serial PRIMARY KEY, n int NOT NULL)');
  });
  afterAll(() => db.close());

  it('lets a timer run while a backlog of statements is worked through', async () => {
    const statements = 2000;
    let finished = 0;
    const all = Promise.all(Array.from({ length: statements }, (_, n) => db.query('INSERT INTO pacing (n) VALUES ($1)', [n]).then(() => finished++)));
    // Without turns for the loop, this timer would fire only once every statement had run.
    const finishedWhenTimerRan = await new Promise<number>((resolve) => setTimeout(() => resolve(finished), 0));
    await all;
    expect(finished).toBe(statements);
    expect(finishedWhenTimerRan).toBeLessThan(statements);
    const rows = await db.query<{ n: number }>('SELECT n FROM pacing ORDER BY id');
    expect(rows.rows.map((r) => r.n)).toEqual(Array.from({ length: statements }, (_, n) => n));
  });

  it('keeps a transaction whole while other statements wait, and a failed one leaves nothing and blocks no one', async () => {
    await db.query('DELETE FROM pacing');
    const order: string[] = [];
    const tx = db.transaction(async (q) => {
      await q.query('INSERT INTO pacing (n) VALUES (1)');
      order.push('tx first');
      await new Promise((resolve) => setTimeout(resolve, 20));
      const inside = await q.query<{ c: number }>('SELECT count(*)::int AS c FROM pacing');
      order.push(`tx sees ${inside.rows[0]!.c}`);
    });
    const outside = db.query('INSERT INTO pacing (n) VALUES (2)').then(() => order.push('outside'));
    const failing = db.transaction(async (q) => {
      await q.query('INSERT INTO pacing (n) VALUES (3)');
      throw new Error('refused');
    });
    await expect(failing).rejects.toThrow('refused');
    await Promise.all([tx, outside]);
    expect(order).toEqual(['tx first', 'tx sees 1', 'outside']);
    const left = await db.query<{ n: number }>('SELECT n FROM pacing ORDER BY n');
    expect(left.rows.map((r) => r.n)).toEqual([1, 2]);
  });
});
