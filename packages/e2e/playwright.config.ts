/**
 * End-to-end journeys in Debian's Chromium against the built console served by the real server (PGlite in
 * memory, embedded broker, development SMS outbox), as `npm start` runs it.
 */
import { defineConfig, devices } from '@playwright/test';
import { FAKE_KEY_ID, FAKE_KEY_SECRET, FAKE_WEBHOOK_SECRET } from '../server/test/support/fake-razorpay.ts';

const PORT = Number(process.env.E2E_PORT ?? 8091);
export const BASE_URL = `http://localhost:${PORT}`;
/** The test server's app secret (the operator endpoint's key is derived from it). */
export const APP_SECRET = 'e2e-secret-e2e-secret-e2e-secret-e2e!';
/** Where the journeys that pay start the local payment gateway (a fake of Razorpay's documented API). */
export const GATEWAY_PORT = PORT + 1;

export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
    ...devices['Pixel 5'],
    viewport: { width: 360, height: 740 },
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
    trace: 'off',
  },
  webServer: {
    // The server as `npm start` runs it: bundled (only when its sources changed), not transpiled on the fly.
    command: 'node ../server/scripts/bundle-if-stale.mjs && node --enable-source-maps ../server/dist/server.mjs',
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      APP_ENV: 'development',
      DATA_DIR: 'memory://',
      MQTT_PORT: '0',
      MQTT_HOST: '127.0.0.1',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      APP_SECRET,
      // Every journey signs in from 127.0.0.1, several as the same retailer, within the hour.
      OTP_SENDS_PER_MOBILE_PER_HOUR: '100',
      OTP_SENDS_PER_IP_PER_HOUR: '1000',
      // The gateway adapter, pointed at the local fake the payment journeys start; each organisation's switch
      // stays off (the default) until a journey turns it on.
      PAYMENT_GATEWAY: 'razorpay',
      RAZORPAY_BASE_URL: `http://127.0.0.1:${GATEWAY_PORT}`,
      RAZORPAY_KEY_ID: FAKE_KEY_ID,
      RAZORPAY_KEY_SECRET: FAKE_KEY_SECRET,
      RAZORPAY_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
      // Offers go out whenever a journey runs (the 09:00-21:00 India-time rule has its own server test with a moved clock).
      ADS_SEND_HOURS: '0-24',
      ADS_CHECK_SECONDS: '2',
      // A console built elsewhere (`vite build --outDir ...`), so parallel work does not share one dist folder.
      ...(process.env.E2E_CONSOLE_DIST ? { CONSOLE_DIST: process.env.E2E_CONSOLE_DIST } : {}),
    },
  },
});
