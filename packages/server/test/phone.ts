/**
 * A minimal phone for server tests, built on the protocol package: it connects with its own credentials,
 * opens sealed commands and answers with sealed, numbered events. The full phone is packages/agent.
 */
import mqtt from 'mqtt';
import type { CommandMessage, DeviceEvent } from '@kisht/protocol/messages';
import { seal, unseal } from '@kisht/protocol/signing';

export interface Enrolled {
  device_id: string;
  mqtt: { url: string; username: string; password: string; command_topic: string; event_topic: string };
  offline_secret: string;
}

export async function connectPhone(brokerUrl: string, device: Enrolled) {
  const client = await mqtt.connectAsync(brokerUrl.replace('0.0.0.0', '127.0.0.1'), {
    clientId: device.mqtt.username, username: device.mqtt.username, password: device.mqtt.password, clean: false, reconnectPeriod: 0, connectTimeout: 3000,
  });
  await client.subscribeAsync(device.mqtt.command_topic, { qos: 1 });
  const received: CommandMessage[] = [];
  const raw: string[] = [];
  client.on('message', (_topic, payload) => {
    raw.push(payload.toString());
    const command = unseal<CommandMessage>(device.offline_secret, payload);
    if (command) received.push(command);
  });
  let n = 0;
  let seen = 0;
  async function send(event: Omit<DeviceEvent, 'v' | 'n' | 'at'> & { n?: number }, secret = device.offline_secret) {
    const body = { v: 1, at: new Date().toISOString(), ...event, n: event.n ?? ++n };
    await client.publishAsync(device.mqtt.event_topic, seal(secret, body), { qos: 1 });
    return body.n;
  }
  return {
    client,
    received,
    raw,
    send,
    /** Waits for the next command not yet seen. */
    async next(timeoutMs = 5000): Promise<CommandMessage> {
      const deadline = Date.now() + timeoutMs;
      while (received.length <= seen) {
        if (Date.now() > deadline) throw new Error('no command arrived');
        await new Promise((r) => setTimeout(r, 20));
      }
      return received[seen++]!;
    },
    async ack(command: CommandMessage, state: 'delivered' | 'done' | 'failed', result?: Record<string, unknown>) {
      return send({ kind: 'ack', id: command.id, state, ...(result ? { result } : {}) } as never);
    },
    async close() {
      await client.endAsync(true);
    },
  };
}
export type TestPhone = Awaited<ReturnType<typeof connectPhone>>;
