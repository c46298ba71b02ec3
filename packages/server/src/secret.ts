/** The secret keys derive from: APP_SECRET, or in development one generated once and kept beside the data. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createHmac, randomBytes } from 'node:crypto';
import type { Config } from './config.ts';
import { REPO_ROOT } from './config.ts';

export function resolveSecret(config: Config): string {
  if (config.APP_SECRET) return config.APP_SECRET;
  if (config.DATA_DIR === 'memory://') return randomBytes(32).toString('base64url');
  const file = path.join(REPO_ROOT, '.data', 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** A key for one purpose, derived from the app secret and the purpose's label. */
export function deriveKey(secret: string, label: string): Buffer {
  return createHmac('sha256', secret).update(label).digest();
}

/** The key the operator CLI presents to the running server's local endpoint. */
export function operatorKey(secret: string): string {
  return deriveKey(secret, 'operator-endpoint').toString('hex');
}
