/**
 * An external broker with several API nodes: the nodes subscribe as one shared-subscription group, so each
 * phone report reaches one node, also when a node's kept session still holds the plain subscription from
 * before it joined the group (that node would otherwise get every report, the other nodes' too).
 * Runs against the machine's Mosquitto (npm run test:services).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { eventTopic } from '@kisht/protocol/topics';
import { REPORT_CONNECTIONS, startBroker, type Broker } from '../src/broker/broker.ts';

const url = process.env.TEST_MQTT_URL;
const open: Broker[] = [];
const clientIds: string[] = [];
afterAll(async () => {
  for (const broker of open) await broker.close();
  // The machine's broker keeps sessions: the test's are ended, or they would queue every later report.
  const reportIds = (id: string) => Array.from({ length: REPORT_CONNECTIONS - 1 }, (_, i) => `${id}-r${i + 1}`);
  for (const clientId of clientIds.flatMap((id) => [id, `${id}-out`, ...reportIds(id)])) {
    await (await mqtt.connectAsync(url!, { clientId, clean: true, reconnectPeriod: 0 })).endAsync();
  }
});

async function node(clientId: string, sharedGroup: string | undefined, taken: string[]): Promise<Broker> {
  clientIds.push(clientId);
  const broker = await startBroker({ url, port: 0, host: '127.0.0.1', secret: 's'.repeat(32), clientId, ...(sharedGroup ? { sharedGroup } : {}) });
  await broker.onDeviceEvent(async (_topic, payload) => {
    taken.push(payload.toString());
  });
  return broker;
}

describe.skipIf(!url)('nodes in a shared-subscription group', () => {
  it('take each report once between them, also a node that subscribed plainly before joining', async () => {
    const run = randomUUID().slice(0, 8);
    const group = `g${run}`;
    // Node A ran alone first, subscribed to every report, and kept its session.
    const alone = await node(`kisht-test-a-${run}`, undefined, []);
    await alone.close();

    const taken: string[] = [];
    open.push(await node(`kisht-test-a-${run}`, group, taken), await node(`kisht-test-b-${run}`, group, taken));
    const phone = await mqtt.connectAsync(url!, { clientId: `phone-${run}`, reconnectPeriod: 0 });
    const reports = Array.from({ length: 20 }, (_, i) => `report-${run}-${i}`);
    for (const report of reports) await phone.publishAsync(eventTopic(randomUUID()), report, { qos: 1 });
    await expect.poll(() => new Set(taken).size).toBe(reports.length);
    // A copy through a leftover plain subscription would arrive right behind its share.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(taken.filter((r) => r.startsWith(`report-${run}-`)).sort()).toEqual([...reports].sort());
    await phone.endAsync();
  });
});
