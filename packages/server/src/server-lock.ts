/** A note beside the PGlite data folder saying which server process holds it, for the operator CLI. */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

export interface ServerNote {
  pid: number;
  port: number;
  /** The data folder the server was started with (absent in notes of older servers). */
  dataDir?: string;
}

const lockPath = (pgliteDir: string) => `${pgliteDir.replace(/\/+$/, '')}.server.json`;

export function writeServerLock(pgliteDir: string, port: number, dataDir: string): () => void {
  const file = lockPath(pgliteDir);
  writeFileSync(file, JSON.stringify({ pid: process.pid, port, dataDir } satisfies ServerNote));
  return () => rmSync(file, { force: true });
}

/** The running server holding the folder, or null (no note, or its process is gone). */
export function readRunningServer(pgliteDir: string): ServerNote | null {
  try {
    const note = JSON.parse(readFileSync(lockPath(pgliteDir), 'utf8')) as ServerNote;
    process.kill(note.pid, 0);
    return note;
  } catch {
    return null;
  }
}
