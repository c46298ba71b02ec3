/**
 * The device channel end to end: the console in Chromium, the real server and broker, and the device agent
 * as the phone (its virtual phone page open in a second tab). The EMM QR is read off the screen with a
 * standard QR decoder, as a phone's camera would.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import jsQR from 'jsqr';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { DeviceAgent } from '@kisht/agent/agent';
import { MemoryStore } from '@kisht/agent/store';
import { startScreen } from '@kisht/agent/screen/screen-server';
import { parseEnrolmentPayload } from '@kisht/agent/enrolment-payload';
import { RetailerApi, randomImei } from '@kisht/agent/retailer-api';
import { startFleet } from '@kisht/agent/fleet';
import { BASE_URL } from '../playwright.config.ts';
import { en, signInWithOtp, passMpin } from './fixtures.ts';

const phoneText = (key: string, vars?: Record<string, string>) => en(`phone.${key}`, vars);

async function openConsole(page: Page, request: APIRequestContext) {
  await signInWithOtp(page, request, '9876543210');
  await passMpin(page);
}

/** Opens a console address directly, as a reload would (the console asks for the MPIN again). */
async function visit(page: Page, path: string) {
  await page.goto(path);
  await passMpin(page);
}

/** Reads the QR code in an element's screenshot with jsQR. */
async function decodeQr(page: Page, name: string): Promise<string> {
  const image = page.getByRole('img', { name });
  await expect(image).toBeVisible();
  // A toast over the code would hide part of it from the camera, as it would on a real screen.
  for (const toast of await page.locator('.toast').all()) await toast.getByRole('button', { name: en('common.close') }).click();
  const shot = await image.screenshot({ scale: 'device' });
  if (process.env.E2E_QR_SHOT) (await import('node:fs')).writeFileSync(process.env.E2E_QR_SHOT, shot);
  const png = PNG.sync.read(shot);
  const found = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!found) throw new Error('no QR code could be read from the screen');
  return found.data;
}

