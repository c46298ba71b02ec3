/**
 * Spec details on a 360 px screen: SIMs numbered from 1, one "Change screen PIN", the server's own words in
 * the success toast, iPhone customers led to Apple details, and the plan's years left on customer details.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia, yearsLeft } from '@kisht/domain/format';
import { DeviceAgent } from '@kisht/agent/agent';
import { MemoryStore } from '@kisht/agent/store';
import { parseEnrolmentPayload } from '@kisht/agent/enrolment-payload';
import { RetailerApi, randomImei } from '@kisht/agent/retailer-api';
import { BASE_URL } from '../playwright.config.ts';
import { en, passMpin, signInWithOtp } from './fixtures.ts';

type Product = { id: number; product_type: number };
type Plan = { id: number; product_id: number; name: string; validity_days: number | null };
type Profile = { id: number; created_at: string };

async function visit(page: Page, request: APIRequestContext, path: string, signedIn: { done: boolean }) {
  if (!signedIn.done) {
    await signInWithOtp(page, request, '9876543210');
    await passMpin(page);
    signedIn.done = true;
  }
  await page.goto(path);
  await passMpin(page);
}

/** The value (dd) of a labelled fact (dt) on screen. */
function fact(page: Page, label: string) {
  return page.locator('dt').filter({ hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
}

async function addCustomer(retailer: RetailerApi, body: { first_name: string; last_name: string; provisioning_type: number; product_type: number; imei1: string }) {
  const products = await retailer.request<Product[]>('GET', '/api/products');
  const product = products.find((p) => p.product_type === body.product_type)!;
  const plans = await retailer.request<Plan[]>('GET', `/api/plans?product_id=${product.id}`);
  const plan = plans[0]!;
  const today = todayInIndia();
  const { customer } = await retailer.request<{ customer: Profile }>('POST', '/api/customer', {
    first_name: body.first_name, last_name: body.last_name, mobile: '+919812312399', device_brand: body.provisioning_type === 3 ? 'Apple' : 'Samsung',
    device_model: body.provisioning_type === 3 ? 'iPhone 15' : 'Galaxy A15', imei1: body.imei1, provisioning_type: body.provisioning_type,
    product_id: product.id, plan_id: plan.id, price_paise: 1_500_000, down_payment_paise: 300_000, annual_rate_bps: 0, interest_method: 'flat',
    tenure_months: 6, start_date: today, first_due_date: addDays(today, 30),
  });
  return { customer, plan };
}

test('SIM 1 for slot 0, one PIN change, the server toast, years left, and Apple details for an iPhone', async ({ page, request }) => {
  test.setTimeout(120_000);
  const retailer = new RetailerApi(BASE_URL);
  await retailer.signIn();
  const signedIn = { done: false };

  // An Android customer whose phone reports two SIMs, in protocol slots 0 and 1.
  const imei = randomImei();
  const { customer, plan } = await addCustomer(retailer, { first_name: 'Kavya', last_name: 'Rao', provisioning_type: 0, product_type: 0, imei1: imei });
  const agent = new DeviceAgent({ store: new MemoryStore() });
  await agent.enrol(parseEnrolmentPayload(await retailer.qrPayload(customer.id)), { imei1: imei }, [
    { slot: 0, operator: 'Jio', iccid: '8991000000000000101' },
    { slot: 1, operator: 'Airtel', iccid: '8991000000000000102' },
  ]);
  agent.start();
  try {
    await visit(page, request, `/customer-details/${customer.id}`, signedIn);
    await expect(page.getByRole('heading', { name: 'Kavya Rao' })).toBeVisible();

    // SIMs are numbered as people count them: slot 0 is SIM 1, slot 1 is SIM 2, and there is no SIM 3.
    const sims = fact(page, en('device.sims'));
    await expect(sims.getByText(`${en('device.simSlot', { slot: '1' })} · Jio`)).toBeVisible();
    await expect(sims.getByText(`${en('device.simSlot', { slot: '2' })} · Airtel`)).toBeVisible();
    await expect(page.getByText(en('device.simSlot', { slot: '3' }))).toHaveCount(0);

    // The PIN change is offered once, not in both groups.
    await expect(page.getByRole('button', { name: en('device.action.pin_change') })).toHaveCount(1);

    // Years left of the customer's plan, as the spec defines it: the plan's days still to run, in whole years.
    expect(plan.validity_days).toBeGreaterThan(0);
    const used = Math.floor((Date.now() - Date.parse(customer.created_at)) / 86_400_000);
    const years = yearsLeft(plan.validity_days! - used);
    await expect(fact(page, en('customerDetails.yearsLeft'))).toHaveText(String(years));
    await expect(fact(page, en('customerDetails.plan'))).toHaveText(plan.name);

    // The EMI alert's success toast carries the server's words, not the console's own.
    await page.getByRole('group', { name: en('device.infoActions') }).getByRole('button', { name: en('device.action.emi_alert') }).click();
    const dialog = page.getByRole('dialog', { name: en('device.action.emi_alert') });
    await dialog.getByRole('button', { name: en('device.send') }).click();
    await expect(page.getByRole('status').filter({ hasText: en('messages.ALERT_QUEUED') })).toBeVisible();
    await expect(page.getByText(en('emiAlert.sent'), { exact: true })).toHaveCount(0);

    // An offline code opens in the bottom drawer (height 200), with Cancel and Copy.
    await page.getByRole('button', { name: en('device.codes.unlock') }).click();
    const drawer = page.getByRole('dialog', { name: en('device.codes.unlock') });
    await expect(drawer.getByRole('button', { name: en('device.code.copy') })).toBeVisible();
    const box = (await drawer.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(200);
    expect(Math.round(box.y + box.height)).toBe(page.viewportSize()!.height);
    await drawer.getByRole('button', { name: en('common.cancel') }).click();
    await expect(drawer).toBeHidden();
  } finally {
    await agent.stop();
  }

  // An iPhone customer: customer details leads to Apple details, and so does the device panel (no EMM QR).
  const apple = await addCustomer(retailer, { first_name: 'Ishaan', last_name: 'Mehta', provisioning_type: 3, product_type: 2, imei1: randomImei() });
  await visit(page, request, `/customer-details/${apple.customer.id}`, signedIn);
  await expect(page.getByRole('heading', { name: 'Ishaan Mehta' })).toBeVisible();
  await expect(page.getByRole('link', { name: en('device.showEmmQr') })).toHaveCount(0);
  const appleLinks = page.getByRole('link', { name: en('apple.details.title') });
  await expect(appleLinks.first()).toBeVisible();
  await appleLinks.first().click();
  await expect(page).toHaveURL(new RegExp(`/apple-details\\?customer_id=${apple.customer.id}$`));
  await expect(page.getByRole('heading', { name: en('apple.details.title') })).toBeVisible();

  // Help names the company, its parent company and the AI assistant (the app organisation's, id 23).
  await visit(page, request, '/help', signedIn);
  await expect(fact(page, en('help.about.parentCompany'))).toHaveText('One Touch Group');
  await expect(fact(page, en('help.about.assistant'))).toHaveText('Saathi');
});
