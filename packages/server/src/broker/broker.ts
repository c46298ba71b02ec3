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
import { commandTopic, deviceIdOf, deviceIdOfEventTopic, eventTopic } from '@kisht/protocol/topics';
import { dynamicSecurityAccounts, type DeviceAccounts } from './dynsec.ts';
import { limitPacketSize } from './packet-size.ts';
import { LISTEN_BACKLOG } from '../listen-backlog.ts';

export interface BrokerStatus {
  ok: boolean;
  mode: 'embedded' | 'external';
  url: string;
}

/** Takes one phone report; it is acknowledged (to the broker, or on the embedded broker to the phone) only once this resolves. */
export type DeviceEventHandler = (topic: string, payload: Buffer) => Promise<unknown>;

export interface Broker {
  readonly client: MqttClient;
  /**
   * Sets who takes the phones' reports. Until then reports wait unacknowledged (a kept session's backlog
   * included), so nothing arrives before the handler exists.
   */
  onDeviceEvent(handler: DeviceEventHandler): Promise<void>;
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
  /** With an external broker: nodes subscribe as one shared-subscription group, so each report goes to one node. */
  sharedGroup?: string | undefined;
  /** With an external broker: connections taking reports (REPORT_CONNECTIONS unless set). */
  reportConnections?: number | undefined;
  /** Whether a failed handler is worth trying again at once (the database is away) rather than after the check-in. */
  retryable?: (error: unknown) => boolean;
  log?: (message: string, error?: unknown) => void;
}

/** The largest MQTT packet the embedded broker takes (phones' reports are a few hundred bytes; commands a few KB). */
export const MAX_PACKET_BYTES = 64 * 1024;
/** How long a phone released by its own report keeps its connection, for that report's PUBACK. */
const CLOSE_AFTER_REPORT_MS = 1000;
/**
 * Connections a node takes phone reports over from an external broker, as many reports at once (and as many
 * in one group transaction). 64: a 10,000-phone bulk lock through Mosquitto settled in 22.5 s against 35.7 s with
 * 16 (bench/device-bulk-lock.ts --mosquitto). Raising it adds sessions; lowering it leaves the sessions of
 * connections no longer used behind on the broker (end them with a clean connect).
 */
export const REPORT_CONNECTIONS = 64;
/** Tries of a report whose handler keeps failing for a reason that is not an outage; the phone's check-in brings it back. */
const TRIES_WHEN_NOT_RETRYABLE = 3;

/** Holds reports until the handler is set, then runs each through it. */
function eventGate() {
  let handler: DeviceEventHandler | null = null;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    set(next: DeviceEventHandler) {
      if (handler) throw new Error('the device event handler is already set');
      handler = next;
      open();
    },
    async run(topic: string, payload: Buffer): Promise<void> {
      await opened;
      await handler!(topic, payload);
    },
  };
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs a report's handler until it is taken. A failure that is not an outage (a report the handler cannot
 * take) is tried a few times, then acknowledged and logged: the phone's check-in carries its outcome again,
 * and one bad report does not hold back the phone's later ones. An outage is tried again while
 * `giveUpWhenRetryable` says no; when it says yes the error goes back and the report stays unacknowledged.
 */
async function takeReport(
  run: () => Promise<unknown>,
  options: { retryable: (error: unknown) => boolean; log: (message: string, error?: unknown) => void; giveUpWhenRetryable: () => boolean },
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await run();
      return;
    } catch (error) {
      if (!options.retryable(error)) {
        if (attempt >= TRIES_WHEN_NOT_RETRYABLE) {
          options.log("a device report failed; acknowledged, the phone's check-in carries its outcome again", error);
          return;
        }
      } else if (options.giveUpWhenRetryable()) {
        throw error;
      }
      options.log('a device report failed; trying again', error);
      await pause(Math.min(250 * 2 ** attempt, 5000));
    }
  }
}

export const SERVER_USERNAME = 'kisht-server';

/** The server's own broker password, derived from the app secret so nothing extra has to be configured. */
export function serverPassword(secret: string): string {
  return deriveKey(secret, 'mqtt-server-credential').toString('base64url');
}

