/**
 * The device channel's MQTT side. Either an embedded Aedes broker (default, on MQTT_PORT, plus MQTT over
 * WebSocket on the API port) or an external broker at MQTT_URL (Mosquitto, EMQX). Either way the server
 * talks to it through one MQTT client, so the code above does not care which one runs.
 */
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { deriveKey } from '../secret.ts';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { commandTopic, deviceIdOf, eventTopic } from '@kisht/protocol/topics';
import { dynamicSecurityAccounts, type DeviceAccounts } from './dynsec.ts';

export interface BrokerStatus {
  ok: boolean;
  mode: 'embedded' | 'external';
  url: string;
}

export interface Broker {
  readonly client: MqttClient;
  status(): BrokerStatus;
  /** Hands a WebSocket stream to the embedded broker; undefined for an external broker. */
  handleWebSocket?: (stream: Duplex, request: IncomingMessage) => void;
  /** Lets phones in with their own credentials (embedded broker). */
  allowDevices?: (check: (deviceId: string, password: string) => Promise<boolean>) => void;
  /** Creates and removes each phone's account and ACL on an external broker (Mosquitto's dynamic security). */
  accounts?: DeviceAccounts;
  close(): Promise<void>;
}

export interface BrokerOptions {
  url?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
  port: number;
  host: string;
  secret: string;
  clientId: string;
  /** How phones are let into an external broker: its own configuration, or accounts the server manages. */
  deviceAuth?: 'none' | 'dynsec';
}

export const SERVER_USERNAME = 'kisht-server';

/** The server's own broker password, derived from the app secret so nothing extra has to be configured. */
export function serverPassword(secret: string): string {
  return deriveKey(secret, 'mqtt-server-credential').toString('base64url');
}

function connectClient(url: string, options: mqtt.IClientOptions): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(url, { reconnectPeriod: 1000, connectTimeout: 5000, clean: false, ...options });
    const fail = (error: Error) => {
      client.end(true);
      reject(error);
    };
    client.once('connect', () => {
      client.off('error', fail);
      resolve(client);
    });
    client.once('error', fail);
  });
}

export async function startBroker(options: BrokerOptions): Promise<Broker> {
  if (options.url) {
    const client = await connectClient(options.url, {
      clientId: options.clientId,
      ...(options.username ? { username: options.username } : {}),
      ...(options.password ? { password: options.password } : {}),
    });
    client.on('error', () => undefined); // reconnects on its own; health reports the state
    const accounts = options.deviceAuth === 'dynsec' ? await dynamicSecurityAccounts(client, options.username ?? '') : undefined;
    return {
      ...(accounts ? { accounts } : {}),
      client,
      status: () => ({ ok: client.connected, mode: 'external', url: options.url! }),
      close: () => client.endAsync(),
    };
  }

  const password = serverPassword(options.secret);
  const aedes = await Aedes.createBroker({ drainTimeout: 30_000 });
  let checkDevice: ((deviceId: string, password: string) => Promise<boolean>) | null = null;
  // Which device each connection belongs to; the server's own connection maps to null.
  const deviceOf = new WeakMap<object, string | null>();
  const refuse = (done: (error: never, ok: boolean) => void) => done(Object.assign(new Error('Bad username or password'), { returnCode: 4 }) as never, false);
  // Default deny: the server's own client, and devices with their own credentials once allowed.
  aedes.authenticate = (client, username, pass, done) => {
    if (username === SERVER_USERNAME && pass?.toString() === password) {
      deviceOf.set(client, null);
      return done(null, true);
    }
    const deviceId = deviceIdOf(username);
    // A phone's client id is its own id: another id could take over a different phone's kept session.
    if (!deviceId || client.id !== deviceId || !checkDevice || !pass) return refuse(done);
    checkDevice(deviceId, pass.toString()).then(
      (ok) => {
        if (!ok) return refuse(done);
        deviceOf.set(client, deviceId);
        return done(null, true);
      },
      () => refuse(done),
    );
  };
  // A device may read only its own command topic and write only its own event topic.
  aedes.authorizeSubscribe = (client, subscription, done) => {
    const deviceId = client ? deviceOf.get(client) : undefined;
    if (deviceId === null) return done(null, subscription);
    if (deviceId && subscription.topic === commandTopic(deviceId)) return done(null, subscription);
    return done(null, null); // refused with a SUBACK failure code, the connection stays
  };
  // What a client receives, also from a session kept while it was away: a device only its own command topic.
  aedes.authorizeForward = (client, packet) => {
    const deviceId = client ? deviceOf.get(client) : undefined;
    if (deviceId === null) return packet;
    return deviceId && packet.topic === commandTopic(deviceId) ? packet : null;
  };
  aedes.authorizePublish = (client, packet, done) => {
    const deviceId = client ? deviceOf.get(client) : undefined;
    if (packet.topic.startsWith('$SYS')) return done(new Error('$SYS is reserved'));
    if (deviceId === null) return done(null);
    if (deviceId && packet.topic === eventTopic(deviceId)) return done(null);
    return done(new Error('publish not allowed'));
  };
  const tcp = net.createServer((socket) => aedes.handle(socket));
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(options.port, options.host, () => {
      tcp.off('error', reject);
      resolve();
    });
  });
  const address = tcp.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `mqtt://127.0.0.1:${port}`;
  const client = await connectClient(url, { clientId: options.clientId, username: SERVER_USERNAME, password });
  client.on('error', () => undefined);
  return {
    client,
    status: () => ({ ok: client.connected && !aedes.closed, mode: 'embedded', url: `mqtt://${options.host}:${port}` }),
    handleWebSocket: (stream, request) => aedes.handle(stream, request),
    allowDevices: (check) => {
      checkDevice = check;
    },
    async close() {
      await client.endAsync(true);
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}
