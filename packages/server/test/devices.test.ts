/** Device enrolment from the EMM QR, and the broker letting each phone use only its own topics. */
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { RAVI, MEENA, type TestApp } from './harness.ts';
import { startDeviceApp, type deviceFixtures } from './device-fixtures.ts';

let t: TestApp;
let ravi: string;
let seq = 1;
const today = todayInIndia();

let f: ReturnType<typeof deviceFixtures>;

beforeAll(async () => {
  ({ t, ravi, f } = await startDeviceApp());
});
afterAll(() => t.stop());

async function enrolCustomer(token = ravi) {
  const products = (await t.get('/api/products', { token })).json().data as Array<{ id: number; product_type: number }>;
  const res = await t.post('/api/customer', {
    first_name: 'Device', last_name: `Owner${seq}`, mobile: '+919812300099', device_brand: 'Samsung', device_model: 'A05',
    imei1: withImeiCheckDigit(`3566666666${String(seq++).padStart(4, '0')}`), provisioning_type: 0,
    product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 300_000, down_payment_paise: 0, annual_rate_bps: 0,
    interest_method: 'flat', tenure_months: 3, start_date: today, first_due_date: addDays(today, 30),
  }, { token });
  return res.json().data.customer as { id: number; imei1: string };
}

async function qrToken(customerId: number, token = ravi): Promise<string> {
  const res = await t.get(`/api/customer/generate_emm_code?customer_id=${customerId}`, { token });
  expect(res.statusCode, res.body).toBe(200);
  const payload = JSON.parse(res.json().data.qr_payload);
  expect(payload['android.app.extra.PROVISIONING_DEVICE_ADMIN_COMPONENT_NAME']).toBeTruthy();
  return payload['android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE']['kisht.token'];
}

const enrolDevice = (body: Record<string, unknown>) => t.post('/api/device/enrol', body, { emm: false });

function connect(username: string, password: string): Promise<mqtt.MqttClient> {
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(t.broker.status().url.replace('0.0.0.0', '127.0.0.1'), { clientId: username, username, password, reconnectPeriod: 0, connectTimeout: 3000 });
    client.once('connect', () => resolve(client));
    client.once('error', (error) => {
      client.end(true);
      reject(error);
    });
  });
}

describe('device enrolment', () => {
  it('gives the phone its own credentials once, and the customer becomes Install (1)', async () => {
    const c = await enrolCustomer();
    const token = await qrToken(c.id);
    const res = await enrolDevice({ token, imei1: c.imei1, serial_number: 'R58N12345' });
    expect(res.statusCode).toBe(200);
    const device = res.json().data;
    expect(device.mqtt.command_topic).toBe(`kisht/v1/d/${device.device_id}/cmd`);
    expect((await t.get(`/api/country/getCustomerProfile?customer_id=${c.id}`, { token: ravi })).json().data.install_status).toBe(1);
    // The token works once.
    expect((await enrolDevice({ token, imei1: c.imei1 })).json().code).toBe('ENROLMENT_INVALID');
  });

  it('refuses another phone, an expired token and a forged one alike', async () => {
    const c = await enrolCustomer();
    const token = await qrToken(c.id);
    const other = withImeiCheckDigit('35999999999999');
    expect((await enrolDevice({ token, imei1: other })).json().code).toBe('ENROLMENT_INVALID');
    await t.db.query(`UPDATE enrolment_tokens SET expires_at = now() - interval '1 minute' WHERE customer_id = $1`, [c.id]);
    expect((await enrolDevice({ token: await qrToken(c.id).then(async (fresh) => { await t.db.query(`UPDATE enrolment_tokens SET expires_at = now() - interval '1 minute'`); return fresh; }), imei1: c.imei1 })).json().code).toBe('ENROLMENT_INVALID');
    expect((await enrolDevice({ token: 'A'.repeat(43), imei1: c.imei1 })).json().code).toBe('ENROLMENT_INVALID');
  });

  it("keeps the QR of a customer to the customer's own network", async () => {
    const c = await enrolCustomer();
    const meena = (await t.signIn(MEENA)).token;
    expect((await t.get(`/api/customer/generate_emm_code?customer_id=${c.id}`, { token: meena })).statusCode).toBe(404);
  });
});

