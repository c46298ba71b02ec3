/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLAIM_REASON_MAX as SERVER_REASON_MAX, CLAIM_STATUSES, ORDER_STATUSES } from '@kisht/contract/payments';
import {
  checkAmount, checkReason, CLAIM_REASON_MAX, CLAIM_STATUS_LABEL_KEYS, claimAmountText, HELD_REASON_KEYS, newIdempotencyKey, ORDER_STATUS_LABEL_KEYS, ORDER_STATUS_TONE, parseQuantity, receivedAmountText,
} from './payment-rules.ts';
import { mergeMorePages, nextMorePage } from '../../../shared/api/paging.ts';

const EN = JSON.parse(readFileSync(new URL('../../../../../locales/en.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const lookup = (key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), EN);

describe('payment lists', () => {
  it('asks for the next page only while the server says there is more', () => {
    expect(nextMorePage({ items: [{ id: 1 }], page: 1, has_more: true })).toBe(2);
    expect(nextMorePage({ items: [{ id: 1 }], page: 3, has_more: false })).toBeUndefined();
    // An empty page that claims more would ask forever.
    expect(nextMorePage({ items: [], page: 2, has_more: true })).toBeUndefined();
  });

  it('keeps each row once, where first seen, when a new row pushed one onto the next page', () => {
    const pages = [
      { items: [{ id: 'c' }, { id: 'b' }], page: 1, has_more: true },
      { items: [{ id: 'b' }, { id: 'a' }], page: 2, has_more: false },
    ];
    expect(mergeMorePages(pages).map((row) => row.id)).toEqual(['c', 'b', 'a']);
    expect(mergeMorePages(undefined)).toEqual([]);
  });
});

describe('order status badges', () => {
  it('has a label and a tone for every status the contract names; paid is good, failed bad, held a warning', () => {
    for (const status of ORDER_STATUSES) {
      expect(ORDER_STATUS_LABEL_KEYS[status]).toMatch(/^gateway\.status\./);
      expect(ORDER_STATUS_TONE[status]).toBeTruthy();
    }
    expect([ORDER_STATUS_TONE.paid, ORDER_STATUS_TONE.failed, ORDER_STATUS_TONE.held]).toEqual(['success', 'danger', 'warning']);
  });

  it('words every order and claim status in en.json (the keys are built from codes, so the dictionary scan cannot see them)', () => {
    const keys = [...ORDER_STATUSES.map((s) => ORDER_STATUS_LABEL_KEYS[s]), ...CLAIM_STATUSES.map((s) => CLAIM_STATUS_LABEL_KEYS[s])];
    expect(keys.filter((key) => typeof lookup(key) !== 'string')).toEqual([]);
  });
});

describe('confirming a claim', () => {
  it('prefills the amount the customer claimed, or nothing when none was given', () => {
    expect(claimAmountText({ amount_paise: 150_050 })).toBe('1500.5');
    expect(claimAmountText({ amount_paise: 99_900 })).toBe('999');
    expect(claimAmountText({ amount_paise: null })).toBe('');
  });

  it('takes rupees with up to two decimals, within one payment', () => {
    expect(checkAmount('1,500.50')).toEqual({ paise: 150_050 });
    expect(checkAmount('₹ 999')).toEqual({ paise: 99_900 });
    expect(checkAmount('  ')).toEqual({ error: 'required' });
    for (const bad of ['0', '-5', '1.234', 'abc', '10000001']) expect(checkAmount(bad), bad).toEqual({ error: 'amount' });
  });
});

describe('rejecting a claim', () => {
  it("asks for the reason the customer's phone will show, tidied, within the server's limit", () => {
    expect(checkReason('  No   payment came in ')).toEqual({ reason: 'No payment came in' });
    expect(checkReason('   ')).toEqual({ error: 'required' });
    expect(checkReason('x'.repeat(200))).toEqual({ reason: 'x'.repeat(200) });
    expect(checkReason('x'.repeat(201))).toEqual({ error: 'tooLong' });
    expect(CLAIM_REASON_MAX).toBe(SERVER_REASON_MAX);
  });
});

describe('buying keys', () => {
  it('takes a whole number of keys from 1 to 10,000', () => {
    expect(parseQuantity('10')).toBe(10);
    expect(parseQuantity(' 10000 ')).toBe(10_000);
    for (const bad of ['', '0', '10001', '1.5', '-1', 'ten', '1e3']) expect(parseQuantity(bad), bad).toBeNull();
  });

  it("makes request ids in the contract's shape, a new one each time", () => {
    const key = newIdempotencyKey();
    expect(key).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(key).toHaveLength(32);
    expect(newIdempotencyKey()).not.toBe(key);
    expect(newIdempotencyKey((bytes) => bytes.fill(255))).toBe('f'.repeat(32));
  });
});

describe('held gateway payments', () => {
  it('word every reason the server holds an order for, and prefill what arrived only when it was rupees', () => {
    for (const reason of ['AMOUNT_MISMATCH', 'CURRENCY_MISMATCH', 'EXCEEDS_DUE', 'SELLER_OUT_OF_KEYS']) expect(typeof lookup(HELD_REASON_KEYS[reason]!), reason).toBe('string');
    expect(typeof lookup(ORDER_STATUS_LABEL_KEYS.refunded)).toBe('string');
    expect(receivedAmountText({ received_paise: 120_050, received_currency: 'INR' })).toBe('1200.5');
    expect(receivedAmountText({ received_paise: 100_000, received_currency: 'USD' })).toBe('');
    expect(receivedAmountText({ received_paise: null, received_currency: null })).toBe('');
  });
});
