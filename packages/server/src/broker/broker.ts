/**
 * The device channel's MQTT side. Either an embedded Aedes broker (default, on MQTT_PORT, plus MQTT over
 * WebSocket on the API port) or an external broker at MQTT_URL (Mosquitto, EMQX). Either way the server
 * talks to it through one MQTT client, so the code above does not care which one runs.
 */
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { createHmac } from 'node:crypto';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';

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
}

const SERVER_USERNAME = 'kisht-server';

/** The server's own broker password, derived from the app secret so nothing extra has to be configured. */
function serverPassword(secret: string): string {
  return createHmac('sha256', secret).update('mqtt-server-credential').digest('base64url');
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
    return {
      client,
      status: () => ({ ok: client.connected, mode: 'external', url: options.url! }),
      close: () => client.endAsync(),
    };
  }

  const password = serverPassword(options.secret);
  const aedes = await Aedes.createBroker({ drainTimeout: 30_000 });
  // Default deny: only the server's own client may connect until devices get their credentials.
  aedes.authenticate = (_client, username, pass, done) => {
    const ok = username === SERVER_USERNAME && pass?.toString() === password;
    if (ok) return done(null, true);
    const error = Object.assign(new Error('Bad username or password'), { returnCode: 4 });
    return done(error as never, false);
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
    async close() {
      await client.endAsync(true);
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}
