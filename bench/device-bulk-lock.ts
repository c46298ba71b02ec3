/**
 * Locking N phones at once through POST /api/device/multiple_lock_unlock, against a raw MQTT publish and echo
 * through the same broker to the same phones in the same run, plus the broker's memory per connected phone.
 * The server (embedded broker, PGlite in memory or DATABASE_URL) runs in one child process, the phones (the
 * agent's fleet mode) in another, so each side's memory is its own.
 *   node --import tsx bench/device-bulk-lock.ts [--phones 10000] [--enrol-concurrency 16]
 *   BENCH_PHONES=1000 DEVICE_SWEEP_SECONDS=0 node --import tsx bench/device-bulk-lock.ts
 *   node --import tsx bench/device-bulk-lock.ts --mosquitto      (a private Mosquitto with deploy/mosquitto's limits)
 *   MQTT_URL=mqtt://127.0.0.1:1883 node --import tsx bench/device-bulk-lock.ts   (any external broker that lets phones in)
 * With DATABASE_URL the customers are added to what the database already holds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createEmmAuthSession } from '@kisht/domain/emm-auth';
import { APP_ORG_ID } from '@kisht/domain/constants';
import type { FleetSummary, FleetToken } from '../packages/agent/src/fleet.ts';
import { startChild } from './ipc.ts';
import { fmt } from './lib.ts';

const { values: args } = parseArgs({ options: { phones: { type: 'string' }, 'enrol-concurrency': { type: 'string' }, mosquitto: { type: 'boolean' }, 'no-storm': { type: 'boolean' } } });
/** --no-storm skips the reconnect storm (a third of a 10,000-phone run) when only the bulk lock is wanted. */
const withStorm = !args['no-storm'];
const phones = Number(args.phones ?? process.env.BENCH_PHONES ?? 10_000);
const loadAtStart = loadavg();
const enrolConcurrency = Number(args['enrol-concurrency'] ?? 16);
if (!Number.isInteger(phones) || phones < 1 || phones > 20_000) throw new Error('--phones must be between 1 and 20000 (the batch API takes at most 20000)');

interface Memory { rss: number; heapUsed: number; external?: number; databaseHeap?: number | null }
interface Spread { p50: number; p99: number; max: number }
interface Timings {
  commands: number; counts: Record<string, number>; firstCreated: number; lastSent: number; lastFinished: number | null;
  createdToFinished: Spread; createdToSent: Spread; sentToFinished: Spread;
}
interface BatchReply { id: string; total: number; counts: Record<'queued' | 'sent' | 'delivered' | 'done' | 'failed' | 'expired' | 'skipped', number> }

const say = (line: string) => process.stderr.write(`${line}\n`);

/** The kernel's count of connections refused because a listen queue was full (Linux; null elsewhere). */
function listenOverflows(): number | null {
  if (!existsSync('/proc/net/netstat')) return null;
  const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
  const at = lines.findIndex((l) => l.startsWith('TcpExt:'));
  const names = lines[at]?.split(' ') ?? [];
  const values = lines[at + 1]?.split(' ') ?? [];
  const i = names.indexOf('ListenOverflows');
  return i > 0 ? Number(values[i]) : null;
}
const mb = (bytes: number) => bytes / 1048576;
const kbEach = (bytes: number) => bytes / 1024 / phones;

/**
 * A private Mosquitto on a free port with the queue and in-flight limits of deploy/mosquitto/mosquitto.conf
 * (phones let in anonymously: the broker's accounts are not what is measured). Never the shared one.
 */
