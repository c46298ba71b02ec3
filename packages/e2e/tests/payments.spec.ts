/**
 * Payments to the retailer's own UPI ID: the retailer opens Payment QR, uploads its shop's UPI QR and sees the
 * UPI ID the server read from it; a customer's "I paid" from the locked phone (POST /api/device/payment_claim with
 * the phone's own credentials) reaches the open payments screen by itself (server events), the retailer confirms
 * it with the claimed amount prefilled, and the receipt of the recorded payment opens from the confirmed claim.
 */
import { expect, test, type Page } from '@playwright/test';
import QRCode from 'qrcode';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { basicAuth, enrolDevice } from '@kisht/agent/device-api';
import { parseEnrolmentPayload } from '@kisht/agent/enrolment-payload';
import { RetailerApi, randomImei } from '@kisht/agent/retailer-api';
import { BASE_URL } from '../playwright.config.ts';
import { en, passMpin, signInWithOtp } from './fixtures.ts';

const RAVI = '9876543210';

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
