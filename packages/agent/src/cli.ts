/**
 * The device agent from the command line (npm run device -- <command>):
 *   enrol --qr '<payload>' | --qr-file f | --token T --server URL  --imei1 I [--imei2 I] [--serial S] [--sims 1:Jio:8991...,2:Airtel:8991...]
 *   run --state-file f | --imei1 I
 *   fleet --server URL (--count N | --tokens file.json) [--mobile +91...] [--duration seconds]
 * Common: --state-file path (default ./.device/<imei1>.json), --screen PORT (the virtual phone page),
 * --mqtt URL (instead of the broker URL the server gives), --org NAME (shown on the home screen),
 * --push-token T (the phone's push token, kept and sent with every check-in).
 * While a phone runs, stdin takes: status, offline, online, code <digits>, sim <slot> <operator> <iccid>,
 * location <lat> <lon>, battery <percent>, dismiss, checkin, reboot, quit; for family care: open <package>, home, usage;
 * for the shop's offers: offers, offer <campaign id> (open it), offers off, offers on.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import type { Sim } from '@kisht/protocol/messages';
import { formatRupees } from '@kisht/domain/money';
import { DeviceAgent } from './agent.ts';
import type { FamilyCareView } from './family-care.ts';
import { JsonFileStore } from './store.ts';
import { parseEnrolmentPayload, type EnrolmentTarget } from './enrolment-payload.ts';
import { startScreen } from './screen/screen-server.ts';
import { startFleet, type FleetToken } from './fleet.ts';

const USAGE = `usage: npm run device -- <enrol|run|fleet> [options]
  enrol --qr '<payload>' | --qr-file FILE | --token T --server URL
        --imei1 IMEI [--imei2 IMEI] [--serial S] [--sims 1:Jio:8991...,2:Airtel:8991...]
        [--state-file FILE] [--screen PORT] [--mqtt URL] [--org NAME] [--push-token T]
  run   --state-file FILE | --imei1 IMEI  [--screen PORT] [--mqtt URL] [--org NAME] [--push-token T]
  fleet --server URL (--count N | --tokens FILE.json) [--mobile +91...] [--mqtt URL] [--duration SECONDS] [--concurrency N]
        [--open-offers]
stdin while running: status | offline | online | code <digits> | sim <slot> <operator> <iccid> |
  location <lat> <lon> | battery <percent> | dismiss | checkin | reboot | quit |
  open <package> | home | usage (family care: open an app, go home, report today's usage now) |
  offers | offer <campaign id> | offers off | offers on (the shop's offers: list, open one, switch them off or on)`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    qr: { type: 'string' }, 'qr-file': { type: 'string' }, token: { type: 'string' }, server: { type: 'string' },
    imei1: { type: 'string' }, imei2: { type: 'string' }, serial: { type: 'string' }, sims: { type: 'string' },
    'state-file': { type: 'string' }, screen: { type: 'string' }, mqtt: { type: 'string' }, org: { type: 'string' },
    count: { type: 'string' }, tokens: { type: 'string' }, mobile: { type: 'string' }, duration: { type: 'string' },
    concurrency: { type: 'string' }, 'push-token': { type: 'string' }, 'open-offers': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
  },
});

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

const stamp = () => new Date().toISOString().slice(11, 19);
const say = (line: string) => console.log(`[${stamp()}] ${line}`);

/** "1:Jio:8991...,2:Airtel:8991..." */
function parseSims(text: string | undefined): Sim[] {
  if (!text) return [];
  return text.split(',').filter(Boolean).map((part) => {
    const [slot, operator, iccid] = part.split(':');
    if (!slot || !Number.isInteger(Number(slot))) fail(`bad --sims entry "${part}" (slot:operator:iccid)`);
    return { slot: Number(slot), ...(operator ? { operator } : {}), ...(iccid ? { iccid } : {}) };
  });
}

const stateFile = (imei1: string | undefined) => values['state-file'] ?? (imei1 ? path.resolve('.device', `${imei1}.json`) : fail('give --state-file or --imei1'));

