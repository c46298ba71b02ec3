/**
 * Faults with the whole server going away: the embedded broker restarts (losing the sessions it held) while
 * phones are offline, and every queued command still arrives, in order, once.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../server/src/app.ts';
import { freePort, startTestApp, RAVI, type TestApp } from '../../server/test/harness.ts';
import { addCustomer, qrPayload, until, type LiveServer } from './support.ts';
import { DeviceAgent } from '../src/agent.ts';
import { MemoryStore } from '../src/store.ts';

let t: TestApp | undefined;
let second: BuiltApp | undefined;
afterAll(async () => {
  await second?.close();
  await t?.stop();
});

// With an external broker (TEST_MQTT_URL) the broker is not ours to restart.
describe.skipIf(Boolean(process.env.TEST_MQTT_URL))('a broker restart while phones are offline', () => {
  it('loses no queued command: each arrives once, in order, when the phone is back', async () => {
    const port = await freePort();
    const mqttPort = await freePort();
    const url = `http://127.0.0.1:${port}`;
    t = await startTestApp({ limits: { otpSendsPerMobilePerHour: 100, otpSendsPerIpPerHour: 1000 }, env: { PUBLIC_URL: url, PORT: String(port), MQTT_PORT: String(mqttPort) } });
    await t.app.listen({ port, host: '127.0.0.1' });
    const live: LiveServer = { t, url, ravi: (await t.signIn(RAVI)).token, stop: async () => undefined };

    const customer = await addCustomer(live);
    const agent = new DeviceAgent({ store: new MemoryStore(), tickMs: 200, mqttOptions: { reconnectPeriod: 200 } });
    await agent.enrolFromQr(await qrPayload(live, customer.id), { imei1: customer.imei1 });
    agent.start();
    await until(() => agent.isConnected);

    await agent.goOffline();
    const sent: string[] = [];
    for (const [path, body] of [['/api/device/camera_lock', { on: true }], ['/api/device/wallpaper', { text: 'Pay at Ravi Mobiles', policy: 'alert' }], ['/api/device/lock', {}]] as const) {
      const res = await t.post(path, { customer_id: customer.id, ...body }, { token: live.ravi });
      expect(res.statusCode, res.body).toBe(200);
      sent.push(res.json().data.id);
    }

    // The server and its embedded broker go away (the broker's sessions with them) and come back on the same ports.
    await t.app.close();
    await t.broker.close();
    second = await buildApp(t.config, { db: t.db, secret: t.secret });
    await second.app.listen({ port, host: '127.0.0.1' });

    const doneBefore = agent.stats.commandsDone;
    agent.goOnline();
    await until(() => agent.stats.commandsDone - doneBefore >= 3, 15_000);
    const states = async () => (await t!.db.query<{ state: string }>('SELECT state FROM device_commands WHERE customer_id = $1', [customer.id])).rows.map((r) => r.state);
    await expect.poll(states, { timeout: 10_000 }).toEqual(['done', 'done', 'done']);
    const rows = (await t.db.query<{ id: string; state: string; seq: number; finished_at: Date }>('SELECT id, state, seq, finished_at FROM device_commands WHERE customer_id = $1 ORDER BY seq', [customer.id])).rows;
    expect(rows.map((r) => r.id)).toEqual(sent);
    // Carried out in order, each once.
    expect(rows.map((r) => r.finished_at.getTime())).toEqual([...rows.map((r) => r.finished_at.getTime())].sort((a, b) => a - b));
    await new Promise((r) => setTimeout(r, 500));
    expect(agent.stats.commandsDone - doneBefore).toBe(3);
    expect(agent.snapshot().screen.locked).toBe(true);
    expect((await t.db.query<{ lock_status: number }>('SELECT lock_status FROM customers WHERE id = $1', [customer.id])).rows[0]!.lock_status).toBe(1);
    await agent.stop();
  });
});
