/**
 * Nothing on screen goes stale: with customer details open, a phone enrols from outside (the device agent
 * through the API) and a scheduled lock fires on the server; the screen follows both without a reload,
 * through the server's event stream.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DeviceAgent } from '@kisht/agent/agent';
import { MemoryStore } from '@kisht/agent/store';
import { parseEnrolmentPayload } from '@kisht/agent/enrolment-payload';
import { RetailerApi, randomImei } from '@kisht/agent/retailer-api';
import { BASE_URL } from '../playwright.config.ts';
import { en, signInWithOtp, passMpin } from './fixtures.ts';

/** Signs in and opens customer details through the console's own navigation (no reload afterwards). */
async function openDetails(page: Page, request: APIRequestContext, customerId: number) {
  await signInWithOtp(page, request, '9876543210');
  await passMpin(page);
  await page.goto(`/customer-details/${customerId}`);
  await passMpin(page);
}

test('customer details follow an enrolment and a scheduled lock without a reload', async ({ page, request }) => {
  test.setTimeout(120_000);
  const retailer = new RetailerApi(BASE_URL, 'live-updates test');
  await retailer.signIn();
  const imei = randomImei();
  const customerId = await retailer.addCustomer(imei, 'Livewire');
  // Every document load in this page is counted: the screen must change without another one.
  let loads = 0;
  page.on('load', () => loads++);

  await openDetails(page, request, customerId);
  await expect(page.getByRole('heading', { name: 'Fleet Livewire' })).toBeVisible();
  await expect(page.getByText(en('device.notEnrolled'))).toBeVisible();
  await expect(page.getByText(en('customerStatus.inactive'), { exact: true }).first()).toBeVisible();
  const loadsBefore = loads;

  // The phone enrols from outside the browser, with the customer's EMM QR fetched through the API.
  const agent = new DeviceAgent({ store: new MemoryStore() });
  try {
    await agent.enrol(parseEnrolmentPayload(await retailer.qrPayload(customerId)), { imei1: imei }, [{ slot: 0, operator: 'Jio', iccid: '8991000000000000001' }]);
    agent.start();

    // The open screen turns to the enrolled state by itself.
    await expect(page.getByText(en('device.notEnrolled'))).toBeHidden({ timeout: 10_000 });
    await expect(page.getByText(en('customerStatus.install'), { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('group', { name: en('device.mainActions') })).toBeVisible();
    await expect(page.getByText(en('customerStatus.inactive'), { exact: true })).toHaveCount(0);
    expect(loads).toBe(loadsBefore);

    // A lock scheduled a few seconds ahead (by another session): it shows as Scheduled, then the server's
    // sweeper fires it, the phone locks, and the same screen says Done and Locked.
    const note = `live-${Date.now()}`;
    await retailer.request('POST', '/api/device/schedule_lock_unlock', { customer_id: customerId, action: 'lock', run_at: new Date(Date.now() + 6_000).toISOString(), note });
    const item = page.getByRole('listitem').filter({ hasText: note });
    await expect(item).toContainText(en('device.schedule.state.scheduled'));
    await expect(item).toContainText(en('device.schedule.state.done'), { timeout: 30_000 });
    await expect(page.getByText(en('lockStatus.locked'), { exact: true }).first()).toBeVisible({ timeout: 15_000 });
    expect(loads).toBe(loadsBefore);
  } finally {
    await agent.stop();
    await retailer.signOut();
  }
});
