/**
 * A 360 px screenshot of every console screen in English, Hindi and Tamil, with long real-world data, for a
 * reviewer to look through in a minute:
 *
 *   cd packages/console && npx vite build --outDir /tmp/console-dist
 *   cd packages/e2e && SHOTS_CONSOLE_DIST=/tmp/console-dist node --import tsx scripts/screenshots.ts [folder]
 *
 * It starts its own server (in-memory database, demo data, port SHOTS_PORT or 8198), adds the long customers,
 * signs in and writes <folder>/<lng>/<nn>-<screen>.png (and -end.png for the end of a long page); the folder
 * defaults to /tmp/kisht-screens. SHOTS_LANGS=en,tm picks languages.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { FAKE_KEY_ID, FAKE_KEY_SECRET, FAKE_WEBHOOK_SECRET } from '../../server/test/support/fake-razorpay.ts';
import { addLongAntihackingSales, addLongCampaign, addLongFamilyCare, addLongWarrantySales, createHeldPayment, createLongData, LANGUAGES, MPIN, navigateInApp, RETAILER, settle, setPaymentGateway, signedInScreens, trackRequests, uploadPaymentQr, type Lng } from '../tests/console-screens.ts';
import { en, latestOtp, text } from '../tests/fixtures.ts';

const PORT = Number(process.env.SHOTS_PORT ?? 8198);
const BASE = `http://127.0.0.1:${PORT}`;
const GATEWAY_PORT = PORT + 1;
const OUT = process.argv[2] ?? '/tmp/kisht-screens';
const LANGS = (process.env.SHOTS_LANGS?.split(',') ?? ['en', 'hn', 'tm']).filter((l): l is Lng => (LANGUAGES as readonly string[]).includes(l));
const VIEWPORT = { width: 360, height: 740 };
const APP_SECRET = 'screenshots-secret-screenshots-secret!';

async function startServer() {
  const serverEntry = fileURLToPath(new URL('../../server/src/server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env, PORT: String(PORT), HOST: '127.0.0.1', APP_ENV: 'development', DATA_DIR: 'memory://', MQTT_PORT: '0', MQTT_HOST: '127.0.0.1',
      SEED_DEMO: 'true', LOG_LEVEL: 'warn', APP_SECRET,
      // The gateway adapter, pointed at the local fake that makes the held payment (the switch stays off until asked).
      PAYMENT_GATEWAY: 'razorpay', RAZORPAY_BASE_URL: `http://127.0.0.1:${GATEWAY_PORT}`,
      RAZORPAY_KEY_ID: FAKE_KEY_ID, RAZORPAY_KEY_SECRET: FAKE_KEY_SECRET, RAZORPAY_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
      // Offers go out at any hour, so the long offer has results whenever the screenshots are taken.
      ADS_SEND_HOURS: '0-24', ADS_CHECK_SECONDS: '2',
      // The data set-up signs the retailer in several times within the hour.
      OTP_SENDS_PER_MOBILE_PER_HOUR: '100', OTP_SENDS_PER_IP_PER_HOUR: '1000',
      ...(process.env.SHOTS_CONSOLE_DIST ? { CONSOLE_DIST: process.env.SHOTS_CONSOLE_DIST } : {}),
    },
  });
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error('the server stopped while starting');
    if (await fetch(`${BASE}/api/health`).then((r) => r.ok, () => false)) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('the server did not start in 60 s');
}

/** Signs in through the screens in English (setting the MPIN); returns the session to reuse. */
async function signIn(browser: Browser) {
  const context = await browser.newContext({ viewport: VIEWPORT, baseURL: BASE });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel(en('auth.login.mobileLabel')).fill(RETAILER);
  await page.getByRole('button', { name: en('auth.login.sendOtp') }).click();
  await page.getByRole('heading', { name: en('auth.otp.title') }).waitFor();
  await page.getByLabel(en('auth.otp.label')).fill(await latestOtp(page.request, `+91${RETAILER}`));
  await page.getByRole('button', { name: en('auth.otp.verify') }).click();
  await page.getByLabel(en('auth.mpin.newLabel')).fill(MPIN);
  await page.getByLabel(en('auth.mpin.confirmLabel')).fill(MPIN);
  await page.getByRole('button', { name: en('auth.mpin.save') }).click();
  await page.getByRole('button', { name: en('nav.openMenu') }).waitFor();
  await uploadPaymentQr(page);
  const state = await context.storageState();
  await context.close();
  return state;
}

