// Runs the server integration suite against the machine's real PostgreSQL and Mosquitto.
// Where they are not reachable it says so and skips, except in CI (CI=true), where that is a failure.
import net from 'node:net';
import { spawnSync } from 'node:child_process';

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MQTT_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

function reachable(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.setTimeout(2000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const missing = [];
if (!(await reachable(DATABASE_URL))) missing.push(`PostgreSQL at ${DATABASE_URL}`);
if (!(await reachable(MQTT_URL))) missing.push(`MQTT broker at ${MQTT_URL}`);
if (missing.length > 0) {
  console.log(`Skipping the real-services integration run: not reachable: ${missing.join(', ')}.`);
  process.exit(process.env.CI === 'true' ? 1 : 0);
}
console.log(`Integration suite against ${DATABASE_URL} and ${MQTT_URL}`);
const run = spawnSync('npx', ['vitest', 'run', '--project', 'server'], {
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE_URL: DATABASE_URL, TEST_MQTT_URL: MQTT_URL },
});
process.exit(run.status ?? 1);
