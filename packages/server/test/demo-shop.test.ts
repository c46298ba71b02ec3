/**
 * The living demo: the demo shop seeded through the services (statuses, overdue loans, one customer locked
 * through its phone, a consistent ledger), seeding twice adds nothing, the virtual phones resume from their
 * saved state, and Lock pressed through the API is confirmed by the demo phone.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSchedule } from '@kisht/domain/emi';
import { addDays, addMonths } from '@kisht/domain/calendar';
import { isValidImei } from '@kisht/domain/imei';
import { isValidMobile } from '@kisht/domain/mobile';
import { todayInIndia } from '@kisht/domain/format';
import { freePort, startTestApp, RAVI, SUNITA, type TestApp } from './harness.ts';
import { startDemo, type RunningDemo } from '../src/modules/demo/demo.ts';
import { DEMO_SHOP, TRY_FIRST, imeisOf } from '../src/db/demo-shop.ts';
import { startFleet } from '@kisht/agent/fleet';

const PHONES = 5;
let t: TestApp;
let serverUrl: string;
let phoneDir: string;
let demo: RunningDemo | null = null;
let ravi: string;

interface Item { id: number; first_name: string; last_name: string; mobile: string; imei1: string; install_status: number; lock_status: number; overdue_paise: number }

const list = async (token: string) => (await t.get('/api/customer/get_customers_keygen?limit=100', { token })).json().data as { total: number; items: Item[] };
const count = async (sql: string) => (await t.db.query<{ n: number }>(sql)).rows[0]!.n;
const start = (freshDatabase = true) => startDemo({ built: t, config: t.config, serverUrl, freshDatabase, phoneDir });

beforeAll(async () => {
  // The EMM QR names PUBLIC_URL, where the fleet's phones enrol: this server's own port.
  const port = await freePort();
  serverUrl = `http://127.0.0.1:${port}`;
  t = await startTestApp({ env: { SEED_DEMO: 'true', DEMO_SHOP: 'true', DEMO_PHONES: String(PHONES), PORT: String(port), PUBLIC_URL: serverUrl }, limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 } });
  await t.app.listen({ port, host: '127.0.0.1' });
  phoneDir = mkdtempSync(path.join(os.tmpdir(), 'kisht-demo-phones-'));
  demo = await start();
  ravi = (await t.signIn(RAVI)).token;
}, 120_000);

afterAll(async () => {
  await demo?.stop();
  await t.stop();
  rmSync(phoneDir, { recursive: true, force: true });
});

describe('the demo shop', () => {
  it('has customers across statuses, some overdue, one locked by its phone, with real-looking IMEIs and mobiles', async () => {
    const { items, total } = await list(ravi);
    expect(total).toBe(DEMO_SHOP.length);
    const statuses = new Set(items.map((i) => i.install_status));
    // Not yet scanned (0), phone installed (1), paid off (5), last instalment near (6).
    for (const status of [0, 1, 5, 6]) expect(statuses, `install status ${status}`).toContain(status);
    expect(items.filter((i) => i.overdue_paise > 0).length).toBeGreaterThanOrEqual(3);
    const locked = items.filter((i) => i.lock_status === 1);
    expect(locked.map((i) => `${i.first_name} ${i.last_name}`)).toEqual(['राजेश कुमार']);
    for (const item of items) {
      expect(isValidImei(item.imei1), item.imei1).toBe(true);
      expect(isValidMobile(item.mobile), item.mobile).toBe(true);
    }
    const names = items.map((i) => `${i.first_name} ${i.last_name}`).join(' ');
    // Latin, Devanagari, Bengali, Gurmukhi, Gujarati, Tamil, Telugu, Kannada.
    for (const script of [/[A-Za-z]/, /[\u0900-\u097F]/, /[\u0980-\u09FF]/, /[\u0A00-\u0A7F]/, /[\u0A80-\u0AFF]/, /[\u0B80-\u0BFF]/, /[\u0C00-\u0C7F]/, /[\u0C80-\u0CFF]/]) expect(names).toMatch(script);
    // The mini-retailer sees only the customers she sold.
    const sunita = (await t.signIn(SUNITA)).token;
    expect((await list(sunita)).total).toBe(DEMO_SHOP.filter((c) => c.seller === 1).length);
  });

  it('keeps the ledger whole: payments received + outstanding = the schedule total, per customer', async () => {
    const { items } = await list(ravi);
    const today = todayInIndia();
    let receipts = 0;
    for (const spec of DEMO_SHOP) {
      const item = items.find((i) => i.imei1 === imeisOf(spec).imei1)!;
      const emi = (await t.get(`/api/emi/customer_emi_details?customer_id=${item.id}`, { token: ravi })).json().data as {
        instalments: Array<{ amount_paise: number; penalty_paise: number; paid_paise: number; status: string }>;
        totals: { payable_paise: number; paid_paise: number; outstanding_paise: number };
      };
      const payments = (await t.get(`/api/emi/payments?customer_id=${item.id}`, { token: ravi })).json().data as Array<{ kind: string; amount_paise: number }>;
      receipts += payments.length;
      const received = payments.reduce((s, p) => s + p.amount_paise, 0);
      const penalties = emi.instalments.reduce((s, i) => s + i.penalty_paise, 0);
      const sold = addDays(today, -spec.soldDaysAgo);
      const schedule = generateSchedule({
        pricePaise: spec.priceRupees * 100, downPaymentPaise: spec.downRupees * 100, processingFeePaise: 0, annualRateBps: spec.rateBps, method: spec.method,
        tenureMonths: spec.tenure, advanceEmis: spec.advance, startDate: sold, firstDueDate: addMonths(sold, 1),
      });
      const name = `${spec.first_name} ${spec.last_name}`;
      expect(emi.instalments.reduce((s, i) => s + i.amount_paise, 0), name).toBe(schedule.totalPayablePaise);
      expect(received + emi.totals.outstanding_paise, name).toBe(schedule.totalPayablePaise + penalties);
      expect(received, name).toBe(emi.totals.paid_paise);
      if (spec.paid === 'all') expect(emi.totals.outstanding_paise, name).toBe(0);
      // Late fees (the organisation's dues rule) only where an instalment is overdue.
      if (penalties > 0) expect(emi.instalments.some((i) => i.penalty_paise > 0 && i.paid_paise < i.amount_paise + i.penalty_paise), name).toBe(true);
    }
    expect(receipts).toBeGreaterThan(DEMO_SHOP.length);
  });

  it('gave the first open loans virtual phones that saved their state under the phones folder', async () => {
    expect(demo!.phones.map((p) => p.spec.first_name)).toEqual(DEMO_SHOP.slice(0, PHONES).map((c) => c.first_name));
    expect(demo!.phones.every((p) => p.enrolledNow && p.agent.isConnected)).toBe(true);
    expect(readdirSync(phoneDir).sort()).toEqual(DEMO_SHOP.slice(0, PHONES).map((c) => `${imeisOf(c).imei1}.json`).sort());
    expect(demo!.tryFirst?.name).toBe(`${TRY_FIRST.first_name} ${TRY_FIRST.last_name}`);
  });

  it('a second start adds nothing, pays nothing twice and resumes the same phones', async () => {
    const before = { customers: await count('SELECT count(*)::int AS n FROM customers'), payments: await count('SELECT count(*)::int AS n FROM payments'), devices: await count('SELECT count(*)::int AS n FROM devices'), keys: (await t.get('/api/customer/get_keygen_dashboardV1', { token: ravi })).json().data.keys_left };
    const deviceIds = demo!.phones.map((p) => p.agent.snapshot().credentials!.deviceId);
    await demo!.stop();
    demo = await start(false);
    expect(demo!.shop.every((c) => !c.added)).toBe(true);
    expect(demo!.phones.map((p) => p.enrolledNow)).toEqual(Array(PHONES).fill(false));
    expect(demo!.phones.map((p) => p.agent.snapshot().credentials!.deviceId)).toEqual(deviceIds);
    expect(demo!.phones.every((p) => p.agent.isConnected)).toBe(true);
    expect({ customers: await count('SELECT count(*)::int AS n FROM customers'), payments: await count('SELECT count(*)::int AS n FROM payments'), devices: await count('SELECT count(*)::int AS n FROM devices'), keys: (await t.get('/api/customer/get_keygen_dashboardV1', { token: ravi })).json().data.keys_left }).toEqual(before);
  });

  it('Lock pressed on the customer to try first is confirmed by its demo phone', async () => {
    const customerId = demo!.tryFirst!.id;
    const phone = demo!.phones.find((p) => p.customerId === customerId)!;
    expect(phone.agent.snapshot().screen.locked).toBe(false);
    const pressed = await t.post('/api/device/lock', { customer_id: customerId }, { token: ravi });
    expect(pressed.statusCode, pressed.body).toBe(200);
    await expect.poll(async () => (await t.get(`/api/country/getCustomerProfile?customer_id=${customerId}`, { token: ravi })).json().data.lock_status, { timeout: 15_000 }).toBe(1);
    expect(phone.agent.snapshot().screen.locked).toBe(true);
    const commands = (await t.get(`/api/device/commands?customer_id=${customerId}`, { token: ravi })).json().data as Array<{ type: string; state: string }>;
    expect(commands).toMatchObject([{ type: 'lock', state: 'done' }]);
  });

  it('the fleet command leaves no session behind in the retailer\'s Sessions screen', async () => {
    const sessions = async () => (await t.get('/api/sessions/my-sessions', { token: ravi })).json().data as Array<{ device_details: unknown }>;
    const before = await sessions();
    const fleet = await startFleet({ server: serverUrl, count: 2 });
    try {
      expect(fleet.errors).toEqual([]);
      expect(fleet.summary()).toMatchObject({ phones: 2, enrolled: 2, errors: 0 });
      const after = await sessions();
      expect(after).toHaveLength(before.length);
      expect(JSON.stringify(after)).not.toContain('Kisht fleet simulator');
    } finally {
      await fleet.stop();
    }
  });
});
