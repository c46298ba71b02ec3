/**
 * Anti-theft end to end (decision 022): a phone sold with the EMI locker and anti-theft is enrolled; the retailer
 * sets, on customer details, that a SIM change turns lost mode on with the owner's message; the SIM is swapped on
 * the virtual phone; the console shows the SIM change with its SMS alert and lost mode, without a reload, and the
 * phone shows the lost-mode screen with the owner's message and number, and rings when asked. The owner's
 * alternate number and the retailer find the alert in the development SMS outbox.
 */
import { expect, test, type Page } from '@playwright/test';
import { addDays } from '@kisht/domain/calendar';
import { PRODUCT_TYPE } from '@kisht/domain/constants';
import { formatDate, todayInIndia } from '@kisht/domain/format';
import { DeviceAgent } from '@kisht/agent/agent';
import { MemoryStore } from '@kisht/agent/store';
import { startScreen } from '@kisht/agent/screen/screen-server';
import { parseEnrolmentPayload } from '@kisht/agent/enrolment-payload';
import { RetailerApi, randomImei } from '@kisht/agent/retailer-api';
import { APP_SECRET, BASE_URL } from '../playwright.config.ts';
import { RETAILER, runOperator } from './console-screens.ts';
import { en, signInWithOtp, passMpin } from './fixtures.ts';

const phoneText = (key: string, vars?: Record<string, string>) => en(`phone.${key}`, vars);
const OWNER_ALT = '+919700044455';
const MESSAGE = 'This phone belongs to Lakshmi Narayanan. Please call to return it, reward offered.';

async function outboxTo(page: Page, mobile: string): Promise<string[]> {
  const res = await page.request.get(`${BASE_URL}/api/dev/outbox?to=${encodeURIComponent(mobile)}&limit=5`);
  return ((await res.json()) as { data: Array<{ body: string }> }).data.map((m) => m.body);
}

