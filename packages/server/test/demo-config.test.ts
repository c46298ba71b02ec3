/**
 * Configuration of the newcomer's defaults: where DATA_DIR puts the server's files (and how an older install
 * keeps working), when the demo shop and its phones are on, and the production refusals (the agent APK's
 * placeholder checksum, demo data).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, dataPaths, EMPTY_FILE_CHECKSUM, loadConfig, REPO_ROOT } from '../src/config.ts';
import { resolveSecret } from '../src/secret.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kisht-config-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const PRODUCTION = { APP_ENV: 'production', APP_SECRET: 'p'.repeat(40), SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'https://sms.example.com/send' };
const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
};

describe('the agent APK in production', () => {
  it('refuses to start with the placeholder checksum (the hash of an empty file) or without the download URL', () => {
    const problems = problemsOf(PRODUCTION);
    expect(problems.find((p) => p.startsWith('AGENT_APK_CHECKSUM:'))).toMatch(/hash of an empty file/);
    expect(problems.find((p) => p.startsWith('AGENT_APK_URL:'))).toMatch(/required in production/);
    expect(problemsOf({ ...PRODUCTION, AGENT_APK_URL: 'https://cdn.example.com/agent.apk', AGENT_APK_CHECKSUM: EMPTY_FILE_CHECKSUM })).toEqual([
      expect.stringMatching(/^AGENT_APK_CHECKSUM: is the hash of an empty file/),
    ]);
  });

  it('starts with a real URL and checksum, and keeps the placeholder outside production', () => {
    const config = loadConfig({ ...PRODUCTION, AGENT_APK_URL: 'https://cdn.example.com/agent.apk', AGENT_APK_CHECKSUM: 'gJ2mV1m0d7rQ4Pq8tX3kYc9nL5sW6eH2uA1bZ0fRkTo' });
    expect(config.AGENT_APK_CHECKSUM).toBe('gJ2mV1m0d7rQ4Pq8tX3kYc9nL5sW6eH2uA1bZ0fRkTo');
    expect(loadConfig({ APP_ENV: 'development' }).AGENT_APK_CHECKSUM).toBe(EMPTY_FILE_CHECKSUM);
  });

  it('refuses the demo shop and demo phones in production', () => {
    const base = { ...PRODUCTION, AGENT_APK_URL: 'https://cdn.example.com/agent.apk', AGENT_APK_CHECKSUM: 'gJ2mV1m0d7rQ4Pq8tX3kYc9nL5sW6eH2uA1bZ0fRkTo' };
    expect(problemsOf({ ...base, DEMO_PHONES: '5' })).toEqual([expect.stringMatching(/^DEMO_PHONES: virtual phones are for development/)]);
    expect(problemsOf({ ...base, DEMO_SHOP: 'true' })).toEqual([expect.stringMatching(/^DEMO_SHOP: the demo shop is for development/)]);
    expect(loadConfig({ ...base, DEMO_PHONES: '0' })).toMatchObject({ demoShop: 'never', demoPhones: 0 });
  });
});

describe('the demo defaults', () => {
  it('are on for a development server on PGlite in a folder, off for memory:// (the e2e server), PostgreSQL and tests', () => {
    expect(loadConfig({ APP_ENV: 'development', DATA_DIR: tempDir() })).toMatchObject({ demoShop: 'if-new', demoPhones: 5 });
    expect(loadConfig({ APP_ENV: 'development', DATA_DIR: tempDir(), DEMO_PHONES: '0' })).toMatchObject({ demoShop: 'if-new', demoPhones: 0 });
    expect(loadConfig({ APP_ENV: 'development', DATA_DIR: 'memory://', SEED_DEMO: 'true' })).toMatchObject({ demoShop: 'never', demoPhones: 0 });
    expect(loadConfig({ APP_ENV: 'development', DATABASE_URL: 'postgres://x@127.0.0.1/db' })).toMatchObject({ demoShop: 'never' });
    expect(loadConfig({ APP_ENV: 'development', DATA_DIR: tempDir(), DEMO_SHOP: 'false' })).toMatchObject({ demoShop: 'never', demoPhones: 0 });
    expect(loadConfig({ APP_ENV: 'test', DATA_DIR: 'memory://', SEED_DEMO: 'true', DEMO_SHOP: 'true', DEMO_PHONES: '2' })).toMatchObject({ demoShop: 'always', demoPhones: 2 });
    expect(problemsOf({ APP_ENV: 'test', DEMO_SHOP: 'true' })).toEqual(['DEMO_SHOP: needs the demo retailers (SEED_DEMO)']);
    expect(problemsOf({ APP_ENV: 'development', DEMO_PHONES: 'many' })[0]).toMatch(/^DEMO_PHONES:/);
  });
});

describe('DATA_DIR', () => {
  it('holds everything by default: the database, the secret, uploads and the demo phones, under the repository .data', () => {
    const config = loadConfig({ APP_ENV: 'development' });
    const data = path.join(REPO_ROOT, '.data');
    expect(config.paths).toEqual({ root: data, pglite: path.join(data, 'pglite'), secretFile: path.join(data, 'secret'), uploads: path.join(data, 'uploads'), demoPhones: path.join(data, 'demo-phones'), legacy: false });
    expect(config.UPLOAD_DIR).toBe(path.join(data, 'uploads'));
  });

  it('moves all of them, takes a relative folder from the repository root (whatever the working folder) and lets UPLOAD_DIR override', () => {
    const dir = tempDir();
    const config = loadConfig({ APP_ENV: 'development', DATA_DIR: dir, APP_SECRET: '' });
    expect(config.paths).toMatchObject({ pglite: path.join(dir, 'pglite'), secretFile: path.join(dir, 'secret'), demoPhones: path.join(dir, 'demo-phones') });
    expect(config.UPLOAD_DIR).toBe(path.join(dir, 'uploads'));
    const secret = resolveSecret(config);
    expect(resolveSecret(loadConfig({ APP_ENV: 'development', DATA_DIR: dir }))).toBe(secret);
    expect(dataPaths('some/where').root).toBe(path.join(REPO_ROOT, 'some', 'where'));
    expect(loadConfig({ DATA_DIR: dir, UPLOAD_DIR: '/srv/kisht-uploads' }).UPLOAD_DIR).toBe('/srv/kisht-uploads');
  });

  it('keeps an older install working: a DATA_DIR that is a PGlite folder stays the database, secret and uploads stay in .data', () => {
    const old = path.join(tempDir(), 'pglite');
    mkdirSync(old);
    writeFileSync(path.join(old, 'PG_VERSION'), '17\n');
    expect(dataPaths(old)).toEqual({
      root: old, pglite: old, secretFile: path.join(REPO_ROOT, '.data', 'secret'), uploads: path.join(REPO_ROOT, '.data', 'uploads'),
      demoPhones: path.join(path.dirname(old), 'demo-phones'), legacy: true,
    });
  });

  it('memory:// is a throwaway database with a fresh secret each start', () => {
    const config = loadConfig({ DATA_DIR: 'memory://' });
    expect(config.paths).toMatchObject({ pglite: 'memory://', secretFile: null, demoPhones: null });
    expect(resolveSecret(config)).not.toBe(resolveSecret(config));
  });
});

describe('an external broker in production', () => {
  const ready = { ...PRODUCTION, AGENT_APK_URL: 'https://cdn.example.com/agent.apk', AGENT_APK_CHECKSUM: 'gJ2mV1m0d7rQ4Pq8tX3kYc9nL5sW6eH2uA1bZ0fRkTo', MQTT_URL: 'mqtt://broker.internal:1883' };
  it('needs a stable client id per node, so reports queued while the node was down wait for it', () => {
    expect(problemsOf(ready)).toEqual([expect.stringMatching(/^MQTT_CLIENT_ID: is required in production with MQTT_URL/)]);
    expect(problemsOf({ ...ready, MQTT_CLIENT_ID: 'kisht-api-1' })).toEqual([]);
    expect(problemsOf({ ...ready, APP_ENV: 'development' })).toEqual([]);
  });
});

describe('OTP send limits', () => {
  it('default to 6 per number and 30 per address an hour, and can be set', () => {
    expect(loadConfig({}).limits).toMatchObject({ otpSendsPerMobilePerHour: 6, otpSendsPerIpPerHour: 30 });
    expect(loadConfig({ OTP_SENDS_PER_MOBILE_PER_HOUR: '10', OTP_SENDS_PER_IP_PER_HOUR: '500' }).limits).toMatchObject({ otpSendsPerMobilePerHour: 10, otpSendsPerIpPerHour: 500 });
    expect(problemsOf({ OTP_SENDS_PER_IP_PER_HOUR: '0' })[0]).toMatch(/^OTP_SENDS_PER_IP_PER_HOUR/);
  });
});
