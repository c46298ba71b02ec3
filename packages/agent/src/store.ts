/** Where a phone keeps its state, so a reboot (or a new process) finds it again. */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
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

/** Writes `text` to `file` and waits until the disk has it. */
function writeDurably(file: string, text: string): void {
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Waits until the disk has a folder's entries (a rename in it); not every system can open a folder to do so. */
function syncFolder(folder: string): void {
  let fd: number;
  try {
    fd = openSync(folder, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // Some systems refuse to sync a folder; the rename is then as durable as they make it.
  } finally {
    closeSync(fd);
  }
}

/**
 * A JSON file, replaced whole on each save (write then rename) so a crash never leaves half a file. The new text is
 * on the disk before the rename and the rename before save() returns: a power cut right after a save (an event about
 * to leave) finds the state that was saved, not an empty file or the one before.
 */
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
    writeDurably(temp, JSON.stringify(state, null, 2));
    renameSync(temp, this.file);
    syncFolder(path.dirname(this.file));
  }
}
