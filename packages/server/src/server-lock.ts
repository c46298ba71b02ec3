/** A note beside the PGlite data folder saying which server process holds it, for the operator CLI. */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

const lockPath = (dataDir: string) => `${dataDir.replace(/\/+$/, '')}.server.json`;

export function writeServerLock(dataDir: string, port: number): () => void {
  const file = lockPath(dataDir);
  writeFileSync(file, JSON.stringify({ pid: process.pid, port }));
  return () => rmSync(file, { force: true });
}

/** The running server holding the folder, or null (no note, or its process is gone). */
export function readRunningServer(dataDir: string): { pid: number; port: number } | null {
  try {
    const note = JSON.parse(readFileSync(lockPath(dataDir), 'utf8')) as { pid: number; port: number };
    process.kill(note.pid, 0);
    return note;
  } catch {
    return null;
  }
}