describe('the broker', () => {
  it('lets a phone in with its own credentials, onto its own topics only', async () => {
    if (process.env.TEST_MQTT_URL) return; // the ACL of an external broker is its own configuration (docs/device-protocol.md)
    const a = await enrolCustomer();
    const b = await enrolCustomer();
    const devA = (await enrolDevice({ token: await qrToken(a.id), imei1: a.imei1 })).json().data;
    const devB = (await enrolDevice({ token: await qrToken(b.id), imei1: b.imei1 })).json().data;
    await expect(connect(devA.mqtt.username, 'wrong-password')).rejects.toThrow();
    // Its own credentials under another phone's client id (which would take that phone's kept session): refused.
    await expect(new Promise((resolve, reject) => {
      const client = mqtt.connect(t.broker.status().url.replace('0.0.0.0', '127.0.0.1'), { clientId: devB.mqtt.username, username: devA.mqtt.username, password: devA.mqtt.password, reconnectPeriod: 0, connectTimeout: 3000 });
      client.once('connect', () => { client.end(true); resolve('connected'); });
      client.once('error', (error) => { client.end(true); reject(error); });
    })).rejects.toThrow();
    const phoneA = await connect(devA.mqtt.username, devA.mqtt.password);
    const granted = await phoneA.subscribeAsync(devA.mqtt.command_topic, { qos: 1 });
    expect(granted[0]!.qos).toBe(1);
    // Another phone's topic is refused with a failure code (128); the connection itself stays up.
    await expect(phoneA.subscribeAsync(devB.mqtt.command_topic, { qos: 1 })).rejects.toThrow(/Subscribe error/);
    expect(phoneA.connected).toBe(true);
    // A command published by the server on A's topic reaches A.
    const received = new Promise<string>((resolve) => phoneA.once('message', (_topic, payload) => resolve(payload.toString())));
    await t.broker.client.publishAsync(devA.mqtt.command_topic, JSON.stringify({ v: 1, type: 'ping' }), { qos: 1 });
    expect(JSON.parse(await received)).toEqual({ v: 1, type: 'ping' });
    // A's events are accepted; writing on B's topic drops A's connection.
    await phoneA.publishAsync(devA.mqtt.event_topic, 'hello', { qos: 1 });
    const closed = new Promise((resolve) => phoneA.once('close', () => resolve(null)));
    phoneA.publish(devB.mqtt.event_topic, 'spoof', { qos: 1 });
    await closed;
    phoneA.end(true);
  });
});

describe('lock and unlock', () => {
  it('go to the phone as sealed, numbered commands; the customer shows Locked only when the phone confirms', async () => {
    const { customer: c, phone } = await f.phone();
    const first = await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ type: 'lock', seq: 1, state: 'sent' });
    // A double tap makes no second command.
    expect((await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi })).json().data.id).toBe(first.json().data.id);
    const command = await phone.next();
    expect(command).toMatchObject({ v: 1, id: first.json().data.id, seq: 1, type: 'lock' });
    expect(command.payload).toMatchObject({ lock_screen: { amount_due: 0, retailer_mobile: RAVI } });
    expect((await f.profile(c.id)).lock_status).toBe(0);

    await phone.ack(command, 'delivered');
    await expect.poll(async () => (await f.commands(c.id))[0]!.state).toBe('delivered');
    await phone.ack(command, 'done');
    await expect.poll(async () => (await f.profile(c.id)).lock_status).toBe(1);
    const history = await f.commands(c.id);
    expect(history[0]).toMatchObject({ state: 'done' });
    expect(history[0]!.delivered_at).not.toBeNull();

    // A late report changes nothing; a locked phone offers unlock, not lock.
    await phone.ack(command, 'delivered');
    await new Promise((r) => setTimeout(r, 100));
    expect((await f.commands(c.id))[0]!.state).toBe('done');
    expect((await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi })).json().code).toBe('ACTION_NOT_ALLOWED');
    const unlock = await t.post('/api/device/unlock', { customer_id: c.id }, { token: ravi });
    expect(unlock.json().data).toMatchObject({ type: 'unlock', seq: 2 });
    await phone.close();
  });

  it("is refused without the retailer's lock switches, for another network's customer, and before enrolment", async () => {
    const { customer: c, phone } = await f.phone();
    await phone.close();
    const meena = (await t.signIn(MEENA)).token;
    expect((await t.post('/api/device/lock', { customer_id: c.id }, { token: meena })).statusCode).toBe(404);
    await t.db.query(`UPDATE users SET lock_access = lock_access || '{"lock": "0"}' WHERE mobile = $1`, [RAVI]);
    expect((await t.post('/api/device/lock', { customer_id: c.id }, { token: ravi })).json().code).toBe('ACCESS_DENIED');
    await t.db.query(`UPDATE users SET lock_access = lock_access || '{"lock": "1"}' WHERE mobile = $1`, [RAVI]);
    const bare = await f.customer();
    const res = await t.post('/api/device/lock', { customer_id: bare.id }, { token: ravi });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('DEVICE_NOT_ENROLLED');
  });
});
