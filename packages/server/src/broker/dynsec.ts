/**
 * Device accounts on Mosquitto through its Dynamic Security plugin: each phone gets a client (its
 * username and password) and a role allowing exactly its own topics, created and removed over the
 * plugin's control topic by the server's admin connection. See deploy/mosquitto/README.md.
 */
import { randomUUID } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { commandTopic, eventTopic } from '@kisht/protocol/topics';

const CONTROL = '$CONTROL/dynamic-security/v1';
const RESPONSE = `${CONTROL}/response`;

interface Response { command: string; error?: string; correlationData?: string }

export interface DeviceAccounts {
  add(deviceId: string, password: string): Promise<void>;
  remove(deviceId: string): Promise<void>;
}

export async function dynamicSecurityAccounts(client: MqttClient, serverUsername: string, timeoutMs = 5000): Promise<DeviceAccounts> {
  const waiting = new Map<string, (responses: Response[]) => void>();
  await client.subscribeAsync(RESPONSE, { qos: 1 });
  client.on('message', (topic, payload) => {
    if (topic !== RESPONSE) return;
    let body: { responses?: Response[] };
    try {
      body = JSON.parse(payload.toString()) as typeof body;
    } catch {
      return;
    }
    const id = body.responses?.[0]?.correlationData;
    if (id && waiting.has(id)) {
      waiting.get(id)!(body.responses!);
      waiting.delete(id);
    }
  });

  /** Sends commands in one message and resolves with their responses; `tolerate` lists errors that are fine. */
  async function send(commands: Record<string, unknown>[], tolerate: RegExp | null = null): Promise<void> {
    const id = randomUUID();
    const responses = new Promise<Response[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the broker did not answer the dynamic-security command'));
      }, timeoutMs);
      waiting.set(id, (r) => {
        clearTimeout(timer);
        resolve(r);
      });
    });
    await client.publishAsync(CONTROL, JSON.stringify({ commands: commands.map((c) => ({ ...c, correlationData: id })) }), { qos: 1 });
    const failed = (await responses).filter((r) => r.error && !(tolerate && tolerate.test(r.error)));
    if (failed.length) throw new Error(`dynamic security refused: ${failed.map((r) => `${r.command}: ${r.error}`).join('; ')}`);
  }

  // The server's own account (made with `mosquitto_ctrl dynsec init`) may need rights on every device topic.
  await send([
    {
      command: 'createRole', rolename: 'kisht-server',
      acls: ['publishClientSend', 'publishClientReceive', 'subscribePattern', 'unsubscribePattern'].map((acltype) => ({ acltype, topic: 'kisht/#', priority: 0, allow: true })),
    },
  ], /already exists/i);
  // Mosquitto drops a client whose roles change; the MQTT client reconnects and sends the command again,
  // which then answers with an error for the role it already has. Both outcomes leave the role in place.
  await send([{ command: 'addClientRole', username: serverUsername, rolename: 'kisht-server', priority: 0 }], /already|internal error/i);

  const role = (deviceId: string) => `kisht-device-${deviceId}`;
  return {
    async add(deviceId, password) {
      await send([
        {
          command: 'createRole', rolename: role(deviceId),
          acls: [
            { acltype: 'subscribeLiteral', topic: commandTopic(deviceId), priority: 0, allow: true },
            { acltype: 'publishClientSend', topic: eventTopic(deviceId), priority: 0, allow: true },
          ],
        },
        { command: 'createClient', username: deviceId, clientid: deviceId, password, roles: [{ rolename: role(deviceId), priority: 0 }] },
      ]);
    },
    async remove(deviceId) {
      await send([{ command: 'deleteClient', username: deviceId }, { command: 'deleteRole', rolename: role(deviceId) }], /not found/i);
    },
  };
}
