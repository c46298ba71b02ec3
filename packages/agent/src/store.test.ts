import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { initialState } from './state.ts';
import { JsonFileStore } from './store.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the phone state file', () => {
  it('is replaced whole: each save reads back as written, in a folder made for it, with no temporary file left', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kisht-store-'));
    dirs.push(dir);
    const file = path.join(dir, 'phone', 'state.json');
    const store = new JsonFileStore(file);
    expect(store.load()).toBeNull();
    const state = initialState({ imei1: '357777777700011' }, []);
    for (let n = 1; n <= 3; n++) {
      state.lastEventN = n;
      state.outbox = Array.from({ length: n }, (_, i) => `event ${i} ünïcødé ₹`);
      store.save(state);
      expect(new JsonFileStore(file).load()).toEqual(state);
    }
    expect(readdirSync(path.dirname(file))).toEqual(['state.json']);
  });
});
