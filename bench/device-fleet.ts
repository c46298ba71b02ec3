/**
 * Child process for bench/device-bulk-lock.ts: N phones of the device agent's fleet mode in one process, so
 * their memory is counted apart from the broker's. Once connected, each phone also gets a raw echo for the
 * baseline: a message of the form {"echo":...} on its command topic goes straight back on its event topic.
 */
import type { MqttClient } from 'mqtt';
import { startFleet, type Fleet, type FleetToken } from '../packages/agent/src/fleet.ts';
import type { DeviceAgent } from '../packages/agent/src/agent.ts';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { collectGarbage, serveParent } from './ipc.ts';

const ECHO = Buffer.from('{"echo":');
let fleet: Fleet | null = null;
/** Check-in outcomes over the whole run; each phase reads how far they moved. */
const outcomes = { failed: 0, deferred: 0, last: [] as string[] };

/**
 * The agent keeps its MQTT client to itself; the bench reads it rather than widen the agent's API for a
 * measurement. The agent's own handler also sees the echo, finds no sealed command in it and drops it
 * (reported as "forged"), so the phone's protocol behaviour is unchanged.
 */
function addEcho(agent: DeviceAgent): boolean {
  const client = (agent as unknown as { client: MqttClient | null }).client;
  const topic = agent.snapshot().credentials?.eventTopic;
  if (!client || !topic) return false;
  client.on('message', (_topic, payload) => {
    if (payload.subarray(0, ECHO.length).equals(ECHO)) client.publish(topic, payload, { qos: 1 });
  });
  return true;
}

async function memory() {
  await collectGarbage();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed };
}

serveParent({
  async start({ server, tokens, concurrency, timeoutMs }: { server: string; tokens: FleetToken[]; concurrency: number; timeoutMs: number }) {
    const before = await memory();
    // The phones share one process: when its event loop falls behind, a check-in leaves (and its 15 s timer runs
    // out) late, however fast the server answers. The delay is measured so the report can tell the two apart.
    const lag = monitorEventLoopDelay({ resolution: 20 });
    lag.enable();
    const started = performance.now();
    const until = Date.now() + timeoutMs;
    fleet = await startFleet({
      server, tokens, concurrency,
      onProgress: (line) => process.stderr.write(`\r  phones: ${line}   `),
    });
    const enrolledSeconds = (performance.now() - started) / 1000;
    // Check-ins the server shed while busy (503 with Retry-After) are counted apart: the phone came back when told,
    // nothing timed out.
    for (const agent of fleet.agents) {
      agent.on('check-in', (outcome) => {
        if (outcome.ok) return;
        if (outcome.deferred) {
          outcomes.deferred++;
          return;
        }
        outcomes.failed++;
        if (outcomes.last.push(outcome.error ?? '') > 3) outcomes.last.shift();
      });
    }
    const connected = await fleet.waitConnected(Math.max(1000, until - Date.now()));
    const connectedSeconds = (performance.now() - started) / 1000;
    // Each phone checks in over HTTPS when it connects; the measurement starts once those have settled.
    while (Date.now() < until && !fleet.agents.every((a) => a.stats.checkIns > 0)) await new Promise((resolve) => setTimeout(resolve, 250));
    const readySeconds = (performance.now() - started) / 1000;
    process.stderr.write('\n');
    const echoes = fleet.agents.filter(addEcho).length;
    const after = await memory();
    lag.disable();
    return {
      loopDelayMs: { p99: lag.percentile(99) / 1e6, max: lag.max / 1e6 },
      enrolledSeconds, connectedSeconds, readySeconds, allConnected: connected, checkInFailures: outcomes.failed, checkInsDeferred: outcomes.deferred,
      lastFailures: outcomes.last, echoes, before, after,
      summary: fleet.summary(), errors: fleet.errors.slice(0, 5),
    };
  },
  /**
   * A reconnect storm: every phone loses its connection, then all come back in the same second, as after an
   * outage of the shop's network or a restart of the broker. Each reconnects and checks in (spread as the agent
   * spreads a check-in after connecting); the phase ends when every phone has checked in again.
   */
  async storm({ timeoutMs }: { timeoutMs: number }) {
    const agents = fleet!.agents;
    await Promise.all(agents.map((a) => a.goOffline()));
    const checkInsBefore = agents.map((a) => a.stats.checkIns);
    const failedBefore = outcomes.failed;
    const deferredBefore = outcomes.deferred;
    const lag = monitorEventLoopDelay({ resolution: 20 });
    lag.enable();
    const started = performance.now();
    const until = Date.now() + timeoutMs;
    for (const agent of agents) agent.goOnline();
    const connected = await fleet!.waitConnected(Math.max(1000, until - Date.now()));
    const connectedSeconds = (performance.now() - started) / 1000;
    const checkedIn = () => agents.every((a, i) => a.stats.checkIns > checkInsBefore[i]!);
    while (Date.now() < until && !checkedIn()) await new Promise((resolve) => setTimeout(resolve, 250));
    lag.disable();
    return {
      phones: agents.length, allConnected: connected, allCheckedIn: checkedIn(), connectedSeconds, readySeconds: (performance.now() - started) / 1000,
      checkInFailures: outcomes.failed - failedBefore, checkInsDeferred: outcomes.deferred - deferredBefore, lastFailures: outcomes.last,
      loopDelayMs: { p99: lag.percentile(99) / 1e6, max: lag.max / 1e6 },
    };
  },
  async summary() {
    return fleet!.summary();
  },
});

process.on('SIGTERM', async () => {
  await fleet?.stop().catch(() => undefined);
  process.exit(0);
});
