/**
 * Virtual phones of the demo shop, running inside the server: the device agent (packages/agent) with a store
 * under the data folder. A phone enrols once through the server's own path (a fresh EMM QR, then POST
 * /api/device/enrol over HTTP, then the broker), and after a restart picks its saved state up again and
 * reconnects, so Lock in the console works the first time and every time after.
 */
import path from 'node:path';
import { DeviceAgent } from '@kisht/agent/agent';
import { JsonFileStore, MemoryStore, type StateStore } from '@kisht/agent/store';
import { parseEnrolmentPayload } from '@kisht/agent/enrolment-payload';
import type { PhoneState } from '@kisht/agent/state';
import type { RequestAuth } from '../../plugins/route-config.ts';
import type { DevicesService } from '../devices/devices.service.ts';
import { imeisOf, type DemoCustomer } from '../../db/demo-shop.ts';

export interface DemoPhone {
  spec: DemoCustomer;
  customerId: number;
  agent: DeviceAgent;
  /** Enrolled by this start (false: resumed from its saved state). */
  enrolledNow: boolean;
}

/**
 * A phone's saved state, pointed at this server on every load: the port or host may have changed since the
 * phone enrolled, and the phone lives in the same process as the server anyway.
 */
class HereStore implements StateStore {
  constructor(private readonly inner: StateStore, private readonly server: string, private readonly mqttUrl: string) {}
  load(): PhoneState | null {
    const state = this.inner.load();
    if (state?.credentials) {
      state.server = this.server;
      state.credentials.mqttUrl = this.mqttUrl;
    }
    return state;
  }
  save(state: PhoneState): void {
    this.inner.save(state);
  }
}

export interface StartPhonesOptions {
  devices: DevicesService;
  /** The retailer whose QR codes the phones scan. */
  caller: RequestAuth;
  customers: Array<{ spec: DemoCustomer; id: number }>;
  /** Where this server answers HTTP, and its broker, as seen from inside the process. */
  serverUrl: string;
  mqttUrl: string;
  /** The folder for the phones' state files; null keeps it in memory (gone with the process). */
  dir: string | null;
  log: (line: string) => void;
}

export async function startDemoPhones(options: StartPhonesOptions): Promise<DemoPhone[]> {
  const phones: DemoPhone[] = [];
  for (const { spec, id } of options.customers) {
    const imeis = imeisOf(spec);
    const inner = options.dir ? new JsonFileStore(path.join(options.dir, `${imeis.imei1}.json`)) : new MemoryStore();
    const store = new HereStore(inner, options.serverUrl, options.mqttUrl);
    const saved = store.load();
    const active = (await options.devices.panel(options.caller, id)).device;
    let enrolledNow = false;
    let agent: DeviceAgent;
    if (saved?.status === 'enrolled' && saved.credentials && active?.id === saved.credentials.deviceId) {
      agent = new DeviceAgent({ store, mqttUrl: options.mqttUrl });
    } else if (active || saved?.status === 'released') {
      // Another phone took this customer over, or this one was released: it is not ours to run any more.
      options.log(`demo phone of ${spec.first_name} ${spec.last_name}: ${active ? 'the customer has another phone' : 'released'}; not started`);
      continue;
    } else {
      // No saved state, or one the database no longer knows (a new database): scan a fresh QR.
      agent = new DeviceAgent({ store, mqttUrl: options.mqttUrl });
      const { token } = parseEnrolmentPayload((await options.devices.emmCode(options.caller, id)).qr_payload);
      await agent.enrol({ server: options.serverUrl, token }, { ...imeis, serial: `R5C${imeis.imei1.slice(-7)}` });
      enrolledNow = true;
    }
    agent.on('note', () => undefined);
    agent.start();
    phones.push({ spec, customerId: id, agent, enrolledNow });
  }
  return phones;
}

/** Resolves true once every phone is connected to the broker, false after `timeoutMs`. */
export async function waitConnected(phones: DemoPhone[], timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (!phones.every((p) => p.agent.isConnected)) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}
