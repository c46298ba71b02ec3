/** Where a phone keeps its state, so a reboot (or a new process) finds it again. */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PhoneState } from './state.ts';

export interface StateStore {
  load(): PhoneState | null;
  save(state: PhoneState): void;
}

/** A store in memory: fleet mode and tests. A "reboot" keeps what was saved. */
export class MemoryStore implements StateStore {
  private text: string | null = null;
  load(): PhoneState | null {
    return this.text ? (JSON.parse(this.text) as PhoneState) : null;
  }
  save(state: PhoneState): void {
    this.text = JSON.stringify(state);
  }
}

/** A JSON file, replaced whole on each save (write then rename) so a crash never leaves half a file. */
export class JsonFileStore implements StateStore {
  constructor(readonly file: string) {}
  load(): PhoneState | null {
    try {
      return JSON.parse(readFileSync(this.file, 'utf8')) as PhoneState;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }
  save(state: PhoneState): void {
    mkdirSync(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(state, null, 2));
    renameSync(temp, this.file);
  }
}