async function privateMosquitto(): Promise<{ url: string; process: ChildProcess; stop: () => void }> {
  const binary = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p));
  if (!binary) throw new Error('--mosquitto needs Mosquitto installed (apt-get install mosquitto)');
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const deploy = readFileSync(new URL('../deploy/mosquitto/mosquitto.conf', import.meta.url), 'utf8');
  const limits = deploy.split('\n').filter((line) => /^(max_packet_size|max_queued_messages|max_inflight_messages) /.test(line));
  const dir = mkdtempSync(path.join(tmpdir(), 'kisht-bench-mosquitto-'));
  writeFileSync(path.join(dir, 'mosquitto.conf'), ['allow_anonymous true', 'persistence false', ...limits, `listener ${port} 127.0.0.1`, ''].join('\n'));
  const child = spawn(binary, ['-c', path.join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
  for (let i = 0; ; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket.end() && true)).on('error', () => resolve(false));
    });
    if (open) break;
    if (i > 100 || child.exitCode !== null) throw new Error('the private Mosquitto did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  say(`  private Mosquitto on port ${port} (${limits.join(', ')})`);
  return { url: `mqtt://127.0.0.1:${port}`, process: child, stop: () => { child.kill('SIGTERM'); rmSync(dir, { recursive: true, force: true }); } };
}

const mosquitto = args.mosquitto ? await privateMosquitto() : null;
const brokerUrl = mosquitto?.url ?? process.env.MQTT_URL;
const brokerName = mosquitto ? 'private Mosquitto' : brokerUrl ? `external broker ${brokerUrl}` : 'embedded broker';
say(`Starting the server (${brokerName}), seeding ${phones.toLocaleString('en-IN')} customers`);
const server = startChild(new URL('./device-server.ts', import.meta.url), { ...process.env, ...(brokerUrl ? { MQTT_URL: brokerUrl } : {}) });
const ready = await server.next<{ api: number; mqtt: string; driver: string; sweepSeconds: number; mobile: string }>('ready');
const base = `http://127.0.0.1:${ready.api}`;

/** One JSON request without a client-side timeout (the bulk POST answers once its batch is stored; its commands are written after). */
async function api<T>(method: 'GET' | 'POST', path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = { 'x-emm-auth-session': await createEmmAuthSession(path, APP_ORG_ID), 'x-auth-platform': 'mobile' };
  if (token) headers.authorization = `Bearer ${token}`;
  const text = body === undefined ? undefined : JSON.stringify(body);
  if (text) headers['content-type'] = 'application/json';
  return new Promise<T>((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const reply = Buffer.concat(chunks).toString();
        if (res.statusCode !== 200) return reject(new Error(`${method} ${path}: ${res.statusCode} ${reply.slice(0, 300)}`));
        resolve((JSON.parse(reply) as { data: T }).data);
      });
    });
    req.on('error', reject);
    req.end(text);
  });
}

