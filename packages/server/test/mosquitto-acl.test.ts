/**
 * Mosquitto with the dynamic-security plugin, as deploy/mosquitto describes: the server creates each
 * phone's account and ACL, and Mosquitto keeps every phone to its own topics. Skipped where Mosquitto or
 * the plugin is not installed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { freePort, startTestApp, RAVI, type TestApp } from './harness.ts';
import { deviceFixtures } from './device-fixtures.ts';
import { connectPhone } from './phone.ts';

const PLUGIN = ['/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so', '/usr/lib/aarch64-linux-gnu/mosquitto_dynamic_security.so', '/usr/lib/mosquitto_dynamic_security.so'].find((p) => existsSync(p));
const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p));
const available = Boolean(PLUGIN && MOSQUITTO && spawnSync('mosquitto_ctrl', ['--help']).status !== null);

describe.skipIf(!available)('Mosquitto with dynamic security', () => {
  let dir: string;
  let broker: ChildProcess;
  let url: string;
  let t: TestApp;
  let ravi: string;
  let f: ReturnType<typeof deviceFixtures>;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'kisht-mosquitto-'));
    const password = 'server-secret-for-tests';
    const init = spawnSync('mosquitto_ctrl', ['dynsec', 'init', path.join(dir, 'dynsec.json'), 'kisht-server', password]);
    expect(init.status, init.stderr.toString()).toBe(0);
    // Mosquitto started as root drops to its own user, which must read and rewrite the plugin's file.
    chmodSync(dir, 0o777);
    chmodSync(path.join(dir, 'dynsec.json'), 0o666);
    const port = await freePort();
    writeFileSync(path.join(dir, 'mosquitto.conf'), [
      'per_listener_settings false', 'allow_anonymous false', 'persistence false', `listener ${port} 127.0.0.1`,
      `plugin ${PLUGIN}`, `plugin_opt_config_file ${path.join(dir, 'dynsec.json')}`, '',
    ].join('\n'));
    broker = spawn(MOSQUITTO!, ['-v', '-c', path.join(dir, 'mosquitto.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    broker.stderr!.on('data', (d: Buffer) => { if (process.env.DEBUG_MQ) console.log(d.toString()); });
    url = `mqtt://127.0.0.1:${port}`;
    for (let i = 0; i < 50; i++) {
      const open = await new Promise<boolean>((resolve) => net.connect(port, '127.0.0.1').once('connect', function (this: net.Socket) { this.destroy(); resolve(true); }).once('error', () => resolve(false)));
      if (open) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    t = await startTestApp({ env: { MQTT_URL: url, MQTT_USERNAME: 'kisht-server', MQTT_PASSWORD: password, MQTT_DEVICE_AUTH: 'dynsec' } });
    ravi = (await t.signIn(RAVI)).token;
    f = deviceFixtures(t, () => ravi);
  });

  afterAll(async () => {
    await t?.stop();
    broker?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lets a phone in with its own credentials only, onto its own topics only, and carries a lock both ways", async () => {
    const a = await f.phone();
    const b = await f.phone();
    await expect(mqtt.connectAsync(url, { username: a.device.mqtt.username, password: 'wrong', reconnectPeriod: 0, connectTimeout: 3000 })).rejects.toThrow();
    // Another phone's command topic: refused (SUBACK failure).
    await expect(a.phone.client.subscribeAsync(b.device.mqtt.command_topic, { qos: 1 })).rejects.toThrow();
    // A publish on another phone's event topic never reaches the server.
    await a.phone.client.publishAsync(b.device.mqtt.event_topic, 'spoof', { qos: 1 }).catch(() => undefined);

    await t.post('/api/device/lock', { customer_id: a.customer.id }, { token: ravi });
    const lock = await a.phone.next();
    await a.phone.ack(lock, 'done');
    await expect.poll(async () => (await f.profile(a.customer.id)).lock_status).toBe(1);
    // B saw nothing of A's command.
    expect(b.phone.raw).toEqual([]);
    await a.phone.close();
    await b.phone.close();
  });

  it('removes the account of a released phone', async () => {
    const { customer: c, device, phone } = await f.phone();
    await t.db.query('UPDATE emi_instalments SET paid_paise = amount_paise + penalty_paise WHERE customer_id = $1', [c.id]);
    await t.post('/api/device/unclaim', { customer_id: c.id }, { token: ravi });
    await phone.ack(await phone.next(), 'done');
    await expect.poll(async () => (await t.db.query('SELECT active FROM devices WHERE id = $1', [device.device_id])).rows[0]!.active).toBe(false);
    await phone.close();
    await expect.poll(async () => connectPhone(url, device).then(async (p) => { await p.close(); return 'connected'; }, () => 'refused'), { timeout: 5000 }).toBe('refused');
  });
});
