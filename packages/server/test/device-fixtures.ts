/** Customers with enrolled phones, for the device tests. */
import { expect } from 'vitest';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { startTestApp, RAVI, type TestApp } from './harness.ts';
import { connectPhone, type Enrolled } from './phone.ts';

let serial = 1;

export function deviceFixtures(t: TestApp, defaultToken: () => string) {
  async function customer(options: { token?: string; provisioning_type?: number; product_type?: number; first_due_date?: string; mobile?: string; alt_mobile?: string } = {}) {
    const token = options.token ?? defaultToken();
    const products = (await t.get('/api/products', { token })).json().data as Array<{ id: number; product_type: number }>;
    const product = products.find((p) => p.product_type === (options.product_type ?? 0)) ?? products[0]!;
    const today = todayInIndia();
    const res = await t.post('/api/customer', {
      first_name: 'Device', last_name: `Owner${serial}`, mobile: options.mobile ?? '+919812300099', ...(options.alt_mobile ? { alt_mobile: options.alt_mobile } : {}), device_brand: 'Samsung', device_model: 'A05',
      imei1: withImeiCheckDigit(`35${String(process.pid % 100).padStart(2, '0')}${String(Date.now() % 1e6).padStart(6, '0')}${String(serial++).padStart(4, '0')}`.slice(0, 14)),
      provisioning_type: options.provisioning_type ?? 0, product_id: product.id, price_paise: 300_000, down_payment_paise: 0, annual_rate_bps: 0,
      interest_method: 'flat', tenure_months: 3, start_date: today, first_due_date: options.first_due_date ?? addDays(today, 30),
    }, { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.customer as { id: number; imei1: string; mobile: string };
  }

  async function qrToken(customerId: number, token = defaultToken()): Promise<string> {
    const res = await t.get(`/api/customer/generate_emm_code?customer_id=${customerId}`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return JSON.parse(res.json().data.qr_payload)['android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE']['kisht.token'];
  }

  const enrolDevice = (body: Record<string, unknown>) => t.post('/api/device/enrol', body, { emm: false });

  /** A customer whose phone is enrolled and connected. */
  async function phone(options: Parameters<typeof customer>[0] = {}) {
    const c = await customer(options);
    const res = await enrolDevice({ token: await qrToken(c.id, options.token), imei1: c.imei1, sims: [{ slot: 0, operator: 'Jio', iccid: '8991000000000000001' }] });
    expect(res.statusCode, res.body).toBe(200);
    const device = res.json().data as Enrolled;
    const p = await connectPhone(t.broker.status().url, device);
    return { customer: c, device, phone: p };
  }

  const profile = async (customerId: number, token = defaultToken()) => (await t.get(`/api/country/getCustomerProfile?customer_id=${customerId}`, { token })).json().data;
  const commands = async (customerId: number, token = defaultToken()) => (await t.get(`/api/device/commands?customer_id=${customerId}`, { token })).json().data as Array<Record<string, unknown>>;
  const basic = (device: Enrolled, password = device.mqtt.password) => `Basic ${Buffer.from(`${device.mqtt.username}:${password}`).toString('base64')}`;
  const checkIn = (device: Enrolled, body: Record<string, unknown>, password?: string) =>
    t.post('/api/device/check-in', { v: 1, locked: false, last_seq: 0, ...body }, { emm: false, headers: { authorization: basic(device, password) } });

  return { customer, qrToken, enrolDevice, phone, profile, commands, basic, checkIn };
}

/** A server for a test file, the demo retailer Ravi signed in, and the fixtures bound to them. */
export async function startDeviceApp() {
  const t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 } });
  const ravi = (await t.signIn(RAVI)).token;
  return { t, ravi, f: deviceFixtures(t, () => ravi) };
}