let exitCode = 1;
const fleet = startChild(new URL('./device-fleet.ts', import.meta.url));
try {
  const seeded = await server.ask<{ seconds: number; customerIds: number[]; tokens: FleetToken[] }>('seed', { phones });
  const memoryBefore = await server.ask<Memory>('memory');

  say(`Enrolling and connecting ${phones.toLocaleString('en-IN')} phones (${enrolConcurrency} enrolments at once)`);
  const connectTimeoutMs = 120_000 + phones * 30;
  const overflowsBefore = listenOverflows();
  await server.ask('settling');
  const started = await fleet.ask<{
    enrolledSeconds: number; connectedSeconds: number; readySeconds: number; allConnected: boolean; checkInFailures: number; checkInsDeferred: number; lastFailures: string[];
    echoes: number; before: Memory; after: Memory; summary: FleetSummary; errors: string[]; loopDelayMs: { p99: number; max: number };
  }>('start', { server: base, tokens: seeded.tokens, concurrency: enrolConcurrency, timeoutMs: connectTimeoutMs });
  const overflowsWhileSettling = overflowsBefore === null ? null : listenOverflows()! - overflowsBefore;
  const serverCheckIns = await server.ask<{ answered: number; shed: number; mostOpen: number; p50: number; p99: number; max: number; loopDelayMs: { p99: number; max: number } }>('checkIns');
  const memoryAfter = await server.ask<Memory>('memory');
  if (started.errors.length) say(`  enrolment errors (first ${started.errors.length}): ${started.errors.join(' | ')}`);

  say('Raw publish and echo (baseline)');
  const raw = await server.ask<{ sent: number; echoed: number; payloadBytes: number; seconds: number; p50: number; p99: number }>('raw', { timeoutMs: 60_000 + phones * 20 });

  say('Bulk lock');
  const signIn = await api<{ request_id: string }>('POST', '/api/auth/loginWithOtp', { mobile: ready.mobile });
  const outbox = await api<Array<{ body: string }>>('GET', `/api/dev/outbox?to=${encodeURIComponent(ready.mobile)}&limit=1`);
  const otp = /\b(\d{6})\b/.exec(outbox[0]!.body)![1]!;
  const { token } = await api<{ token: string }>('POST', '/api/auth/verifyOtpAuth', { request_id: signIn.request_id, otp });

  const postedAt = Date.now();
  const postStarted = performance.now();
  const batch = await api<BatchReply>('POST', '/api/device/multiple_lock_unlock', { action: 'lock', customer_ids: seeded.customerIds }, token);
  const postSeconds = (performance.now() - postStarted) / 1000;
  const lockTimeoutMs = 180_000 + phones * 100;
  let progress = batch;
  let observedSeconds: number | null = null;
  for (;;) {
    const c = progress.counts;
    const settled = c.done + c.failed + c.expired + c.skipped;
    process.stderr.write(`\r  done ${c.done}, sent ${c.sent}, delivered ${c.delivered}, queued ${c.queued}, failed ${c.failed}, expired ${c.expired}, skipped ${c.skipped}   `);
    if (settled >= progress.total) {
      observedSeconds = (performance.now() - postStarted) / 1000;
      break;
    }
    if (performance.now() - postStarted > lockTimeoutMs) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    progress = await api<BatchReply>('GET', `/api/device/multiple_lock_unlock?batch_id=${batch.id}`, undefined, token);
  }
  process.stderr.write('\n');
  const timings = await server.ask<Timings>('timings', { batchId: batch.id });
  const phonesAfter = await fleet.ask<FleetSummary>('summary');

  type Storm = {
    phones: number; allConnected: boolean; allCheckedIn: boolean; connectedSeconds: number; readySeconds: number;
    checkInFailures: number; checkInsDeferred: number; lastFailures: string[]; loopDelayMs: { p99: number; max: number };
  };
  type ServerCheckIns = { answered: number; shed: number; mostOpen: number; p50: number; p99: number; max: number; loopDelayMs: { p99: number; max: number } };
  let storm: Storm | null = null;
  let stormServer: ServerCheckIns | null = null;
  let stormOverflows: number | null = null;
  if (withStorm) {
    say('Reconnect storm: every phone drops its connection, then all come back at once');
    await server.ask('settling');
    const stormOverflowsBefore = listenOverflows();
    storm = await fleet.ask<Storm>('storm', { timeoutMs: connectTimeoutMs });
    stormOverflows = stormOverflowsBefore === null ? null : listenOverflows()! - stormOverflowsBefore;
    stormServer = await server.ask<ServerCheckIns>('checkIns');
  }

  // Report.
  const done = timings.counts.done ?? 0;
  const failed = timings.counts.failed ?? 0;
  const bulkSeconds = timings.lastFinished !== null && done === phones ? (timings.lastFinished - postedAt) / 1000 : NaN;
  const row = (name: string, total: string, p50: number, p99: number) => console.log(`${name.padEnd(46)} ${total.padStart(9)} ${fmt(p50, 1).padStart(9)} ${fmt(p99, 1).padStart(9)}`);
  const ratio = (a: number, b: number) => `${fmt(a / b, 1)}x`;

  console.log(`\nDevice bulk lock (${ready.driver}, ${phones.toLocaleString('en-IN')} phones, ${brokerName}, sweeper every ${ready.sweepSeconds} s)`);
  console.log(`load average of the machine: ${loadAtStart.map((n) => fmt(n, 1)).join(' ')} at the start, ${loadavg().map((n) => fmt(n, 1)).join(' ')} at the end (1, 5, 15 min)`);
  console.log(`setup: ${phones.toLocaleString('en-IN')} customers and tokens seeded in ${fmt(seeded.seconds)} s; phones enrolled in ${fmt(started.enrolledSeconds)} s, all connected after ${fmt(started.connectedSeconds)} s, all checked in after ${fmt(started.readySeconds)} s`);
  if (started.checkInFailures) console.log(`  ${started.checkInFailures} check-ins failed while settling (the agent retries after 60 s), last: ${started.lastFailures.join(' | ')}`);
  console.log(`  check-ins: ${started.checkInFailures} failed or timed out, ${started.checkInsDeferred} shed by the busy server (503 with Retry-After; the phone came back when told)`);
  console.log(`  the server answered ${serverCheckIns.answered} check-ins while they settled: p50 ${fmt(serverCheckIns.p50, 1)} ms, p99 ${fmt(serverCheckIns.p99, 1)} ms, slowest ${fmt(serverCheckIns.max, 1)} ms, at most ${serverCheckIns.mostOpen} at once, ${serverCheckIns.shed} shed`);
  console.log(`  the server's event loop ran late by up to ${fmt(serverCheckIns.loopDelayMs.max, 0)} ms meanwhile (p99 ${fmt(serverCheckIns.loopDelayMs.p99, 0)} ms): while it is late, new connections wait in the kernel's listen queue`);
  if (overflowsWhileSettling !== null) console.log(`  connections the kernel dropped meanwhile because a listen queue was full (machine-wide): ${overflowsWhileSettling}`);
  console.log(`  the phones' process (${phones.toLocaleString('en-IN')} simulated phones on one event loop) ran late by up to ${fmt(started.loopDelayMs.max / 1000, 1)} s (p99 ${fmt(started.loopDelayMs.p99, 0)} ms): a check-in that times out there never reached the server in time`);
  console.log(`\n${''.padEnd(46)} ${'total s'.padStart(9)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)}`);
  row(`raw publish -> echo, QoS 1, ${raw.payloadBytes} B (baseline)`, fmt(raw.seconds, 2), raw.p50, raw.p99);
  row('bulk lock, created -> done', fmt(bulkSeconds, 2), timings.createdToFinished.p50, timings.createdToFinished.p99);
  row('  created -> sent', '', timings.createdToSent.p50, timings.createdToSent.p99);
  row('  sent -> done', '', timings.sentToFinished.p50, timings.sentToFinished.p99);
  console.log('total: first publish -> last echo, POST sent -> last command done (database clock); p50/p99: per message or command');
  console.log(`POST answered after ${fmt(postSeconds, 2)} s; progress showed all settled after ${observedSeconds === null ? 'never (timed out)' : `${fmt(observedSeconds, 2)} s`} (polled every 1 s)`);
  console.log(`\nratios: total ${ratio(bulkSeconds, raw.seconds)}, p50 ${ratio(timings.createdToFinished.p50, raw.p50)}, p99 ${ratio(timings.createdToFinished.p99, raw.p99)} (bulk lock / raw round trip)`);

  const heapDelta = memoryAfter.heapUsed - memoryBefore.heapUsed;
  const rssDelta = memoryAfter.rss - memoryBefore.rss;
  const dbDelta = memoryAfter.databaseHeap != null && memoryBefore.databaseHeap != null ? memoryAfter.databaseHeap - memoryBefore.databaseHeap : null;
  console.log(`\nmemory after a full GC        ${'before MB'.padStart(10)} ${'after MB'.padStart(10)} ${'KB/phone'.padStart(10)}`);
  const mem = (name: string, before: number, after: number) => console.log(`${name.padEnd(29)} ${fmt(mb(before)).padStart(10)} ${fmt(mb(after)).padStart(10)} ${fmt(kbEach(after - before)).padStart(10)}`);
  mem('server (broker) heapUsed', memoryBefore.heapUsed, memoryAfter.heapUsed);
  mem('server (broker) rss', memoryBefore.rss, memoryAfter.rss);
  if (dbDelta !== null) mem('  of which PGlite wasm heap', memoryBefore.databaseHeap!, memoryAfter.databaseHeap!);
  mem('server external (buffers)', memoryBefore.external!, memoryAfter.external!);
  mem('phones (fleet) heapUsed', started.before.heapUsed, started.after.heapUsed);
  mem('phones (fleet) rss', started.before.rss, started.after.rss);
  console.log(`${brokerUrl ? 'server memory per connected phone (the broker runs in its own process)' : 'broker memory per connected phone'}: ${fmt(kbEach(heapDelta))} KB heap, ${fmt(kbEach(rssDelta))} KB rss${dbDelta !== null ? ` (${fmt(kbEach(rssDelta - dbDelta))} KB rss without the PGlite heap's growth)` : ''}`);

  if (storm && stormServer) {
    console.log(`\nreconnect storm: all ${storm.phones.toLocaleString('en-IN')} phones back at once; ${storm.allConnected ? 'all' : 'NOT all'} connected after ${fmt(storm.connectedSeconds)} s, ${storm.allCheckedIn ? 'all' : 'NOT all'} checked in after ${fmt(storm.readySeconds)} s (each check-in spread over the agent's first minute)`);
    console.log(`  check-ins: ${storm.checkInFailures} failed or timed out${storm.checkInFailures ? ` (last: ${storm.lastFailures.join(' | ')})` : ''}, ${storm.checkInsDeferred} shed; the server answered ${stormServer.answered}: p50 ${fmt(stormServer.p50, 1)} ms, p99 ${fmt(stormServer.p99, 1)} ms, slowest ${fmt(stormServer.max, 1)} ms, at most ${stormServer.mostOpen} at once`);
    console.log(`  the server's event loop ran late by up to ${fmt(stormServer.loopDelayMs.max, 0)} ms (p99 ${fmt(stormServer.loopDelayMs.p99, 0)} ms); the phones' by up to ${fmt(storm.loopDelayMs.max / 1000, 1)} s${stormOverflows !== null ? `; listen-queue drops ${stormOverflows}` : ''}`);
  } else console.log('\nreconnect storm: skipped (--no-storm)');

  console.log(`\nphones connected ${started.summary.connected}/${phones} (${started.errors.length ? `${started.summary.errors} enrolments failed` : 'no enrolment failed'}); raw echoes ${raw.echoed}/${raw.sent}`);
  console.log(`bulk commands: ${timings.commands} written, done ${done}, failed ${failed}, expired ${timings.counts.expired ?? 0}, still open ${timings.commands - done - failed - (timings.counts.expired ?? 0)}, skipped ${progress.counts.skipped}; phones showing the lock screen ${phonesAfter.locked}`);
  exitCode = done === phones && raw.echoed === phones && (storm?.allCheckedIn ?? true) ? 0 : 1;
  if (exitCode !== 0) console.log('NOT every phone confirmed: exit 1');
  console.log(JSON.stringify({
    bench: 'bulk-lock', phones, driver: ready.driver, broker: mosquitto ? 'mosquitto' : brokerUrl ? 'external' : 'embedded', done, failed, post_ms: Math.round(postSeconds * 1000), total_s: Number(bulkSeconds.toFixed(2)), raw_s: Number(raw.seconds.toFixed(2)),
    check_in_failed: started.checkInFailures, check_in_deferred: started.checkInsDeferred,
    server_check_in_p99_ms: Number(serverCheckIns.p99.toFixed(1)), server_check_in_max_ms: Number(serverCheckIns.max.toFixed(1)), server_loop_delay_max_ms: Math.round(serverCheckIns.loopDelayMs.max), phones_loop_delay_max_s: Number((started.loopDelayMs.max / 1000).toFixed(1)), listen_overflows: overflowsWhileSettling,
    storm_connected_s: storm ? Number(storm.connectedSeconds.toFixed(2)) : null, storm_checked_in_s: storm ? Number(storm.readySeconds.toFixed(2)) : null,
    storm_check_in_failed: storm?.checkInFailures ?? null, storm_server_loop_delay_max_ms: stormServer ? Math.round(stormServer.loopDelayMs.max) : null, storm_listen_overflows: stormOverflows,
    ratio_total: Number((bulkSeconds / raw.seconds).toFixed(2)), ratio_p50: Number((timings.createdToFinished.p50 / raw.p50).toFixed(2)), ratio_p99: Number((timings.createdToFinished.p99 / raw.p99).toFixed(2)),
  }));
} catch (error) {
  console.error(error);
} finally {
  await fleet.stop();
  await server.stop();
  mosquitto?.stop();
}
process.exit(exitCode);