test('a SIM swap on an anti-theft phone alerts the owner and the shop, and turns lost mode on with the owner\'s message', async ({ page, context, request }) => {
  test.setTimeout(120_000);
  // Not the demo retailer whose first sign-in (setting the MPIN) another journey walks through: the layout test's.
  await runOperator(BASE_URL, APP_SECRET, ['keys', `+91${RETAILER}`, String(PRODUCT_TYPE.DPC_ANTITHEFT), '2']); // the phone's and a renewal
  const retailer = new RetailerApi(BASE_URL);
  await retailer.signIn(`+91${RETAILER}`);
  const imei = randomImei();
  const products = await retailer.request<Array<{ id: number; product_type: number }>>('GET', '/api/products');
  const today = todayInIndia();
  const { customer } = await retailer.request<{ customer: { id: number } }>('POST', '/api/customer', {
    first_name: 'Lakshmi', last_name: 'Narayanan', mobile: '+919812377001', alt_mobile: OWNER_ALT, device_brand: 'Xiaomi', device_model: 'Redmi Note 14 Pro',
    imei1: imei, provisioning_type: 0, product_id: products.find((p) => p.product_type === PRODUCT_TYPE.DPC_ANTITHEFT)!.id, price_paise: 2_499_900,
    down_payment_paise: 500_000, annual_rate_bps: 0, interest_method: 'flat', tenure_months: 6, start_date: today, first_due_date: addDays(today, 30),
  });
  const qr = await retailer.request<{ qr_payload: string }>('GET', `/api/customer/generate_emm_code?customer_id=${customer.id}`);
  const agent = new DeviceAgent({ store: new MemoryStore() });
  await agent.enrol(parseEnrolmentPayload(qr.qr_payload), { imei1: imei }, [{ slot: 0, operator: 'Jio', iccid: '8991000000000000001' }]);
  agent.start();
  const screen = await startScreen(agent, { port: 0, host: '127.0.0.1' });
  const phone = await context.newPage();
  try {
    await signInWithOtp(page, request, RETAILER);
    await passMpin(page);
    await page.goto(`/customer-details/${customer.id}`);
    await passMpin(page);
    const section = page.getByRole('region', { name: en('antitheft.title') });
    await expect(section).toBeVisible();
    await expect(section.getByText(en('antitheft.alertsTo', { mobiles: `${OWNER_ALT}, +91${RETAILER}` }))).toBeVisible();
    await expect(section.getByText(en('antitheft.lost.step4', { imei }))).toBeVisible();

    // A number that is not a mobile is refused on the field; then the owner's choice is saved.
    await section.getByLabel(en('antitheft.lostOnSimChange')).check();
    await section.getByLabel(en('antitheft.message')).fill(MESSAGE);
    await section.getByLabel(en('antitheft.contact')).fill('12345');
    await section.getByRole('button', { name: en('antitheft.save') }).click();
    await expect(section.getByText(en('errors.INVALID_MOBILE'))).toBeVisible();
    await section.getByLabel(en('antitheft.contact')).fill('9700044455');
    await section.getByRole('button', { name: en('antitheft.save') }).click();
    await expect(page.getByText(en('messages.ANTITHEFT_SAVED'))).toBeVisible();
    await expect(section.getByText(en('antitheft.saved', { time: '' }).trim())).toBeVisible();

    // Anti-theft is in force for the plan's year; renewing adds another year with one key, after a question.
    await expect(section.getByText(en('antitheft.coveredUntil', { date: formatDate(addDays(today, 364)) }))).toBeVisible();
    await section.getByRole('button', { name: en('antitheft.renew', { count: '365' }) }).click();
    const renew = page.getByRole('dialog', { name: en('antitheft.renewTitle') });
    await expect(renew.getByText(en('antitheft.renewBody', { count: '365', date: formatDate(addDays(today, 364 + 365)) }))).toBeVisible();
    await renew.getByRole('button', { name: en('antitheft.renewConfirm') }).click();
    await expect(section.getByText(en('antitheft.coveredUntil', { date: formatDate(addDays(today, 364 + 365)) }))).toBeVisible();

    // The SIM is swapped on the phone.
    await phone.goto(screen.url);
    await expect(phone.getByRole('heading', { name: phoneText('home.heading') })).toBeVisible();
    await phone.getByLabel(phoneText('tester.operator')).fill('Airtel');
    await phone.getByLabel(phoneText('tester.iccid')).fill('8991000000000009999');
    await phone.getByRole('button', { name: phoneText('tester.swapSim') }).click();

    // The phone goes into lost mode with the owner's message and number.
    await expect(phone.getByRole('heading', { name: phoneText('lost.heading') })).toBeVisible({ timeout: 30_000 });
    await expect(phone.getByText(MESSAGE)).toBeVisible();
    await expect(phone.getByRole('link', { name: phoneText('lost.call', { phone: '+919700044455' }) })).toBeVisible();

    // The console, still open, shows the SIM change with its alert and lost mode (server events, no reload).
    const changes = page.getByRole('region', { name: en('simChanges.customerTitle') });
    await expect(changes.getByText(en('simChanges.alerted', { mobiles: `${OWNER_ALT}, +91${RETAILER}` }))).toBeVisible();
    await expect(changes.getByText(en('simChanges.lostModeOn'))).toBeVisible();
    await expect(changes.getByText('Airtel')).toBeVisible();

    // Ringing the lost phone from the console sounds its alarm.
    await section.getByRole('button', { name: en('antitheft.ring') }).click();
    await expect(phone.getByRole('alert').filter({ hasText: phoneText('lost.ringing') })).toBeVisible();

    // The anti-theft screen, from the menu, lists the phone as lost.
    await page.getByRole('button', { name: en('nav.openMenu') }).click();
    await page.getByRole('dialog').getByRole('link', { name: en('antitheft.list.title') }).click();
    await expect(page.getByRole('heading', { name: en('antitheft.list.title') })).toBeVisible();
    await page.getByRole('button', { name: en('antitheft.list.filter.lost') }).click();
    const row = page.getByRole('listitem').filter({ hasText: 'Lakshmi Narayanan' });
    await expect(row.getByText(en('antitheft.list.badge.lost'), { exact: true })).toBeVisible();
    await row.getByRole('link', { name: en('antitheft.list.details') }).click();
    await expect(page.getByRole('region', { name: en('antitheft.title') })).toBeVisible();

    // The owner's alternate number and the shop got the SMS, naming the phone and its new SIM.
    await expect.poll(async () => (await outboxTo(page, OWNER_ALT)).length).toBe(1);
    const [sms] = await outboxTo(page, OWNER_ALT);
    expect(sms).toContain(imei);
    expect(sms).toContain('Airtel');
    expect(sms).toContain('Lost mode is on');
    expect((await outboxTo(page, `+91${RETAILER}`)).some((body) => body.includes(imei))).toBe(true);
  } finally {
    await phone.close();
    await screen.close();
    await agent.stop();
  }
});