function connectClient(url: string, options: mqtt.IClientOptions, prepare: (client: MqttClient) => void = () => undefined): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(url, { reconnectPeriod: 1000, connectTimeout: 5000, clean: false, ...options });
    // Before the first packet can arrive: a kept session delivers its backlog right after CONNACK.
    prepare(client);
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
  const log = options.log ?? (() => undefined);
  const retryable = options.retryable ?? (() => true);
  if (options.url) {
    const credentials = {
      ...(options.username ? { username: options.username } : {}),
      ...(options.password ? { password: options.password } : {}),
    };
    // Commands and the account control go over one connection; reports come over a second one (below), whose
    // packets may wait for the database without holding up the acknowledgements of our own publishes.
    // A kept session here too: Mosquitto drops a client whose roles change, and the dynamic-security answer must
    // still reach the subscription made before the drop.
    const client = await connectClient(options.url, { ...credentials, clientId: `${options.clientId}-out` });
    client.on('error', () => undefined); // reconnects on its own; health reports the state
    const accounts = options.deviceAuth === 'dynsec' ? await dynamicSecurityAccounts(client, options.username ?? '') : undefined;
    const reports: MqttClient[] = [];
    return {
      ...(accounts ? { accounts } : {}),
      client,
      async onDeviceEvent(handler) {
        if (reports.length > 0) throw new Error('the device event handler is already set');
        // One report, tried until it is taken: the PUBACK goes only after the handler resolved (its transaction
        // committed). While the connection is down nothing is acknowledged; the broker delivers it again.
        const take = (connection: MqttClient, topic: string, payload: Buffer) =>
          takeReport(() => handler(topic, payload), { retryable, log, giveUpWhenRetryable: () => !connection.connected });
        // A connection takes one report at a time (the next waits for this one's PUBACK), so reports come over
        // several connections sharing one subscription: that many are taken at once, and they are grouped into
        // one transaction (modules/devices). The first keeps the node's own client id, and with it the session
        // (and the reports queued in it) of a node that ran before with one connection. Each connection's kept
        // session delivers its backlog right after connecting: the handler is in place first.
        const group = options.sharedGroup ?? options.clientId;
        const count = Math.max(1, options.reportConnections ?? REPORT_CONNECTIONS);
        for (let i = 0; i < count; i++) {
          const clientId = i === 0 ? options.clientId : `${options.clientId}-r${i}`;
          const connection = await connectClient(options.url!, { ...credentials, clientId }, (created) => {
            created.handleMessage = (packet, callback) => {
              if (!deviceIdOfEventTopic(packet.topic)) return callback();
              const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
              take(created, packet.topic, payload).then(() => callback(), (error: Error) => callback(error));
            };
          });
          connection.on('error', () => undefined);
          reports.push(connection);
          // Each report goes to one connection of the group (with several nodes, to one node's connection).
          await connection.subscribeAsync(`$share/${group}/${eventTopic('+')}`, { qos: 1 });
          // A subscription kept in the session from before would get every report as well as this share: the plain one
          // of a node that ran with one connection, or the node's own group before it joined MQTT_SHARED_GROUP.
          await connection.unsubscribeAsync([eventTopic('+'), ...(group === options.clientId ? [] : [`$share/${options.clientId}/${eventTopic('+')}`])]);
        }
      },
      status: () => ({ ok: client.connected && reports.every((r) => r.connected), mode: 'external', url: options.url! }),
      async close() {
        await Promise.all(reports.map((r) => r.endAsync()));
        await client.endAsync();
      },
    };
  }

  const gate = eventGate();
  /** Devices whose report is being taken now, and how many. */
  const reporting = new Map<string, number>();
  const password = serverPassword(options.secret);
  const aedes = await Aedes.createBroker({ drainTimeout: 30_000 });
  let checkDevice: ((deviceId: string, password: string) => Promise<boolean>) | null = null;
  // Phones that connect while the server is still starting wait for the check instead of being refused.
  let checkSet!: () => void;
  const checkReady = new Promise<void>((resolve) => (checkSet = resolve));
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
    if (!deviceId || client.id !== deviceId || !pass) return refuse(done);
    checkReady.then(() => checkDevice!(deviceId, pass.toString())).then(
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
  // A phone's report is taken here, before the broker answers the phone: its PUBACK leaves only after the
  // report's transaction committed. A failure closes the connection unacknowledged; the phone sends it again.
  aedes.authorizePublish = (client, packet, done) => {
    const deviceId = client ? deviceOf.get(client) : undefined;
    if (packet.topic.startsWith('$SYS')) return done(new Error('$SYS is reserved'));
    if (deviceId === null) return done(null);
    if (deviceId && packet.topic === eventTopic(deviceId)) {
      // An outage is not waited out here: the refusal closes the phone's connection and it sends the report again.
      reporting.set(deviceId, (reporting.get(deviceId) ?? 0) + 1);
      takeReport(() => gate.run(packet.topic, packet.payload as Buffer), { retryable, log, giveUpWhenRetryable: () => true }).then(
        () => done(null),
        (error: unknown) => {
          log('a device report failed; the phone will send it again', error);
          done(error instanceof Error ? error : new Error(String(error)));
        },
      ).finally(() => {
        const left = (reporting.get(deviceId) ?? 1) - 1;
        if (left > 0) reporting.set(deviceId, left);
        else reporting.delete(deviceId);
      });
      return;
    }
    return done(new Error('publish not allowed'));
  };
  // Reports are taken above; nobody subscribes to them, so they are not stored for anyone.
  const tcp = net.createServer((socket) => aedes.handle(limitPacketSize(socket, MAX_PACKET_BYTES)));
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen({ port: options.port, host: options.host, backlog: LISTEN_BACKLOG }, () => {
      tcp.off('error', reject);
      resolve();
    });
  });
  // A failed accept (out of file handles, say) is logged; it must not end the process.
  tcp.on('error', (error) => log('the embedded broker\'s listener reported an error', error));
  const address = tcp.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `mqtt://127.0.0.1:${port}`;
  const client = await connectClient(url, { clientId: options.clientId, username: SERVER_USERNAME, password });
  client.on('error', () => undefined);
  return {
    client,
    onDeviceEvent: async (handler) => gate.set(handler),
    status: () => ({ ok: client.connected && !aedes.closed, mode: 'embedded', url: `mqtt://${options.host}:${port}` }),
    handleWebSocket: (stream, request) => aedes.handle(limitPacketSize(stream, MAX_PACKET_BYTES), request),
    allowDevices: (check) => {
      checkDevice = check;
      checkSet();
    },
    // The embedded broker asks the server at every connect; a released or replaced phone's open connection is closed.
    accounts: {
      add: async () => undefined,
      remove: async (deviceId) => {
        // Aedes keeps its connected clients by id; its types do not declare the map.
        const close = () => (aedes as unknown as { clients: Record<string, { close(): void } | undefined> }).clients[deviceId]?.close();
        // Released by its own report (an uninstall done): that report's PUBACK leaves first, or the phone sends it again.
        if (reporting.has(deviceId)) setTimeout(close, CLOSE_AFTER_REPORT_MS).unref();
        else close();
      },
    },
    async close() {
      await client.endAsync(true);
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}
