/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { NOTIFICATION_KINDS, type Notification } from '@kisht/contract/notifications';
import { ROUTES } from '../../../shared/routes.ts';
import { notificationPath, notificationWords } from './notification-text.ts';
import { badgeText } from './notification-pages.ts';
import { mergeMorePages, nextMorePage } from '../../../shared/api/paging.ts';

// The real English dictionary: the keys are built from kinds, so only reading them proves they exist.
const EN = JSON.parse(readFileSync(new URL('../../../../../locales/en.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const i18n = i18next.createInstance();
void i18n.init({ lng: 'en', resources: { en: { translation: EN } }, interpolation: { escapeValue: false }, initAsync: false, showSupportNotice: false });
const t = (key: string, values?: Record<string, unknown>) => String(i18n.t(key, values as never));
const typeName = (type: number) => (type === 0 ? 'EMI Locker' : `type ${type}`);

const base: Notification = { id: 1, kind: 'sim_change', customer_id: 42, customer_name: 'Lakshmi Narayanan', data: {}, created_at: '2026-05-01T10:00:00Z', read: false };
const make = (over: Partial<Notification>): Notification => ({ ...base, ...over });
const words = (over: Partial<Notification>) => notificationWords(make(over), t, typeName);

describe('notification words', () => {
  it('say what happened for every kind the contract names, never a bare key', () => {
    for (const kind of NOTIFICATION_KINDS) {
      const { title } = words({ kind });
      expect(title, kind).not.toMatch(/^notifications\./);
      expect(title.trim(), kind).not.toBe('');
    }
  });

  it('name the new SIM when the phone reported its operator', () => {
    expect(words({ kind: 'sim_change', data: { operator: 'Airtel' } })).toEqual({ title: 'SIM changed', detail: 'New SIM: Airtel' });
    expect(words({ kind: 'sim_change', data: { operator: null } })).toEqual({ title: 'SIM changed', detail: null });
  });

  it("name a command by the device panel's word for it, with the phone's error", () => {
    expect(words({ kind: 'command_failed', data: { command: 'lock', error: 'Device admin off' } })).toEqual({ title: 'Command failed: Lock', detail: 'The phone reported: Device admin off' });
    expect(words({ kind: 'command_expired', data: { command: 'reboot' } })).toEqual({ title: 'Command expired: Restart phone', detail: 'The phone did not receive it in time.' });
    // An action this console does not know yet shows as the server named it.
    expect(words({ kind: 'command_failed', data: { command: 'teleport' } }).title).toBe('Command failed: teleport');
    expect(words({ kind: 'command_failed', data: {} }).title).toBe('Command failed: a command');
  });

  it('show amounts in rupees, and a receipt when there is one', () => {
    expect(words({ kind: 'payment_received', data: { amount_paise: 150_050, receipt_no: 'R-77' } })).toEqual({ title: 'Payment received: ₹1,500.50', detail: 'Receipt R-77' });
    expect(words({ kind: 'payment_claim', data: { amount_paise: 250_000 } }).title).toBe('Customer says they paid ₹2,500');
    // A claim without an amount (the customer did not type one).
    expect(words({ kind: 'payment_claim', data: { amount_paise: null } }).title).toBe('Customer says they paid');
  });

  it("name keys' sender and product type as the key stock does", () => {
    const keyBase = { customer_id: null, customer_name: null };
    expect(words({ ...keyBase, kind: 'key_request', data: { from_name: 'Ravi Mobiles', count: 5, product_type: 0 } })).toEqual({ title: 'Ravi Mobiles asks for keys', detail: 'Keys: 5 · EMI Locker' });
    expect(words({ ...keyBase, kind: 'keys_received', data: { from_name: 'Head Office', count: 1, product_type: 9 } })).toEqual({ title: 'Keys received from Head Office', detail: 'Keys: 1 · type 9' });
    expect(words({ ...keyBase, kind: 'keys_low', data: { product_type: 0, balance: 2 } })).toEqual({ title: 'Keys running low: EMI Locker', detail: 'Keys left: 2' });
  });

  it("count a silent phone's days and the day's overdue instalments", () => {
    expect(words({ kind: 'phone_offline', data: { days: 4 } }).title).toBe('Phone silent for 4 days');
    expect(words({ kind: 'dues_run', customer_id: null, customer_name: null, data: { instalments: 12, amount_paise: 1_250_000 } })).toEqual({ title: '12 instalments overdue today', detail: 'Overdue: ₹12,500' });
  });

  it('read a field of the wrong type as missing, and a kind the console does not know as a plain notification', () => {
    expect(words({ kind: 'payment_received', data: { amount_paise: '100' } }).title).toBe('Payment received');
    expect(words({ kind: 'brand_new' as Notification['kind'] })).toEqual({ title: 'New notification', detail: null });
  });
});

describe('where a notification opens', () => {
  it("opens the customer's details for a phone's news and a claim", () => {
    for (const kind of ['sim_change', 'command_failed', 'command_expired', 'payment_claim'] as const) {
      expect(notificationPath(make({ kind })), kind).toBe('/customer-details/42');
    }
  });

  it("opens the customer's EMI screen for a payment, with its receipt when there is one", () => {
    expect(notificationPath(make({ kind: 'payment_received', data: { amount_paise: 100 } }))).toBe('/view-emi-details/42');
    expect(notificationPath(make({ kind: 'payment_received', data: { receipt_no: 'R 7' } }))).toBe('/view-emi-details/42?receipt_no=R%207');
  });

  it('opens the key history, where requests are approved, for the key kinds', () => {
    for (const kind of ['key_request', 'keys_received', 'keys_low'] as const) {
      expect(notificationPath(make({ kind, customer_id: null, customer_name: null })), kind).toBe(ROUTES.top_up_history);
    }
  });

  it("opens a silent phone's customer, and the upcoming EMIs for the day's dues", () => {
    expect(notificationPath(make({ kind: 'phone_offline' }))).toBe('/customer-details/42');
    expect(notificationPath(make({ kind: 'dues_run', customer_id: null }))).toBe(ROUTES.up_coming_emi);
  });

  it('opens nothing for a customer kind without its customer', () => {
    expect(notificationPath(make({ kind: 'sim_change', customer_id: null }))).toBeNull();
    expect(notificationPath(make({ kind: 'payment_received', customer_id: null }))).toBeNull();
  });
});

describe('notification pages and the badge', () => {
  const page = (ids: number[], pageNo: number, hasMore: boolean) => ({ items: ids.map((id) => make({ id })), unread: 0, has_more: hasMore, page: pageNo, limit: 2 });

  it('asks for the next page only while the server says there is more', () => {
    expect(nextMorePage(page([3, 2], 1, true))).toBe(2);
    expect(nextMorePage(page([1], 2, false))).toBeUndefined();
    expect(nextMorePage(page([], 2, true))).toBeUndefined();
  });

  it('keeps each notification once when a new one pushed another onto the next page', () => {
    expect(mergeMorePages([page([4, 3], 1, true), page([3, 2], 2, false)]).map((n) => n.id)).toEqual([4, 3, 2]);
    expect(mergeMorePages(undefined)).toEqual([]);
  });

  it('hides the badge at 0 and caps it at 99+', () => {
    expect([0, -1, 1, 99, 100, 5000].map(badgeText)).toEqual([null, null, '1', '99', '99+', '99+']);
  });
});
