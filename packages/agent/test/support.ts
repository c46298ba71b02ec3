/**
 * Test support: a real server (harness) listening on a real port, so the agent talks HTTP and MQTT to it
 * exactly as a phone would, plus the retailer's calls the tests need.
 */
import { expect } from 'vitest';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { freePort, startTestApp, RAVI, type TestApp } from '../../server/test/harness.ts';
import { DeviceAgent, type AgentOptions } from '../src/agent.ts';
import { MemoryStore } from '../src/store.ts';

export { RAVI };

export interface LiveServer {
  t: TestApp;
  url: string;
  ravi: string;
  stop(): Promise<void>;
}

export async function startLiveServer(env: Record<string, string> = {}): Promise<LiveServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t = await startTestApp({
    limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 },
    env: { PUBLIC_URL: url, PORT: String(port), ...env },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  const ravi = (await t.signIn(RAVI)).token;
  return { t, url, ravi, stop: () => t.stop() };
}

/** Waits for a condition (usable in hooks, where expect.poll is not). */
export async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let imeiSeq = Math.floor(Math.random() * 9000);

export async function addCustomer(live: LiveServer, productType = 0): Promise<{ id: number; imei1: string }> {
  const { t, ravi } = live;
  const products = (await t.get('/api/products', { token: ravi })).json().data as Array<{ id: number; product_type: number }>;
  const today = todayInIndia();
  const res = await t.post('/api/customer', {
    first_name: 'Agent', last_name: `Owner${imeiSeq}`, mobile: '+919812300099', device_brand: 'Samsung', device_model: 'A05',
    imei1: withImeiCheckDigit(`3577777777${String(imeiSeq++).padStart(4, '0')}`), provisioning_type: 0,
    product_id: products.find((p) => p.product_type === productType)!.id, price_paise: 300_000, down_payment_paise: 0, annual_rate_bps: 0,
    interest_method: 'flat', tenure_months: 3, start_date: today, first_due_date: addDays(today, 30),
  }, { token: ravi });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.customer as { id: number; imei1: string };
}

export async function qrPayload(live: LiveServer, customerId: number): Promise<string> {
  const res = await live.t.get(`/api/customer/generate_emm_code?customer_id=${customerId}`, { token: live.ravi });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.qr_payload as string;
}

/** A customer and a phone enrolled from the customer's QR, started and checked in. */
export async function enrolledPhone(live: LiveServer, options: Partial<AgentOptions> = {}, productType = 0) {
  const customer = await addCustomer(live, productType);
  const agent = new DeviceAgent({ store: new MemoryStore(), tickMs: 200, ...options });
  await agent.enrolFromQr(await qrPayload(live, customer.id), { imei1: customer.imei1, serial: 'R58N000001' }, [{ slot: 1, operator: 'Jio', iccid: '8991000000000000011' }]);
  const checkedIn = new Promise<void>((resolve) => agent.once('check-in', () => resolve()));
  agent.start();
  await checkedIn;
  await until(() => agent.isConnected);
  return { customer, agent };
}

export async function action(live: LiveServer, path: string, body: Record<string, unknown>) {
  const res = await live.t.post(path, body, { token: live.ravi });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: string; seq: number; type: string; state: string };
}

export async function lockStatus(live: LiveServer, customerId: number): Promise<number> {
  return (await live.t.get(`/api/country/getCustomerProfile?customer_id=${customerId}`, { token: live.ravi })).json().data.lock_status as number;
}

export async function commandsOf(live: LiveServer, customerId: number) {
  return (await live.t.get(`/api/device/commands?customer_id=${customerId}`, { token: live.ravi })).json().data as Array<{ id: string; type: string; state: string; seq: number; result: unknown }>;
}