function describe(agent: DeviceAgent): string {
  const s = agent.snapshot();
  const lock = s.screen.lockScreen;
  return [
    `status ${s.status}, device ${s.credentials?.deviceId ?? '-'}, network ${agent.isOnline ? 'on' : 'off'}, broker ${agent.isConnected ? 'connected' : 'not connected'}`,
    `screen ${s.screen.lostMode.on ? 'LOST MODE' : s.screen.locked ? `LOCKED${s.selfLocked ? ' (self-lock)' : ''}` : 'unlocked'}${lock && s.screen.locked ? `, due ${formatRupees(lock.amount_due)} to ${lock.retailer_name} (${lock.retailer_mobile})` : ''}`,
    `last seq ${s.lastSeq}, events sent ${s.lastEventN - s.outbox.length}/${s.lastEventN}, offline log waiting ${s.log.length}, last check-in ${s.lastCheckIn ? new Date(s.lastCheckIn).toISOString() : 'never'}`,
    `sims ${s.screen.sims.map((x) => `${x.slot}:${x.operator ?? ''}:${x.iccid ?? ''}`).join(', ') || 'none'}, battery ${s.screen.battery}%, location ${s.screen.location ? `${s.screen.location.latitude},${s.screen.location.longitude}` : 'none'}`,
    `toggles on: ${Object.entries(s.screen.toggles).filter(([, on]) => on).map(([k]) => k).join(', ') || 'none'}${s.screen.emiAlert ? `; EMI alert: ${s.screen.emiAlert.message}` : ''}${s.offlineWarning ? '; OFFLINE WARNING shown' : ''}`,
    ...(s.familyCare ? [familyLine(s.familyCare)] : []),
    `offers ${s.offersOptOut ? 'switched off' : `on, ${(s.offers ?? []).length} shown (${(s.offers ?? []).filter((o) => o.openedAt === null).length} not opened)`}`,
  ].join('\n  ');
}

function familyLine(f: FamilyCareView): string {
  const left = f.secondsLeft === null ? 'no limit today' : `${Math.ceil(f.secondsLeft / 60)} min left today`;
  const block = f.block ? `, closed (${f.block.reason}) until ${new Date(f.block.until).toISOString()}` : '';
  return `family rules v${f.version}: ${left}${block}; open app ${f.foreground ?? 'none'}; used today ${f.usage.map((u) => `${u.app} ${u.seconds}s`).join(', ') || 'nothing'}`;
}

async function runPhone(agent: DeviceAgent): Promise<void> {
  agent.on('command', (r) => say(`command ${r.type ?? '?'} seq ${r.seq ?? '?'} via ${r.source}: ${r.outcome}${r.error ? ` (${r.error})` : ''}`));
  agent.on('connection', (up) => say(up ? 'broker connected' : 'broker disconnected'));
  agent.on('check-in', (r) => say(r.ok ? 'checked in' : `check-in failed: ${r.error}`));
  agent.on('note', (text) => say(text));
  agent.on('released', () => say('released: the agent removed itself (credentials wiped)'));
  if (values['push-token'] !== undefined) agent.setPushToken(values['push-token'] || null);
  agent.start();
  const screen = values.screen !== undefined
    ? await startScreen(agent, { port: Number(values.screen), ...(values.org ? { org: values.org } : {}) })
    : null;
  if (screen) say(`virtual phone at ${screen.url}`);
  say(`phone running: ${describe(agent)}`);

  const quit = async () => {
    await screen?.close();
    await agent.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void quit());
  process.on('SIGTERM', () => void quit());

  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const [command, ...args] = line.trim().split(/\s+/);
    void (async () => {
      switch (command) {
        case '': case undefined: return;
        case 'status': return say(describe(agent));
        case 'offline': await agent.goOffline(); return say('network off');
        case 'online': agent.goOnline(); return say('network on');
        case 'code': {
          const result = agent.enterCode(args[0] ?? '');
          return say(result.ok ? `code accepted: ${result.purpose} #${result.counter}` : result.reason === 'wrong' ? `wrong code, ${result.attemptsLeft} tries left` : `locked out until ${new Date(result.until).toISOString()}`);
        }
        case 'sim': {
          const [slot, operator, iccid] = args;
          if (!slot || !operator || !iccid) return say('usage: sim <slot> <operator> <iccid>');
          agent.swapSim(Number(slot), operator, iccid);
          return say(`SIM ${slot} is now ${operator} ${iccid}`);
        }
        case 'location': agent.setLocation(Number(args[0]), Number(args[1])); return say('location set');
        case 'battery': agent.setBattery(Number(args[0])); return say('battery set');
        case 'dismiss': agent.dismissAlert(); return say('alert dismissed');
        case 'checkin': return say((await agent.checkIn()) ? 'checked in' : 'check-in failed');
        case 'reboot': await agent.reboot(); return say('rebooted');
        case 'open': {
          if (!args[0]) return say('usage: open <package>');
          const verdict = agent.openApp(args[0]);
          return say(verdict.allowed ? `${args[0]} is open` : `${args[0]} did not open: ${verdict.reason}${verdict.until ? ` until ${new Date(verdict.until).toISOString()}` : ''}`);
        }
        case 'home': agent.closeApp(); return say('home screen');
        case 'usage': return say(`${agent.reportUsage()} usage report(s) queued`);
        case 'offers': {
          if (args[0] === 'off' || args[0] === 'on') {
            agent.setOffersOptOut(args[0] === 'off');
            return say(`shop offers ${args[0]}`);
          }
          const offers = agent.snapshot().offers ?? [];
          return say(offers.length ? offers.map((o) => `#${o.campaignId} ${o.title}${o.openedAt === null ? '' : ' (opened)'}`).join('; ') : 'no offers');
        }
        case 'offer': {
          const opened = agent.openOffer(Number(args[0]));
          return say(opened ? `opened offer #${opened.campaignId}: ${opened.title}${opened.link ? ` -> ${opened.link}` : ''}` : 'no such offer to open (or the phone is locked)');
        }
        case 'quit': case 'exit': return quit();
        default: return say(`unknown command "${command}"; try status, offline, online, code, sim, location, battery, dismiss, checkin, reboot, open, home, usage, offers, offer, quit`);
      }
    })().catch((error: unknown) => say(`error: ${(error as Error).message}`));
  });
  await new Promise(() => undefined);
}

