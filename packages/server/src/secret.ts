/** The secret keys derive from: APP_SECRET, or in development one generated once and kept in the data folder. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createHmac, randomBytes } from 'node:crypto';
import type { Config } from './config.ts';

export function resolveSecret(config: Config): string {
  if (config.APP_SECRET) return config.APP_SECRET;
  const file = config.paths.secretFile;
  if (!file) return randomBytes(32).toString('base64url');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** The secret a running server uses, without making one: null when there is none to read. */
export function readSecret(config: Config): string | null {
  if (config.APP_SECRET) return config.APP_SECRET;
  const file = config.paths.secretFile;
  return file && existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

/** A key for one purpose, derived from the app secret and the purpose's label. */
export function deriveKey(secret: string, label: string): Buffer {
  return createHmac('sha256', secret).update(label).digest();
}

/** The key the operator CLI presents to the running server's local endpoint. */
export function operatorKey(secret: string): string {
  return deriveKey(secret, 'operator-endpoint').toString('hex');
}
