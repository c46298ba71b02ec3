/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACTIVITY_FILTERS, AUDIT_ACTIONS, actionLabelKey, isoDayOrUndefined, outcomeOf } from './activity-labels.ts';

type Dict = { [key: string]: string | Dict };
const en = JSON.parse(readFileSync(new URL('../../../../../locales/en.json', import.meta.url), 'utf8')) as Dict;
const has = (key: string) => key.split('.').reduce<string | Dict | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), en) !== undefined;

describe('activity labels', () => {
  it('names the log\'s own actions, and device commands with the device channel\'s words', () => {
    expect(actionLabelKey('auth.sign_in')).toBe('audit.action.auth_sign_in');
    expect(actionLabelKey('device.multiple_lock_unlock.retry')).toBe('audit.action.device_multiple_lock_unlock_retry');
    expect(actionLabelKey('device.lock')).toBe('device.action.lock');
    expect(actionLabelKey('something.new')).toBeNull();
    for (const action of [...AUDIT_ACTIONS, 'device.lock', 'device.unlock', 'device.lost_mode', 'device.install_apple_onemodapp']) {
      expect(has(actionLabelKey(action)!), action).toBe(true);
    }
    for (const filter of ACTIVITY_FILTERS) expect(has(filter.label), filter.label).toBe(true);
  });

  it('reads the outcome from the status', () => {
    expect(outcomeOf(200)).toBe('done');
    expect(outcomeOf(403)).toBe('refused');
    expect(outcomeOf(511)).toBe('refused');
    expect(outcomeOf(409)).toBe('failed');
    expect(outcomeOf(null)).toBe('automatic');
  });

  it('sends only whole days', () => {
    expect(isoDayOrUndefined('2026-11-24')).toBe('2026-11-24');
    expect(isoDayOrUndefined('')).toBeUndefined();
    expect(isoDayOrUndefined('2026-11')).toBeUndefined();
  });
});
