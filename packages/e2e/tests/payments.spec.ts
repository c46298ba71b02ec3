/**
 * Payments end to end. Through the gateway (a local fake of Razorpay's documented API the journeys start, which the
 * test server's adapter is pointed at): a phone the dues policy locked is paid from its own lock screen and unlocks
 * by itself; a retailer buys keys. To the retailer's own UPI ID: the retailer opens Payment QR, uploads its shop's UPI QR and sees the
 * UPI ID the server read from it; a customer's "I paid" from the locked phone (POST /api/device/payment_claim with
 * the phone's own credentials) reaches the open payments screen by itself (server events), the retailer confirms
 * it with the claimed amount prefilled, and the receipt of the recorded payment opens from the confirmed claim.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import QRCode from 'qrcode';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { DeviceAgent } from '@kisht/agent/agent';
import { MemoryStore } from '@kisht/agent/store';
import { startScreen } from '@kisht/agent/screen/screen-server';
import { basicAuth, enrolDevice } from '@kisht/agent/device-api';
import { parseEnrolmentPayload } from '@kisht/agent/enrolment-payload';
import { RetailerApi, randomImei } from '@kisht/agent/retailer-api';
import { APP_SECRET, BASE_URL, GATEWAY_PORT } from '../playwright.config.ts';
import { createHeldPayment, runOperator, setPaymentGateway, startLocalGateway } from './console-screens.ts';
import { en, passMpin, signInWithOtp } from './fixtures.ts';

const RAVI = '9876543210';
/** The demo organisation (Ravi's). */
const ORG = '23';

/** Signs in, then opens a console address as a reload would (the console asks for the MPIN again). */
async function openAt(page: Page, request: APIRequestContext, path: string) {
  await signInWithOtp(page, request, RAVI);
  await passMpin(page);
  await page.goto(path);
  await passMpin(page);
}

async function openFromMenu(page: Page, label: string) {
  await page.getByRole('button', { name: en('nav.openMenu') }).click();
  await page.getByRole('dialog').getByRole('link', { name: label }).click();
}

/** A customer of Ravi's with an instalment overdue, whose phone enrolled: returns its id and the phone's credentials. */
async function enrolledCustomer(retailer: RetailerApi, first: string, last: string) {
  const imei = randomImei();
  const products = await retailer.request<Array<{ id: number; product_type: number }>>('GET', '/api/products');
  const today = todayInIndia();
  const { customer } = await retailer.request<{ customer: { id: number } }>('POST', '/api/customer', {
    first_name: first, last_name: last, mobile: '+919812377001', device_brand: 'Xiaomi', device_model: 'Redmi 13C', imei1: imei,
    provisioning_type: 0, product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 1_500_000, down_payment_paise: 300_000,
    annual_rate_bps: 0, interest_method: 'flat', tenure_months: 6, start_date: addDays(today, -60), first_due_date: addDays(today, -30),
  });
  const target = parseEnrolmentPayload(await retailer.qrPayload(customer.id));
  const phone = await enrolDevice(target.server, { token: target.token, imei1: imei });
  return { customerId: customer.id, authorization: basicAuth(phone.mqtt.username, phone.mqtt.password) };
}

