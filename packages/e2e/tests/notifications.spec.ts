/**
 * Notifications end to end (issue 14): a financed phone is enrolled; with the dashboard open, its SIM is swapped on
 * the virtual phone; the bell's count goes to 1 without a reload (the stream's `notification` event); the drawer
 * lists "SIM changed" with the customer's name, marked new; tapping it opens customer details and the count is 0.
 */
import { expect, test } from '@playwright/test';
import { addDays } from '@kisht/domain/calendar';
import { PRODUCT_TYPE } from '@kisht/domain/constants';
import { todayInIndia } from '@kisht/domain/format';
import { DeviceAgent } from '@kisht/agent/agent';
import { MemoryStore } from '@kisht/agent/store';
import { startScreen } from '@kisht/agent/screen/screen-server';
import { parseEnrolmentPayload } from '@kisht/agent/enrolment-payload';
import { RetailerApi, randomImei } from '@kisht/agent/retailer-api';
import { APP_SECRET, BASE_URL } from '../playwright.config.ts';
import { RETAILER, runOperator } from './console-screens.ts';
import { en, passMpin, signInWithOtp } from './fixtures.ts';

const phoneText = (key: string, vars?: Record<string, string>) => en(`phone.${key}`, vars);

test("a SIM swap rings the bell without a reload, and the notification opens the customer's details", async ({ page, context, request }) => {
  test.setTimeout(120_000);
  // Enough keys that this enrolment leaves the stock above "low" (that would be a notification of its own).
  await runOperator(BASE_URL, APP_SECRET, ['keys', `+91${RETAILER}`, String(PRODUCT_TYPE.DPC), '10']);
  const retailer = new RetailerApi(BASE_URL);
  await retailer.signIn(`+91${RETAILER}`);
  const imei = randomImei();
  const products = await retailer.request<Array<{ id: number; product_type: number }>>('GET', '/api/products');
  const today = todayInIndia();
  const { customer } = await retailer.request<{ customer: { id: number } }>('POST', '/api/customer', {
    first_name: 'Kavitha', last_name: 'Ramaswamy', mobile: '+919812377101', device_brand: 'Samsung', device_model: 'Galaxy A15',
    imei1: imei, provisioning_type: 0, product_id: products.find((p) => p.product_type === PRODUCT_TYPE.DPC)!.id, price_paise: 1_499_900,
    down_payment_paise: 300_000, annual_rate_bps: 0, interest_method: 'flat', tenure_months: 6, start_date: today, first_due_date: addDays(today, 30),
  });
  const qr = await retailer.request<{ qr_payload: string }>('GET', `/api/customer/generate_emm_code?customer_id=${customer.id}`);
  const agent = new DeviceAgent({ store: new MemoryStore() });
  await agent.enrol(parseEnrolmentPayload(qr.qr_payload), { imei1: imei }, [{ slot: 0, operator: 'Jio', iccid: '8991000000000000101' }]);
  agent.start();
  const screen = await startScreen(agent, { port: 0, host: '127.0.0.1' });
  const phone = await context.newPage();
  try {
    // Other journeys of the run may have left this retailer notifications: start from none unread.
    await retailer.request('POST', '/api/notifications/read', {});
    await expect.poll(async () => (await retailer.request<{ unread: number }>('GET', '/api/notifications/count')).unread).toBe(0);

    await signInWithOtp(page, request, RETAILER);
    await passMpin(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    // No unread: the bell has its plain name and no badge.
    await expect(page.getByRole('button', { name: en('notifications.title'), exact: true })).toBeVisible();

    // The SIM is swapped on the phone.
    await phone.goto(screen.url);
    await expect(phone.getByRole('heading', { name: phoneText('home.heading') })).toBeVisible();
    await phone.getByLabel(phoneText('tester.operator')).fill('Airtel');
    await phone.getByLabel(phoneText('tester.iccid')).fill('8991000000000009101');
    await phone.getByRole('button', { name: phoneText('tester.swapSim') }).click();

    // The open console hears of it: the bell counts one, without a reload.
    const bell = page.getByRole('button', { name: en('notifications.bell', { count: '1' }) });
    await expect(bell).toBeVisible({ timeout: 30_000 });
    await expect(bell).toHaveText('1');

    await bell.click();
    const drawer = page.getByRole('dialog', { name: en('notifications.title') });
    const row = drawer.getByRole('listitem').filter({ hasText: en('notifications.kind.sim_change') }).filter({ hasText: 'Kavitha Ramaswamy' });
    await expect(row).toHaveCount(1);
    // Unread is said in words, not only shown in colour; the long name is cut in the row.
    await expect(row.getByText(en('notifications.unread'), { exact: true })).toBeVisible();
    await expect(row.getByText('Kavitha Ra...')).toBeVisible();
    await expect(drawer.getByRole('button', { name: en('notifications.markAllRead') })).toBeEnabled();

    // Tapping it opens the customer's details, closes the drawer and marks it read.
    await row.getByRole('button').click();
    await expect(page).toHaveURL(new RegExp(`/customer-details/${customer.id}$`));
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('button', { name: en('notifications.title'), exact: true })).toBeVisible();

    // Opened again, it stays listed, no longer new, and there is nothing left to mark.
    await page.getByRole('button', { name: en('notifications.title'), exact: true }).click();
    const again = page.getByRole('dialog', { name: en('notifications.title') }).getByRole('listitem').filter({ hasText: 'Kavitha Ramaswamy' });
    await expect(again).toHaveCount(1);
    await expect(again.getByText(en('notifications.unread'), { exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: en('notifications.markAllRead') })).toBeDisabled();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
  } finally {
    await phone.close();
    await screen.close();
    await agent.stop();
  }
});