async function shoot(page: Page, folder: string, index: number, name: string) {
  const file = `${folder}/${String(index).padStart(2, '0')}-${name.replace(/[^a-z0-9_-]+/gi, '_')}`;
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${file}.png` });
  const tall = await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight + 40);
  if (tall) {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.screenshot({ path: `${file}-end.png` });
    await page.evaluate(() => window.scrollTo(0, 0));
  }
}

/** Closes the toasts that would hide part of a shot of a state further down the page. */
async function closeToasts(page: Page, lng: Lng) {
  for (const toast of await page.locator('.toast').all()) await toast.getByRole('button', { name: text(lng, 'common.close') }).click().catch(() => undefined);
}

const server = await startServer();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const data = await createLongData(BASE, APP_SECRET);
  await addLongAntihackingSales(BASE, APP_SECRET, data);
  const warranty = await addLongWarrantySales(BASE, APP_SECRET, data);
  data.warranty = warranty;
  data.familycare = await addLongFamilyCare(BASE, APP_SECRET);
  // A long Tamil offer with results (the send_advertisement screen's third view).
  data.campaign = await addLongCampaign(BASE, APP_SECRET);
  await createHeldPayment(BASE, APP_SECRET, GATEWAY_PORT, data.latin);
  const session = await signIn(browser);
  for (const lng of LANGS) {
    const folder = `${OUT}/${lng}`;
    mkdirSync(folder, { recursive: true });
    let n = 0;
    // Signed out: the login screen.
    const guestContext = await browser.newContext({ viewport: VIEWPORT, baseURL: BASE });
    await guestContext.addCookies([{ name: 'i18next', value: lng, url: BASE }]);
    const guest = await guestContext.newPage();
    await guest.goto('/login');
    await settle(guest, trackRequests(guest));
    await shoot(guest, folder, ++n, 'login');
    await guestContext.close();

    const context = await browser.newContext({ viewport: VIEWPORT, baseURL: BASE, storageState: session });
    await context.addCookies([{ name: 'i18next', value: lng, url: BASE }]);
    const page = await context.newPage();
    const loads = trackRequests(page);
    await page.goto('/m-pin');
    await page.getByLabel(text(lng, 'auth.mpin.label'), { exact: true }).fill(MPIN);
    await page.getByRole('button', { name: text(lng, 'auth.mpin.verify') }).click();
    await page.getByRole('button', { name: text(lng, 'nav.openMenu') }).waitFor();
    for (const screen of signedInScreens(data)) {
      await navigateInApp(page, screen.path);
      await settle(page, loads);
      await shoot(page, folder, ++n, screen.name);
    }
    // Anti-theft on the Tamil customer's details: the owner's choice, the lost-phone steps, and the SIM changes
    // with their SMS alerts and lost mode.
    await navigateInApp(page, `/customer-details/${data.tamil}`);
    await settle(page, loads);
    for (const [heading, name] of [['antitheft.title', 'antitheft'], ['antitheft.lost.title', 'antitheft-lost'], ['simChanges.customerTitle', 'antitheft-sim-changes']] as const) {
      await page.getByRole('heading', { name: text(lng, heading), exact: true }).first().evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: `${folder}/${String(++n).padStart(2, '0')}-customer_details-${name}.png` });
    }
    // Family care on the child's phone's details at the narrowest phone: cover and rules, bedtime and apps, and the
    // usage charts with long package names; and the family-care screen.
    await page.setViewportSize({ ...VIEWPORT, width: 320 });
    await navigateInApp(page, `/customer-details/${data.familycare}`);
    await settle(page, loads);
    for (const [heading, name] of [['familycare.title', 'familycare'], ['familycare.rules.downtimeTitle', 'familycare-bedtime'], ['familycare.rules.allowed', 'familycare-apps'], ['familycare.usage.title', 'familycare-usage']] as const) {
      await page.getByText(text(lng, heading), { exact: true }).first().evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: `${folder}/${String(++n).padStart(2, '0')}-customer_details-${name}-320.png` });
    }
    await page.getByText(text(lng, 'familycare.usage.allApps', { n: '2' })).click();
    await page.getByText(text(lng, 'familycare.usage.allApps', { n: '2' })).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `${folder}/${String(++n).padStart(2, '0')}-customer_details-familycare-apps-in-full-320.png` });
    await navigateInApp(page, '/familycare');
    await settle(page, loads);
    await shoot(page, folder, ++n, 'familycare-320');
    await page.setViewportSize(VIEWPORT);
    await page.getByRole('button', { name: text(lng, 'nav.openMenu') }).click();
    await settle(page, loads);
    await shoot(page, folder, ++n, 'menu-drawer');
    await page.keyboard.press('Escape');
    // Extended warranty: the form with a plan's rules, and over a sale in cover the claim dialog and the image to save.
    await navigateInApp(page, `/extended-warranty?customer_id=${data.tamil}`);
    await settle(page, loads);
    await page.getByLabel(text(lng, 'warranty.plan'), { exact: true }).selectOption(String(warranty.insurancePlan));
    await shoot(page, folder, ++n, 'extended_warranty-rules');
    await navigateInApp(page, `/extended-warranty?sale_id=${warranty.inCover}`);
    await settle(page, loads);
    await page.getByRole('button', { name: text(lng, 'warranty.claim.raise') }).click();
    const claim = page.getByRole('dialog', { name: text(lng, 'warranty.claim.title') });
    await claim.getByRole('button', { name: text(lng, 'warranty.claim.submit') }).click();
    await settle(page, loads);
    await closeToasts(page, lng);
    await page.screenshot({ path: `${folder}/${String(++n).padStart(2, '0')}-extended_warranty-claim.png` });
    await page.keyboard.press('Escape');
    await page.evaluate(() => Object.defineProperty(navigator, 'share', { configurable: true, value: undefined }));
    await page.getByRole('button', { name: text(lng, 'warranty.cert.share') }).click();
    await page.getByRole('dialog', { name: text(lng, 'warranty.cert.saveTitle') }).waitFor();
    await settle(page, loads);
    await page.screenshot({ path: `${folder}/${String(++n).padStart(2, '0')}-extended_warranty-save-image.png` });
    await page.keyboard.press('Escape');
    // A receipt with the toast that follows a payment.
    await navigateInApp(page, `/view-emi-details/${data.latin}`);
    await settle(page, loads);
    await page.locator('table input[type=checkbox]:not(:disabled)').nth(1).check();
    await page.getByRole('button', { name: text(lng, 'emi.paySelected') }).click();
    await page.getByLabel(text(lng, 'emi.pay.method')).selectOption('upi');
    await page.getByLabel(text(lng, 'emi.pay.reference')).fill('UTR778899001122');
    await page.getByRole('button', { name: text(lng, 'emi.pay.confirm') }).click();
    await page.locator('.toast').waitFor();
    await settle(page, loads);
    await page.screenshot({ path: `${folder}/${String(++n).padStart(2, '0')}-receipt-with-toast.png` });
    // The payment screens with the organisation's payment gateway on (read at load: the console loads again).
    await setPaymentGateway(BASE, APP_SECRET, true);
    try {
      await page.goto('/payment-gateway');
      await page.getByLabel(text(lng, 'auth.mpin.label'), { exact: true }).fill(MPIN);
      await page.getByRole('button', { name: text(lng, 'auth.mpin.verify') }).click();
      await page.getByRole('heading', { name: text(lng, 'gateway.buy.title') }).waitFor();
      await settle(page, loads);
      await shoot(page, folder, ++n, 'payment_gateway-on');
      await page.getByLabel(text(lng, 'gateway.buy.quantity')).fill('10');
      await page.getByRole('button', { name: text(lng, 'gateway.buy.validate') }).click();
      await page.getByRole('status').first().waitFor();
      await settle(page, loads);
      await closeToasts(page, lng);
      await page.getByRole('heading', { name: text(lng, 'gateway.buy.title') }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: `${folder}/${String(++n).padStart(2, '0')}-payment_gateway-price.png` });
      await navigateInApp(page, `/customer-details/${data.tamil}`);
      await settle(page, loads);
      await closeToasts(page, lng);
      await page.getByRole('heading', { name: text(lng, 'gateway.collect.title') }).evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.screenshot({ path: `${folder}/${String(++n).padStart(2, '0')}-customer_details-collect.png` });
    } finally {
      await setPaymentGateway(BASE, APP_SECRET, false);
    }
    await context.close();
    console.log(`${lng}: ${n} screens in ${folder}`);
  }
} finally {
  await browser.close();
  server.kill();
}
