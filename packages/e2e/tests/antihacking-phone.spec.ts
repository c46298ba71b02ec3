/**
 * Anti-hacking on the phone: a plan sold to a buyer's mobile is activated from the virtual phone's security app,
 * in Chromium, once. A mistyped code is refused on the phone itself, a wrong mobile by the server, and a second
 * phone with the same code is told it is in use; the retailer's record says activated, with the phone's answer.
 */
import { expect, test } from '@playwright/test';
import { addDays } from '@kisht/domain/calendar';
import { formatActivationCode } from '@kisht/domain/activation-code';
import { formatDate, todayInIndia } from '@kisht/domain/format';
import { DeviceAgent } from '@kisht/agent/agent';
import { MemoryStore } from '@kisht/agent/store';
import { startScreen } from '@kisht/agent/screen/screen-server';
import { parseEnrolmentPayload } from '@kisht/agent/enrolment-payload';
import { RetailerApi, randomImei } from '@kisht/agent/retailer-api';
import { BASE_URL } from '../playwright.config.ts';
import { en } from './fixtures.ts';

/** A financed customer of Ravi's whose phone enrols: the phone that also gets the anti-hacking app. */
async function enrolledPhone(retailer: RetailerApi, last: string) {
  const imei = randomImei();
  const products = await retailer.request<Array<{ id: number; product_type: number }>>('GET', '/api/products');
  const today = todayInIndia();
  const { customer } = await retailer.request<{ customer: { id: number } }>('POST', '/api/customer', {
    first_name: 'Parvathi', last_name: last, mobile: '+919812377501', device_brand: 'Samsung', device_model: 'Galaxy M15', imei1: imei,
    provisioning_type: 0, product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 1_200_000, down_payment_paise: 200_000,
    annual_rate_bps: 0, interest_method: 'flat', tenure_months: 6, start_date: today, first_due_date: addDays(today, 30),
  });
  const agent = new DeviceAgent({ store: new MemoryStore() });
  await agent.enrol(parseEnrolmentPayload(await retailer.qrPayload(customer.id)), { imei1: imei });
  agent.start();
  const screen = await startScreen(agent, { port: 0, host: '127.0.0.1' });
  return { agent, screen };
}

test('the security app on the virtual phone activates the shop\'s code once; a typo, a wrong mobile and a second phone are refused', async ({ context }) => {
  test.setTimeout(120_000);
  const retailer = new RetailerApi(BASE_URL, 'anti-hacking phone journey');
  await retailer.signIn('+919876543210');
  const plans = await retailer.request<Array<{ id: number; name: string; app_type: number }>>('GET', '/api/customer/get_plans_antihacking');
  const plan = plans.find((p) => p.app_type === 8)!;
  const [sale] = await retailer.request<Array<{ id: number; antihacking_code: string; expires_at: string }>>('POST', '/api/customer/add_customer_antihacking', {
    firstName: 'Parvathi', lastName: 'Subramaniam', mobile: '+919845077001', plan_id: plan.id, app_type: plan.app_type, plan_name: plan.name,
  });
  const code = formatActivationCode(sale!.antihacking_code);

  const first = await enrolledPhone(retailer, 'Subramaniam');
  const second = await enrolledPhone(retailer, 'Venkataraman');
  const phone = await context.newPage();
  const other = await context.newPage();
  try {
    await phone.goto(first.screen.url);
    const app = phone.getByRole('region', { name: en('phone.protection.heading') });
    await expect(app.getByText(en('phone.protection.none'))).toBeVisible();

    // One digit wrong: the phone's own check refuses it; nothing reaches the server.
    const typo = `${code.slice(0, 3)}${(Number(code[3]) + 1) % 10}${code.slice(4)}`;
    await app.getByLabel(en('phone.protection.codeLabel')).fill(typo);
    await app.getByLabel(en('phone.protection.mobileLabel')).fill('9845077001');
    await app.getByRole('button', { name: en('phone.protection.activate') }).click();
    await expect(app.getByRole('alert')).toHaveText(en('phone.protection.problem.badCode'));

    // The right code for another number: the server does not match it.
    await app.getByLabel(en('phone.protection.codeLabel')).fill(code);
    await app.getByLabel(en('phone.protection.mobileLabel')).fill('9845077002');
    await app.getByRole('button', { name: en('phone.protection.activate') }).click();
    await expect(app.getByRole('alert')).toHaveText(en('phone.protection.problem.unknown'));

    await app.getByLabel(en('phone.protection.codeLabel')).fill(code);
    await app.getByLabel(en('phone.protection.mobileLabel')).fill('9845077001');
    await app.getByRole('button', { name: en('phone.protection.activate') }).click();
    await expect(app.getByRole('status')).toContainText(en('phone.protection.active', { plan: plan.name }));
    await expect(app.getByRole('status')).toContainText(en('phone.protection.until', { date: formatDate(sale!.expires_at) }));
    await expect(app.getByRole('button', { name: en('phone.protection.activate') })).toBeHidden();

    // The same code on a second phone is in use.
    await other.goto(second.screen.url);
    const otherApp = other.getByRole('region', { name: en('phone.protection.heading') });
    await otherApp.getByLabel(en('phone.protection.codeLabel')).fill(sale!.antihacking_code);
    await otherApp.getByLabel(en('phone.protection.mobileLabel')).fill('+919845077001');
    await otherApp.getByRole('button', { name: en('phone.protection.activate') }).click();
    await expect(otherApp.getByRole('alert')).toHaveText(en('phone.protection.problem.used'));

    // The retailer's record: activated, still showing its code.
    const read = await retailer.request<{ state: string; antihacking_code: string | null; activated_at: string | null }>('GET', `/api/customer/antihacking/readById?sale_id=${sale!.id}`);
    expect(read).toMatchObject({ state: 'activated', antihacking_code: sale!.antihacking_code });
    expect(read.activated_at).not.toBeNull();

    // Revoked by the shop: the phone's next daily check switches its protection off.
    await retailer.request('POST', '/api/customer/antihacking/revoke', { sale_id: sale!.id, reason: 'Refunded at the counter' });
    await first.agent.checkProtection();
    await expect(app.getByTestId('protection-off')).toHaveText(en('phone.protection.revoked', { plan: plan.name }));
    await expect(app.getByRole('button', { name: en('phone.protection.activate') })).toBeVisible();
  } finally {
    for (const p of [first, second]) {
      await p.screen.close();
      await p.agent.stop();
    }
  }
});
