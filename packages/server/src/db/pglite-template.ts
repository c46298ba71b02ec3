/**
 * A new PGlite data folder starts as a copy of a prepared one instead of running initdb and every migration
 * again. The prepared folder holds what initdb and the migrations make and nothing else: it is built in a
 * folder of its own, never taken from a server's data folder, so it carries no rows, demo data or secrets of
 * any install. It is kept per PGlite version and migration set in PGLITE_TEMPLATE_DIR (node_modules/.cache/kisht),
 * so every fresh folder after the first (a reset .data, a bench run) skips initdb and the migrations: a copy
 * of about 40 MB instead of most of ten seconds of CPU.
 */
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { openDatabase } from './database.ts';
import { listMigrations, migrate, MIGRATIONS_DIR } from './migrate.ts';

const PREFIX = 'pglite-';
/** A half-built template this old belongs to a process that died while building it. */
const STALE_BUILD_MS = 60 * 60 * 1000;

/** Changes with anything that shapes a new folder: PGlite's version, the extensions loaded, each migration's text. */
export async function templateKey(): Promise<string> {
  const require = createRequire(import.meta.url);
  // The package's entry is dist/index.*; its package.json is not among its exports.
  const pglitePackage = path.join(path.dirname(path.dirname(require.resolve('@electric-sql/pglite'))), 'package.json');
  const hash = createHash('sha256');
  hash.update(`pglite ${(JSON.parse(readFileSync(pglitePackage, 'utf8')) as { version: string }).version}\0extensions ltree\0`);
  for (const name of await listMigrations()) hash.update(`${name}\0${readFileSync(path.join(MIGRATIONS_DIR, name))}\0`);
  return hash.digest('hex').slice(0, 20);
}

function isEmptyOrMissing(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/** The template's folder, built now if this key has none yet; several processes may race, one rename wins. */
async function ensureTemplate(cacheDir: string, key: string): Promise<string> {
  const template = path.join(cacheDir, PREFIX + key);
  if (existsSync(path.join(template, 'PG_VERSION'))) return template;
  mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  const building = path.join(cacheDir, `.${PREFIX}${key}-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const db = await openDatabase({ dataDir: building });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    // Only a closed, fully migrated folder gets the final name.
    renameSync(building, template);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(path.join(template, 'PG_VERSION'))) throw error;
  }
  removeOthers(cacheDir, key);
  return template;
}

/** Templates of older migration sets, and builds abandoned by a crash, are of no further use. */
function removeOthers(cacheDir: string, key: string): void {
  for (const name of readdirSync(cacheDir)) {
    const full = path.join(cacheDir, name);
    try {
      const old = name.startsWith(PREFIX) && name !== PREFIX + key;
      const abandoned = name.startsWith(`.${PREFIX}`) && Date.now() - statSync(full).mtimeMs > STALE_BUILD_MS;
      if (old || abandoned) rmSync(full, { recursive: true, force: true });
    } catch {
      // another process renamed or removed it meanwhile
    }
  }
}

/**
 * Fills an empty (or missing) PGlite data folder from the template. Returns false, touching nothing, when the
 * folder already holds anything; on any failure (no writable cache, a full disk) it returns the reason and
 * leaves the folder empty, and PGlite runs initdb as it would have.
 */
export async function createFromTemplate(dataDir: string, cacheDir: string): Promise<{ copied: boolean; problem?: string }> {
  if (!isEmptyOrMissing(dataDir)) return { copied: false };
  const staging = path.join(path.dirname(dataDir), `.${path.basename(dataDir)}-${randomBytes(4).toString('hex')}`);
  try {
    const template = await ensureTemplate(cacheDir, await templateKey());
    mkdirSync(path.dirname(dataDir), { recursive: true });
    // Copied beside the folder and renamed into place, so an interrupted copy never looks like a database.
    cpSync(template, staging, { recursive: true });
    if (existsSync(dataDir)) rmdirSync(dataDir); // empty, checked above; rmdir refuses anything else
    renameSync(staging, dataDir);
    return { copied: true };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    return { copied: false, problem: (error as Error).message };
  }
}