async function main(): Promise<void> {
  const command = positionals[0];
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  const mqttOption = values.mqtt ? { mqttUrl: values.mqtt } : {};
  switch (command) {
    case 'enrol': {
      let target: EnrolmentTarget;
      if (values.qr) target = parseEnrolmentPayload(values.qr);
      else if (values['qr-file']) target = parseEnrolmentPayload(readFileSync(values['qr-file'], 'utf8'));
      else if (values.token && values.server) target = { token: values.token, server: values.server };
      else fail('give --qr, --qr-file, or --token with --server');
      if (!values.imei1) fail('give --imei1 (an IMEI of the customer)');
      const file = stateFile(values.imei1);
      const agent = new DeviceAgent({ store: new JsonFileStore(file), ...mqttOption });
      await agent.enrol(target, {
        imei1: values.imei1, ...(values.imei2 ? { imei2: values.imei2 } : {}), ...(values.serial ? { serial: values.serial } : {}),
      }, parseSims(values.sims));
      say(`enrolled as device ${agent.snapshot().credentials!.deviceId}; state in ${file}`);
      return runPhone(agent);
    }
    case 'run': {
      const file = stateFile(values.imei1);
      const agent = new DeviceAgent({ store: new JsonFileStore(file), ...mqttOption });
      if (!agent.enrolled) fail(`${file} holds no enrolled phone`);
      return runPhone(agent);
    }
    case 'fleet': {
      if (!values.server) fail('give --server');
      const tokens = values.tokens ? (JSON.parse(readFileSync(values.tokens, 'utf8')) as FleetToken[]) : undefined;
      const started = Date.now();
      const fleet = await startFleet({
        server: values.server, ...(tokens ? { tokens } : { count: Number(values.count ?? 1) }), ...mqttOption,
        ...(values.mobile ? { mobile: values.mobile } : {}), ...(values.concurrency ? { concurrency: Number(values.concurrency) } : {}),
        ...(values['open-offers'] ? { openOffers: true } : {}),
        onProgress: say,
      });
      await fleet.waitConnected(60_000);
      say(`fleet up in ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(fleet.summary())}`);
      for (const error of fleet.errors.slice(0, 5)) say(`enrol failed: ${error}`);
      const report = setInterval(() => say(JSON.stringify(fleet.summary())), 10_000);
      const finish = async () => {
        clearInterval(report);
        say(`final: ${JSON.stringify(fleet.summary())}`);
        await fleet.stop();
        process.exit(0);
      };
      process.on('SIGINT', () => void finish());
      if (values.duration) setTimeout(() => void finish(), Number(values.duration) * 1000);
      await new Promise(() => undefined);
      return;
    }
    default:
      fail(`unknown command "${command}"`);
  }
}

main().catch((error: unknown) => {
  console.error(`error: ${(error as Error).message}`);
  process.exit(1);
});
