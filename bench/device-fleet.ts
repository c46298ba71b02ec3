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
    let checkInFailures = 0;
    // Check-ins the server shed while busy (503 with Retry-After): the phone came back when told, nothing timed out.
    let checkInsDeferred = 0;
    const lastFailures: string[] = [];
    for (const agent of fleet.agents) {
      agent.on('check-in', (outcome) => {
        if (outcome.ok) return;
        if (outcome.deferred) {
          checkInsDeferred++;
          return;
        }
        checkInFailures++;
        if (lastFailures.push(outcome.error ?? '') > 3) lastFailures.shift();
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
      enrolledSeconds, connectedSeconds, readySeconds, allConnected: connected, checkInFailures, checkInsDeferred, lastFailures, echoes, before, after,
      summary: fleet.summary(), errors: fleet.errors.slice(0, 5),
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