test('the retailer shows its UPI QR, and confirms a customer\'s "I paid" claim, whose receipt then opens', async ({ page, request }) => {
  test.setTimeout(120_000);
  await signInWithOtp(page, request, RAVI);
  await passMpin(page);

  // Payment QR: upload the shop's UPI QR; the server reads the UPI ID and name from it.
  await openFromMenu(page, en('nav.paymentQr'));
  await expect(page.getByRole('heading', { name: en('paymentQr.title'), level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: en('paymentQr.noticeTitle') })).toBeVisible();
  const qr = await QRCode.toBuffer('upi://pay?pa=ravi.counter@okaxis&pn=Ravi%20Mobiles%20Counter&cu=INR', { type: 'png', width: 480, margin: 4 });
  await page.getByRole('group', { name: en('paymentQr.pick') }).locator('input[type=file]:not([capture])').setInputFiles({ name: 'upi-qr.png', mimeType: 'image/png', buffer: qr });
  await page.getByRole('button', { name: en('documents.upload') }).click();
  await expect(page.getByText('ravi.counter@okaxis', { exact: true })).toBeVisible();
  await expect(page.getByText('Ravi Mobiles Counter', { exact: true })).toBeVisible();
  await expect(page.getByRole('img', { name: en('paymentQr.imageLabel') })).toBeVisible();
  await expect(page.getByRole('button', { name: en('paymentQr.print') })).toBeEnabled();

  // The payments screen, with the organisation's gateway switch off (the default): claims only.
  await openFromMenu(page, en('nav.paymentGateway'));
  await expect(page.getByRole('heading', { name: en('gateway.title'), level: 1 })).toBeVisible();
  await expect(page.getByText(en('gateway.off'))).toBeVisible();
  await expect(page.getByRole('heading', { name: en('gateway.buy.title') })).toHaveCount(0);

  // The customer taps "I paid" on the locked phone, with the amount and the UTR its UPI app showed.
  const retailer = new RetailerApi(BASE_URL);
  await retailer.signIn(`+91${RAVI}`);
  const { customerId, authorization } = await enrolledCustomer(retailer, 'Lakshmi', 'Narayanan');
  const claimed = await fetch(`${BASE_URL}/api/device/payment_claim`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify({ amount_paise: 150_000, reference: 'UTR4455667788' }),
  });
  expect(claimed.status, await claimed.clone().text()).toBe(200);

  // The claim shows up by itself (the server's payment_claim event), with Confirm prefilled with what was claimed.
  const name = 'Lakshmi Narayanan';
  await page.getByRole('button', { name: `${en('gateway.claims.confirm')}: ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: en('gateway.claims.confirmTitle', { name }) });
  await expect(dialog.getByLabel(en('gateway.claims.amountLabel'))).toHaveValue('1500');
  await dialog.getByRole('button', { name: en('gateway.claims.confirm') }).click();
  await expect(dialog).toBeHidden();

  // Confirmed: it leaves the open claims and its receipt opens on the customer's EMI screen.
  await expect(page.getByRole('button', { name: `${en('gateway.claims.confirm')}: ${name}` })).toHaveCount(0);
  const receiptLink = page.getByRole('link', { name: /^Receipt / });
  await receiptLink.click();
  await expect(page).toHaveURL(new RegExp(`/view-emi-details/${customerId}\\?`));
  const receipt = page.getByRole('dialog', { name: en('receipt.title'), exact: true });
  await expect(receipt).toBeVisible();
  // The amount claimed, allocated to the overdue instalment, paid by UPI with the customer's UTR.
  await expect(receipt.getByRole('cell', { name: '₹1,500', exact: true })).toBeVisible();
  await expect(receipt.getByText(name, { exact: false })).toBeVisible();
  await expect(receipt.getByText(en('paymentMethod.upi'), { exact: true })).toBeVisible();
  await expect(receipt.getByText('UTR4455667788', { exact: false })).toBeVisible();
});

test('a phone locked for a missed EMI is paid from its lock screen through the gateway, and unlocks by itself', async ({ page, context, request }) => {
  test.setTimeout(180_000);
  const gateway = await startLocalGateway(BASE_URL, GATEWAY_PORT);
  const retailer = new RetailerApi(BASE_URL, 'pay-now journey');
  await retailer.signIn(`+91${RAVI}`);
  const imei = randomImei();
  const products = await retailer.request<Array<{ id: number; product_type: number }>>('GET', '/api/products');
  const today = todayInIndia();
  // Rs 12,000 over 6 months from two months ago: the first instalment was missed a month ago.
  const { customer } = await retailer.request<{ customer: { id: number } }>('POST', '/api/customer', {
    first_name: 'Meenakshi', last_name: 'Sundaramoorthy', mobile: '+919812377002', device_brand: 'Vivo', device_model: 'Y28s', imei1: imei,
    provisioning_type: 0, product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 1_500_000, down_payment_paise: 300_000,
    annual_rate_bps: 0, interest_method: 'flat', tenure_months: 6, start_date: addDays(today, -60), first_due_date: addDays(today, -30),
  });
  const agent = new DeviceAgent({ store: new MemoryStore() });
  const screen = await startScreen(agent, { port: 0, host: '127.0.0.1' });
  const phone = await context.newPage();
  try {
    await agent.enrol(parseEnrolmentPayload(await retailer.qrPayload(customer.id)), { imei1: imei }, [{ slot: 0, operator: 'Airtel', iccid: '8991000000000000201' }]);
    agent.start();
    await phone.goto(screen.url);
    await expect(phone.getByRole('heading', { name: en('phone.home.heading') })).toBeVisible();

    // The organisation takes payments through the gateway, locks phones 7 days past due and unlocks them when paid.
    await setPaymentGateway(BASE_URL, APP_SECRET, true);
    await runOperator(BASE_URL, APP_SECRET, ['device-policy', ORG, 'auto_lock_days_overdue=7', 'auto_unlock_when_paid=on']);
    // Today's dues run again with the new threshold: the missed instalment locks the phone (the device sweep acts on it).
    await runOperator(BASE_URL, APP_SECRET, ['dues', ORG, today]);
    await expect(phone.getByRole('heading', { name: en('phone.lock.heading') })).toBeVisible({ timeout: 30_000 });

    // The retailer has the customer's EMI screen open; nothing is paid yet, and the customer details say Locked.
    await openAt(page, request, `/customer-details/${customer.id}`);
    await expect(page.getByRole('heading', { name: 'Meenakshi Sundaramoorthy' })).toBeVisible();
    await expect(page.getByText(en('lockStatus.locked'), { exact: true }).first()).toBeVisible();
    let loads = 0;
    page.on('load', () => loads++);

    // On the phone: Pay now opens the gateway's order for what is owed now.
    await phone.getByRole('button', { name: en('phone.pay.payNow') }).click();
    const paymentPage = phone.getByRole('link', { name: en('phone.pay.openPaymentPage') });
    await expect(paymentPage).toBeVisible();
    // One payment link at the gateway, for this order; the phone links to the gateway's own page for it.
    const opened = [...gateway.links.values()];
    expect(opened).toHaveLength(1);
    expect(await paymentPage.getAttribute('href')).toBe(opened[0]!.short_url);
    const amount = formatRupees(opened[0]!.amount);

    // The customer pays in a UPI app; the gateway sends its signed webhooks, which we answer at once.
    const { statuses } = await gateway.pay(opened[0]!.reference_id);
    expect(statuses.every((s) => s >= 200 && s < 300)).toBe(true);

    // With no click by anyone: the phone unlocks, and the open console screen says Unlocked.
    await expect(phone.getByRole('heading', { name: en('phone.home.heading') })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(en('lockStatus.unlocked'), { exact: true }).first()).toBeVisible({ timeout: 15_000 });
    expect(loads).toBe(0);

    // The payment is on the EMI screen, with its receipt: the amount paid, by UPI, the gateway's payment id.
    await page.getByRole('link', { name: en('customerDetails.viewEmis') }).click();
    const paid = page.getByRole('region', { name: en('payments.title') }).getByRole('button').filter({ hasText: amount });
    await expect(paid).toHaveCount(1);
    await paid.click();
    const receipt = page.getByRole('dialog', { name: en('receipt.title'), exact: true });
    await expect(receipt).toBeVisible();
    await expect(receipt.getByText(en('paymentMethod.upi'), { exact: true })).toBeVisible();
    await expect(receipt.getByText('Meenakshi Sundaramoorthy', { exact: false })).toBeVisible();
    await expect(receipt.getByText(en('receipt.outstandingAfter'))).toBeVisible();
  } finally {
    await runOperator(BASE_URL, APP_SECRET, ['device-policy', ORG, 'auto_lock_days_overdue=0', 'auto_unlock_when_paid=off']).catch(() => undefined);
    await setPaymentGateway(BASE_URL, APP_SECRET, false).catch(() => undefined);
    await phone.close();
    await screen.close();
    await agent.stop();
    await gateway.close();
    await retailer.signOut();
  }
});

test('a retailer buys 10 keys through the gateway; they show once in its stock and in its key history', async ({ page, request }) => {
  test.setTimeout(120_000);
  const gateway = await startLocalGateway(BASE_URL, GATEWAY_PORT);
  const retailer = new RetailerApi(BASE_URL, 'buy-keys journey');
  await retailer.signIn(`+91${RAVI}`);
  const stock = async () => (await retailer.request<Array<{ product_type: number; name: string; balance: number }>>('GET', '/api/points/balance_types'));
  const [android] = (await stock()).filter((b) => b.product_type === 0);
  // The switch is read when the console loads, so it goes on before signing in.
  await setPaymentGateway(BASE_URL, APP_SECRET, true);
  try {
    await signInWithOtp(page, request, RAVI);
    await passMpin(page);
    await openFromMenu(page, en('nav.paymentGateway'));
    const buy = page.getByRole('region', { name: en('gateway.buy.title') });
    await buy.getByLabel(en('gateway.buy.product')).selectOption({ label: android!.name });
    await buy.getByLabel(en('gateway.buy.quantity')).fill('10');
    await buy.getByRole('button', { name: en('gateway.buy.validate') }).click();
    // At the top of the network the operator sells, at the organisation's list price.
    const quote = buy.getByRole('status');
    await expect(quote).toContainText(en('gateway.buy.total', { amount: '' }).trim());
    const total = /₹[\d,]+(\.\d\d)?/.exec((await quote.locator('.buy-keys__total').innerText()))![0];
    await buy.getByRole('button', { name: en('gateway.buy.pay', { amount: total }) }).click();

    // The order's QR and the gateway's page; nothing is credited before the money arrives.
    const dialog = page.getByRole('dialog', { name: en('gateway.buy.orderTitle') });
    await expect(dialog.getByText(en('gateway.status.pending'), { exact: true })).toBeVisible();
    await expect(dialog.getByRole('link', { name: en('gateway.qr.openPage') })).toHaveAttribute('href', /^https:\/\/rzp\.io\//);
    expect((await stock()).find((b) => b.product_type === 0)!.balance).toBe(android!.balance);
    const links = [...gateway.links.values()];
    expect(links).toHaveLength(1);
    const { statuses } = await gateway.pay(links[0]!.reference_id);
    expect(statuses.every((s) => s >= 200 && s < 300)).toBe(true);

    // Paid: the open dialog says so by itself; the stock goes up by ten, once.
    await expect(dialog.getByText(en('gateway.status.paid'), { exact: true })).toBeVisible({ timeout: 15_000 });
    await dialog.getByRole('button', { name: en('common.close') }).first().click();
    await expect.poll(async () => (await stock()).find((b) => b.product_type === 0)!.balance).toBe(android!.balance + 10);
    // The webhooks again (a gateway retries): still ten.
    for (const { body, headers } of gateway.sent) {
      expect((await fetch(`${BASE_URL}/api/payments/webhook/razorpay`, { method: 'POST', headers, body })).status).toBeLessThan(300);
    }
    await openFromMenu(page, en('nav.keyHistory'));
    const bought = page.getByRole('listitem').filter({ hasText: '+10' }).filter({ hasText: en('network.history.price', { amount: formatRupees(links[0]!.amount / 10) }) });
    await expect(bought).toHaveCount(1);
    await openFromMenu(page, en('nav.dashboard'));
    await expect(page.getByRole('region', { name: en('network.stock.title') }).getByRole('listitem').filter({ hasText: android!.name })).toContainText(String(android!.balance + 10));
    expect((await stock()).find((b) => b.product_type === 0)!.balance).toBe(android!.balance + 10);
  } finally {
    await setPaymentGateway(BASE_URL, APP_SECRET, false).catch(() => undefined);
    await gateway.close();
    await retailer.signOut();
  }
});

test('a gateway payment of another amount is held; the retailer records what arrived, once, and its receipt opens', async ({ page, request }) => {
  test.setTimeout(120_000);
  const retailer = new RetailerApi(BASE_URL, 'held payment journey');
  await retailer.signIn(`+91${RAVI}`);
  const { customerId } = await enrolledCustomer(retailer, 'Harpreet', 'Kaur Dhillon');
  await createHeldPayment(BASE_URL, APP_SECRET, GATEWAY_PORT, customerId, RAVI);
  const [held] = (await retailer.request<{ items: Array<{ id: string; status: string; customer_id: number | null; received_paise: number | null }> }>('GET', '/api/payments/orders?status=held')).items.filter((o) => o.customer_id === customerId);
  expect(held).toMatchObject({ status: 'held' });
  const received = held!.received_paise!;

  await signInWithOtp(page, request, RAVI);
  await passMpin(page);
  await openFromMenu(page, en('nav.paymentGateway'));
  const name = 'Harpreet Kaur Dhillon';
  const section = page.getByRole('region', { name: en('gateway.held.title') });
  await expect(section.getByText(en('gateway.held.reason.AMOUNT_MISMATCH'))).toBeVisible();
  await section.getByRole('button', { name: `${en('gateway.held.record')}: ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: en('gateway.held.recordTitle', { name }) });
  // Prefilled with what the gateway says reached the account.
  await expect(dialog.getByLabel(en('gateway.claims.amountLabel'))).toHaveValue(String(received / 100));
  await dialog.getByRole('button', { name: en('gateway.held.record') }).click();
  await expect(dialog).toBeHidden();
  await expect(section.getByRole('button', { name: `${en('gateway.held.record')}: ${name}` })).toHaveCount(0);

  // Recorded once through the ledger: one payment of what arrived, with its receipt.
  const payments = await retailer.request<Array<{ amount_paise: number; receipt_no: string }>>('GET', `/api/emi/payments?customer_id=${customerId}`);
  expect(payments.map((p) => p.amount_paise)).toEqual([received]);
  // Its receipt, on the customer's EMI screen.
  await page.goto(`/view-emi-details/${customerId}`);
  await passMpin(page);
  await page.getByRole('region', { name: en('payments.title') }).getByRole('button').filter({ hasText: payments[0]!.receipt_no }).click();
  const receipt = page.getByRole('dialog', { name: en('receipt.title'), exact: true });
  await expect(receipt.getByRole('cell', { name: formatRupees(received), exact: true })).toBeVisible();
  await expect(receipt.getByText(name, { exact: false })).toBeVisible();
  // A second decision, from another screen or a double tap: refused, nothing more recorded.
  await expect(retailer.request('POST', '/api/payments/orders/resolve', { id: held!.id, action: 'record', amount_paise: received })).rejects.toMatchObject({ status: 409, code: 'ORDER_NOT_HELD' });
  await retailer.signOut();
});
