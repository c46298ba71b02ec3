/**
 * Anti-hacking plans in the console: the screen opened for a tier with a plan preselected, the required fields,
 * the sale and its code dialog (Copy), closing it onto the customer list in place of the form, the sale in the
 * list's anti-hacking list (Issued, then Activated by the phone without a reload), and cancelling it: its code
 * drawer shows N/A and Copy says the code is not found.
 */
import { expect, test } from '@playwright/test';
import { RetailerApi } from '@kisht/agent/retailer-api';
import { BASE_URL } from '../playwright.config.ts';
import { en, passMpin, signInWithOtp } from './fixtures.ts';
import { navigateInApp } from './console-screens.ts';

/**
 * Sunita, the demo mini-retailer with anti-hacking keys (three of type 8): the journeys that sign in as Ravi
 * expect to set his MPIN themselves, and this file runs before them.
 */
const SELLER = '9876543211';

interface Plan {
  id: number;
  name: string;
  app_type: number;
  product_id: number;
}

test('a retailer sells an anti-hacking plan, copies its code, finds the sale in the customer list and cancels it', async ({ page, request, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);

  const api = new RetailerApi(BASE_URL, 'anti-hacking journey');
  await api.signIn(`+91${SELLER}`);
  const plans = await api.request<Plan[]>('GET', '/api/customer/get_plans_antihacking');
  await api.signOut();
  const plan = plans.find((p) => p.app_type === 8)!;
  const otherTier = plans.find((p) => p.app_type !== 8)!;
  expect(plan).toBeTruthy();

  await signInWithOtp(page, request, SELLER);
  await passMpin(page);
  // The dashboard's quick links lead to the screen.
  await expect(page.getByRole('link', { name: en('antihacking.nav') })).toHaveAttribute('href', '/antihacking');

  // Opened for tier 8 with its plan: preselected, and the other tiers' plans are not offered.
  await navigateInApp(page, `/antihacking?app_type=8&plan_id=${plan.id}&product_id=${plan.product_id}`);
  await expect(page.getByRole('heading', { name: en('antihacking.title'), level: 1 })).toBeVisible();
  const planSelect = page.getByLabel(en('antihacking.plan'), { exact: true });
  await expect(planSelect).toHaveValue(String(plan.id));
  await expect(planSelect.locator('option:checked')).toHaveText(plan.name);
  await expect(planSelect.locator('option', { hasText: otherTier.name })).toHaveCount(0);

  // Nothing entered: the required fields say so.
  await page.getByRole('button', { name: en('antihacking.submit') }).click();
  await expect(page.getByText(en('common.required')).first()).toBeVisible();
  await expect(page.getByLabel(en('addCustomer.firstName'))).toBeFocused();

  const mobile = `9${String(Date.now()).slice(-9)}`;
  await page.getByLabel(en('addCustomer.firstName')).fill('Venkatasubramanian');
  await page.getByLabel(en('addCustomer.lastName')).fill('Ramakrishnan Iyer');
  await page.getByLabel(en('addCustomer.mobile'), { exact: true }).fill(mobile);
  await page.getByRole('button', { name: en('antihacking.submit') }).click();

  // Sold: the server's message, and the code in four groups of four.
  await expect(page.getByRole('status').filter({ hasText: en('messages.ANTIHACKING_ADDED') })).toBeVisible();
  const sold = page.getByRole('dialog', { name: en('antihacking.sold.title') });
  await expect(sold).toBeVisible();
  const code = (await sold.getByLabel(en('antihacking.code.label')).innerText()).trim();
  expect(code).toMatch(/^\d{4} \d{4} \d{4} \d{4}$/);
  await sold.getByRole('button', { name: en('antihacking.code.copy') }).click();
  await expect(page.getByRole('status').filter({ hasText: en('antihacking.code.copied') })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);

  // Closing lands on the customer list's anti-hacking list, which took the form's place in the history.
  await sold.getByRole('button', { name: en('common.close') }).click();
  await expect(page).toHaveURL(/\/customers\?tab=antihacking$/);
  await page.goBack();
  await expect(page).not.toHaveURL(/\/antihacking/);
  await expect(page.getByRole('button', { name: en('antihacking.submit') })).toHaveCount(0);
  await page.goForward();
  await expect(page).toHaveURL(/\/customers\?tab=antihacking$/);
  await expect(page.getByRole('tab', { name: en('antihacking.list.sales') })).toHaveAttribute('aria-selected', 'true');

  // The sale in the list, found by its mobile number: Issued.
  await page.getByLabel(en('customers.searchLabel')).fill(mobile);
  await expect(page.getByText(en('customers.total', { count: '1' }))).toBeVisible();
  const row = page.getByRole('listitem').filter({ hasText: 'Venkatasubramanian Ramakrishnan Iyer' });
  await expect(row).toContainText(en('antihacking.state.issued'));
  await expect(row).toContainText(plan.name);
  await row.getByRole('button', { name: en('antihacking.code.view') }).click();
  const drawer = page.getByRole('dialog', { name: en('antihacking.code.title') });
  await expect(drawer.getByLabel(en('antihacking.code.label'))).toHaveText(code);
  await drawer.getByRole('button', { name: en('common.cancel') }).click();
  await expect(drawer).toBeHidden();

  // The security app on the buyer's phone activates the code: the open list follows without a reload.
  const activated = await request.post('/api/antihacking/activate', { data: { code, mobile: `+91${mobile}`, install_id: 'e2e-install-0001', device_model: 'Redmi Note 13 Pro' } });
  expect(activated.status()).toBe(200);
  await expect(row).toContainText(en('antihacking.state.activated'));

  // Cancel the plan: a reason is required; then its code no longer shows.
  await row.getByRole('button', { name: en('antihacking.revoke.button') }).click();
  const revoke = page.getByRole('dialog', { name: en('antihacking.revoke.title') });
  await revoke.getByRole('button', { name: en('antihacking.revoke.confirm') }).click();
  await expect(revoke.getByText(en('common.required'))).toBeVisible();
  await revoke.getByLabel(en('antihacking.revoke.reason')).fill('Customer returned the phone');
  await revoke.getByRole('button', { name: en('antihacking.revoke.confirm') }).click();
  await expect(revoke).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: en('messages.ANTIHACKING_REVOKED') })).toBeVisible();
  await expect(row).toContainText(en('antihacking.state.revoked'));
  await row.getByRole('button', { name: en('antihacking.code.view') }).click();
  await expect(drawer.getByLabel(en('antihacking.code.label'))).toHaveText(en('common.notAvailable'));
  await drawer.getByRole('button', { name: en('antihacking.code.copy') }).click();
  await expect(page.getByRole('alert').filter({ hasText: en('antihacking.code.notFound') })).toBeVisible();
});
