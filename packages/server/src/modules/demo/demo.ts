/**
 * The living demo of a development server: the demo shop's customers, loans and payments, a few virtual
 * phones for them inside the server, one customer locked through its phone, and the day's dues run over it
 * (late fees, completed and maturing loans). server.ts calls it once it listens (the phones enrol over HTTP).
 */
import { todayInIndia } from '@kisht/domain/format';
import { INSTALL_STATUS } from '@kisht/domain/constants';
import type { Config } from '../../config.ts';
import type { BuiltApp } from '../../app.ts';
import { createEmiService } from '../emi/emi.service.ts';
import { createEmiRepository } from '../emi/emi.repository.ts';
import { createCustomersRepository } from '../customers/customers.repository.ts';
import { createCatalogueRepository } from '../catalogue/catalogue.repository.ts';
import { demoCallers, displayName, findDemoCustomers, seedDemoShop, type SeededCustomer } from '../../db/demo-shop.ts';
import { startDemoPhones, waitConnected, type DemoPhone } from './demo-phones.ts';

export interface DemoOptions {
  built: BuiltApp;
  config: Config;
  /** Where this server answers, from inside the process (http://127.0.0.1:<port>). */
  serverUrl: string;
  /** The demo retailers were added by this start: a new database, which gets the shop under DEMO_SHOP's default. */
  freshDatabase: boolean;
  /** The phones' folder; defaults to the data folder's `demo-phones/` (memory for a throwaway database). */
  phoneDir?: string | null;
  log?: (line: string) => void;
  today?: string;
}

export interface RunningDemo {
  shop: SeededCustomer[];
  phones: DemoPhone[];
  /** The customer to open first and press Lock on, when its phone runs. */
  tryFirst: { id: number; name: string } | null;
  stop(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 20_000;
const LOCK_TIMEOUT_MS = 20_000;

/** The broker as the phones inside the process reach it. */
function localMqttUrl(built: BuiltApp, config: Config): string {
  const status = built.broker.status();
  if (status.mode !== 'embedded') return config.MQTT_URL ?? status.url;
  const url = new URL(status.url);
  if (['0.0.0.0', '[::]', '::'].includes(url.hostname)) url.hostname = '127.0.0.1';
  return url.toString().replace(/\/$/, '');
}

/** Seeds the shop and starts its phones as the configuration says; null when the demo is off for this start. */
export async function startDemo(options: DemoOptions): Promise<RunningDemo | null> {
  const { built, config } = options;
  const log = options.log ?? (() => undefined);
  if (config.demoShop === 'never') return null;
  const { customers, devices, users, dues } = built.services;
  const callers = await demoCallers(users);
  if (!callers) return null;
  // Under the default, only a new database gets the shop (an existing one keeps its own customers), and one that has it keeps it up.
  if (config.demoShop === 'if-new' && !options.freshDatabase && (await findDemoCustomers(customers, callers[0])).size === 0) return null;

  const today = options.today ?? todayInIndia();
  const emi = createEmiService({ db: built.db, emi: createEmiRepository(built.db), customers, customerRows: createCustomersRepository(built.db), users, orgs: built.services.orgs, today: () => today });
  const shop = await seedDemoShop({ customers, emi, users, catalogue: createCatalogueRepository(built.db), today });
  const added = shop.filter((c) => c.added).length;
  log(`demo shop: ${shop.length} customers${added ? ` (${added} added now)` : ''}`);

  const [ravi] = callers;
  // Phones go to open loans, in the shop's order; a paid-off loan cannot enrol any more.
  const open: SeededCustomer[] = [];
  for (const c of shop) {
    const profile = await customers.profile(ravi, c.id);
    if (profile.install_status !== INSTALL_STATUS.emis_completed && profile.install_status !== INSTALL_STATUS.uninstall && c.spec.paid !== 'all') open.push(c);
  }
  const dir = options.phoneDir !== undefined ? options.phoneDir : config.paths.demoPhones;
  const phones = config.demoPhones > 0
    ? await startDemoPhones({ devices, caller: ravi, customers: open.slice(0, config.demoPhones), serverUrl: options.serverUrl, mqttUrl: localMqttUrl(built, config), dir, log })
    : [];
  const stop = async () => {
    await Promise.all(phones.map((p) => p.agent.stop()));
  };
  try {
    if (phones.length > 0) {
      const connected = await waitConnected(phones, CONNECT_TIMEOUT_MS);
      const fresh = phones.filter((p) => p.enrolledNow).length;
      log(`demo phones: ${phones.length} running${fresh ? ` (${fresh} enrolled now)` : ''}${connected ? '' : ', not all connected yet'}`);
    }
    // The customer shown Locked: locked once through its phone, like a retailer would; never again after that.
    const locked = phones.find((p) => p.spec.role === 'locked');
    if (locked && !(await devices.commands(ravi, locked.customerId)).some((c) => c.type === 'lock')) {
      await devices.lock(ravi, locked.customerId);
      const until = Date.now() + LOCK_TIMEOUT_MS;
      while ((await customers.profile(ravi, locked.customerId)).lock_status !== 1 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Today's dues run may have happened before the shop existed: run the day again (each step is idempotent).
    if (added > 0 || phones.some((p) => p.enrolledNow)) {
      for (const orgId of new Set(callers.map((c) => c.orgId))) await dues.rerun(orgId, today);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const first = phones.find((p) => p.spec.role === 'try-first');
  return { shop, phones, tryFirst: first ? { id: first.customerId, name: displayName(first.spec) } : null, stop };
}
