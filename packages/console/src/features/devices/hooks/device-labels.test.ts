/// <reference types="node" />
// The device screens build these keys from codes, so the literal-key scan cannot see them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMAND_STATE_LABEL_KEYS } from '../../../shared/ui/status-badges.tsx';
import { COMMAND_ORIGIN_LABEL_KEYS, DEVICE_ACTION_LABEL_KEYS, SCHEDULE_STATE_LABEL_KEYS } from './device-labels.ts';
import { COMMAND_STATES } from './command-status.ts';
import { BATCH_STATES } from './batch-progress.ts';

const EN = JSON.parse(readFileSync(new URL('../../../../../locales/en.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const lookup = (key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), EN);

describe('device label keys', () => {
  it('are all in en.json', () => {
    const keys = [DEVICE_ACTION_LABEL_KEYS, COMMAND_STATE_LABEL_KEYS, SCHEDULE_STATE_LABEL_KEYS, COMMAND_ORIGIN_LABEL_KEYS].flatMap((map) => Object.values(map));
    expect(keys.filter((key) => typeof lookup(key) !== 'string')).toEqual([]);
  });

  it('has a label for every command and batch item state', () => {
    for (const state of [...COMMAND_STATES, ...BATCH_STATES]) expect(COMMAND_STATE_LABEL_KEYS[state], state).toBe(`device.state.${state}`);
  });

  it('has a message for every reason a batch gives', () => {
    for (const code of ['ACTION_NOT_ALLOWED', 'DEVICE_NOT_ENROLLED', 'NOT_FOUND']) expect(typeof lookup(`errors.${code}`), code).toBe('string');
  });
});