test('a phone sold anti-theft alone is enrolled from the anti-theft screen, scans its QR, and alerts its owner on a SIM swap', async ({ page, context, request }) => {
  test.setTimeout(120_000);
  await runOperator(BASE_URL, APP_SECRET, ['keys', `+91${RETAILER}`, String(PRODUCT_TYPE.ANTI_THEFT), '1']);
  const imei = randomImei();
  const owner = '+919700066677';
  await signInWithOtp(page, request, RETAILER);
  await passMpin(page);
  await page.getByRole('button', { name: en('nav.openMenu') }).click();
  await page.getByRole('dialog').getByRole('link', { name: en('antitheft.list.title') }).click();
  await page.getByRole('link', { name: en('planPhone.enrolButton') }).click();
  await expect(page.getByRole('heading', { name: en('planPhone.title.antitheft') })).toBeVisible();

  // The form checks before sending: the owner's other number cannot be the phone's own.
  await page.getByLabel(en('addCustomer.firstName')).fill('Meenakshi');
  await page.getByLabel(en('addCustomer.lastName')).fill('Sundaram');
  await page.getByLabel(en('planPhone.phoneNumber')).fill('9812377002');
  await page.getByLabel(en('planPhone.ownerOther')).fill('9812377002');
  await page.getByLabel(en('device.brand')).selectOption('Samsung');
  await page.getByLabel(en('device.model')).fill('Galaxy M35');
  await page.getByLabel(en('device.imei1')).fill(imei);
  await page.getByRole('button', { name: en('planPhone.submit') }).click();
  await expect(page.getByText(en('validation.alt_mobile_same'))).toBeVisible();
  await page.getByLabel(en('planPhone.ownerOther')).fill(owner.slice(3));
  await page.getByRole('button', { name: en('planPhone.submit') }).click();
  await expect(page.getByText(en('messages.CUSTOMER_CREATED'))).toBeVisible();

  // The phone's QR opens next; the phone scans it and enrols.
  await expect(page.getByRole('heading', { name: en('emmQr.title') })).toBeVisible();
  const customerId = Number(new URL(page.url()).searchParams.get('customer_id'));
  await page.getByText(en('emmQr.showText')).click();
  const payload = await page.locator('details pre').innerText();
  const agent = new DeviceAgent({ store: new MemoryStore() });
  await agent.enrol(parseEnrolmentPayload(payload), { imei1: imei }, [{ slot: 0, operator: 'Jio', iccid: '8991000000000000002' }]);
  agent.start();
  const screen = await startScreen(agent, { port: 0, host: '127.0.0.1' });
  const phone = await context.newPage();
  try {
    // Customer details: a plan without a loan (no EMIs to collect), with anti-theft.
    await page.goto(`/customer-details/${customerId}`);
    await passMpin(page);
    await expect(page.getByRole('region', { name: en('planPhone.planOnlyTitle'), exact: true }).getByText(en('planPhone.planOnly'))).toBeVisible();
    await expect(page.getByRole('heading', { name: en('customerDetails.emiSummary') })).toHaveCount(0);
    const section = page.getByRole('region', { name: en('antitheft.title') });
    await expect(section.getByText(en('antitheft.alertsTo', { mobiles: `${owner}, +91${RETAILER}` }))).toBeVisible();

    await phone.goto(screen.url);
    await phone.getByLabel(phoneText('tester.operator')).fill('Vi');
    await phone.getByLabel(phoneText('tester.iccid')).fill('8991000000000008888');
    await phone.getByRole('button', { name: phoneText('tester.swapSim') }).click();
    const changes = page.getByRole('region', { name: en('simChanges.customerTitle') });
    await expect(changes.getByText(en('simChanges.alerted', { mobiles: `${owner}, +91${RETAILER}` }))).toBeVisible({ timeout: 30_000 });
    await expect.poll(async () => (await outboxTo(page, owner)).some((body) => body.includes(imei) && body.includes('Vi'))).toBe(true);
  } finally {
    await phone.close();
    await screen.close();
    await agent.stop();
  }
});