test('a phone enrolled from the EMM QR locks from the console, and unlocks with an offline code', async ({ page, context, request }) => {
  test.setTimeout(120_000);
  // The customer, added through the same API the console uses (the add-customer journey has its own test).
  const retailer = new RetailerApi(BASE_URL);
  await retailer.signIn();
  const imei = randomImei();
  const products = await retailer.request<Array<{ id: number; product_type: number }>>('GET', '/api/products');
  const today = todayInIndia();
  const { customer } = await retailer.request<{ customer: { id: number } }>('POST', '/api/customer', {
    first_name: 'Asha', last_name: 'Devi', mobile: '+919812312345', device_brand: 'Samsung', device_model: 'Galaxy A15', imei1: imei,
    provisioning_type: 0, product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 1_500_000, down_payment_paise: 300_000,
    annual_rate_bps: 0, interest_method: 'flat', tenure_months: 6, start_date: today, first_due_date: addDays(today, 30),
  });

  await openConsole(page, request);
  await visit(page, `/customer-details/${customer.id}`);
  await expect(page.getByRole('heading', { name: 'Asha Devi' })).toBeVisible();
  await page.getByRole('link', { name: en('device.showEmmQr') }).or(page.getByRole('button', { name: en('device.showEmmQr') })).click();
  await expect(page.getByRole('heading', { name: en('emmQr.title') })).toBeVisible();

  // The phone scans the code and enrols itself.
  const payload = await decodeQr(page, en('emmQr.imageLabel'));
  expect(JSON.parse(payload)['android.app.extra.PROVISIONING_DEVICE_ADMIN_COMPONENT_NAME']).toBeTruthy();
  const agent = new DeviceAgent({ store: new MemoryStore() });
  await agent.enrol(parseEnrolmentPayload(payload), { imei1: imei }, [{ slot: 0, operator: 'Jio', iccid: '8991000000000000001' }]);
  agent.start();
  const screen = await startScreen(agent, { port: 0, host: '127.0.0.1' });
  const phone = await context.newPage();
  try {
    await phone.goto(screen.url);
    await expect(phone.getByRole('heading', { name: phoneText('home.heading') })).toBeVisible();

    // Lock from the console: the phone shows its lock screen, and only then the console says Locked.
    await visit(page, `/customer-details/${customer.id}`);
    const controls = page.getByRole('group', { name: en('device.mainActions') });
    await controls.getByRole('button', { name: en('device.lock'), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: en('device.lockTitle') });
    await dialog.getByRole('button', { name: en('device.lock'), exact: true }).click();
    await expect(phone.getByRole('heading', { name: phoneText('lock.heading') })).toBeVisible();
    // Nothing is overdue yet (the first EMI is a month away): the phone says so rather than "Amount due Rs 0".
    await expect(phone.getByText(phoneText('lock.nothingDue'))).toBeVisible();
    await expect(phone.getByText(phoneText('lock.amountDue'))).toHaveCount(0);
    await expect(phone.getByRole('img', { name: phoneText('lock.upiQr') })).toBeVisible();
    await expect(page.getByText(en('lockStatus.locked'), { exact: true }).first()).toBeVisible();
    await expect(page.getByText(en('device.state.done')).first()).toBeVisible();

    // Cut the phone's network, then unlock it with an offline code read out by the retailer.
    await phone.getByRole('button', { name: phoneText('tester.networkOff') }).click();
    await expect(phone.getByRole('button', { name: phoneText('tester.networkOn') })).toBeVisible();
    await page.getByRole('button', { name: en('device.codes.unlock') }).click();
    const code = (await page.getByRole('dialog').getByLabel(en('device.code.label'), { exact: true }).innerText()).trim();
    expect(code).toMatch(/^[0-9]{8}$/);
    await phone.getByRole('textbox', { name: phoneText('code.label') }).fill('00000000');
    await phone.getByRole('button', { name: phoneText('code.submit') }).click();
    await expect(phone.getByText(phoneText('code.wrong', { count: '4' }))).toBeVisible();
    await phone.getByRole('textbox', { name: phoneText('code.label') }).fill(code);
    await phone.getByRole('button', { name: phoneText('code.submit') }).click();
    await expect(phone.getByRole('heading', { name: phoneText('home.heading') })).toBeVisible();
    expect(agent.isConnected).toBe(false);

    // Back online, the phone's offline log reaches the server and the console says Unlocked.
    await phone.getByRole('button', { name: phoneText('tester.networkOn') }).click();
    await expect.poll(async () => (await retailer.request<{ lock_status: number }>('GET', `/api/country/getCustomerProfile?customer_id=${customer.id}`)).lock_status, { timeout: 30_000 }).toBe(0);
    await visit(page, `/customer-details/${customer.id}`);
    await expect(page.getByText(en('lockStatus.unlocked'), { exact: true }).first()).toBeVisible();
  } finally {
    await phone.close();
    await screen.close();
    await agent.stop();
  }
});

test('bulk lock of 50 phones shows its progress reach 50', async ({ page, request }) => {
  test.setTimeout(180_000);
  const fleet = await startFleet({ server: BASE_URL, count: 50, concurrency: 5 });
  try {
    expect(fleet.errors).toEqual([]);
    expect(await fleet.waitConnected(60_000)).toBe(true);

    await openConsole(page, request);
    await visit(page, '/multiple-lock-unlock');
    await expect(page.getByRole('heading', { name: en('bulkLock.title') })).toBeVisible();
    await page.getByRole('radio', { name: en('bulkLock.modeFilter') }).check();
    await page.getByLabel(en('bulkLock.searchLabel')).fill('Fleet');
    await expect(page.getByText(en('bulkLock.filterCount', { count: '50' }))).toBeVisible();
    await page.getByRole('button', { name: en('bulkLock.startLock', { count: '50' }) }).click();
    await page.getByRole('dialog').getByRole('button', { name: en('bulkLock.start') }).click();

    const progress = page.getByRole('progressbar', { name: en('bulkLock.progressLabel') });
    await expect(progress).toHaveAttribute('aria-valuemax', '50');
    await expect(progress).toHaveAttribute('aria-valuenow', '50', { timeout: 60_000 });
    await expect(page.getByText(en('bulkLock.progressText', { done: '50', total: '50' }))).toBeVisible();
    await expect.poll(() => fleet.summary().locked).toBe(50);
  } finally {
    await fleet.stop();
  }
});
