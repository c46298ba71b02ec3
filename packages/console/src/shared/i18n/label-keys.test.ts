/// <reference types="node" />
// Keys the console builds from codes (status labels, methods, ID types ...) are not literal t('...')
// calls, so dictionary.test.ts cannot see them: every one must still exist in en.json.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INSTALL_STATUS_LABEL_KEYS, LOCK_STATUS_LABEL_KEYS } from '@kisht/domain/customer-status';
import {
  EDIT_ACTION_LABEL_KEYS,
  ID_TYPE_LABEL_KEYS,
  INTEREST_METHOD_LABEL_KEYS,
  PAYMENT_METHOD_LABEL_KEYS,
  PRODUCT_TYPE_LABEL_KEYS,
  PROVISIONING_LABEL_KEYS,
} from '../labels.ts';
import { COMMAND_STATE_LABEL_KEYS, EMI_ALERT_STATE_LABEL_KEYS, INSTALMENT_STATUS_LABEL_KEYS } from '../ui/status-badges.tsx';

const EN = JSON.parse(readFileSync(new URL('../../../../locales/en.json', import.meta.url), 'utf8')) as Record<string, unknown>;

function lookup(key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), EN);
}

const MAPS: Record<string, Record<string | number, string>> = {
  INSTALL_STATUS_LABEL_KEYS,
  LOCK_STATUS_LABEL_KEYS,
  PROVISIONING_LABEL_KEYS,
  PRODUCT_TYPE_LABEL_KEYS,
  INTEREST_METHOD_LABEL_KEYS,
  PAYMENT_METHOD_LABEL_KEYS,
  ID_TYPE_LABEL_KEYS,
  EDIT_ACTION_LABEL_KEYS,
  INSTALMENT_STATUS_LABEL_KEYS,
  COMMAND_STATE_LABEL_KEYS,
  EMI_ALERT_STATE_LABEL_KEYS,
};

describe('label keys built from codes', () => {
  for (const [name, map] of Object.entries(MAPS)) {
    it(`${name} are all in en.json`, () => {
      const missing = Object.values(map).filter((key) => typeof lookup(key) !== 'string');
      expect(missing).toEqual([]);
    });
  }

  it('has the customer status filter "All", the upcoming tabs\' empty states and the plural forms', () => {
    for (const key of ['customerStatus.all', 'upcoming.empty.overdue', 'upcoming.empty.today', 'upcoming.empty.next', 'loan.months_one', 'productType.other']) {
      expect(typeof lookup(key), key).toBe('string');
    }
  });
});
