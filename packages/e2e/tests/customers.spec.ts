import { expect, test } from '@playwright/test';
import { addPhotoAndSignature, en, imeiFromClock, signInWithOtp, valueAfter as rupeesIn } from './fixtures.ts';

test('a retailer enrols a customer with photo and signature, finds them by IMEI, takes two EMIs at once and opens the receipt', async ({ page, request }) => {
  test.setTimeout(120_000);
  const imei = imeiFromClock();

  await signInWithOtp(page, request, '9876543210');
  await expect(page.getByRole('heading', { name: en('auth.mpin.setTitle') })).toBeVisible();
  await page.getByLabel(en('auth.mpin.newLabel')).fill('2580');
  await page.getByLabel(en('auth.mpin.confirmLabel')).fill('2580');
  await page.getByRole('button', { name: en('auth.mpin.save') }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const collections = page.getByRole('region', { name: en('dashboard.stats.collections', { days: '30' }) });
  const collectedBefore = await collections.locator('strong').first().innerText();

  // Enrol: customer, device, loan with its live schedule, photo and signature.
  await page.getByRole('button', { name: en('nav.openMenu') }).click();
  await page.getByRole('navigation', { name: en('nav.menu') }).getByRole('link', { name: en('nav.addCustomer') }).click();
  await expect(page.getByRole('heading', { name: en('addCustomer.title') })).toBeVisible();
  await page.getByRole('button', { name: en('common.next') }).click();
  await expect(page.getByText(en('common.required')).first()).toBeVisible();
  await page.getByLabel(en('addCustomer.firstName')).fill('Kavya');
  await page.getByLabel(en('addCustomer.lastName')).fill('Journey');
  await page.getByLabel(en('addCustomer.mobile'), { exact: true }).fill('9123412345');
  await page.getByRole('button', { name: en('common.next') }).click();

  await page.getByLabel(en('device.brand')).selectOption({ label: 'Samsung' });
  await page.getByLabel(en('device.model')).fill('Galaxy A15');
  await page.getByLabel(en('device.imei1')).fill(imei);
  await page.getByLabel(en('device.provisioning')).selectOption('0');
  await page.getByRole('button', { name: en('common.next') }).click();

  await page.getByLabel(en('addCustomer.product'), { exact: true }).selectOption({ index: 1 });
  await page.getByLabel(en('loan.price'), { exact: true }).fill('15000');
  await page.getByLabel(en('loan.downPayment')).fill('3000');
  await page.getByLabel(en('addCustomer.ratePerYear')).fill('0');
  await page.getByLabel(en('addCustomer.tenureMonths')).fill('6');
  // 12,000 financed at 0% over 6 months: the live schedule shows Rs 2,000 x 6.
  await expect.poll(() => rupeesIn(page, en('addCustomer.preview.title'), en('loan.emi'))).toBe('₹2,000');
  await expect(page.getByText(en('addCustomer.preview.instalments', { count: '6' }))).toBeVisible();
  await page.getByRole('button', { name: en('common.next') }).click();

  await addPhotoAndSignature(page);
  await page.getByRole('button', { name: en('addCustomer.submit') }).click();
  await expect(page).toHaveURL(/\/customer-(details|documents)\/\d+/, { timeout: 20_000 });
  // The server's words (spec section 8), shown once the photo and signature are uploaded as well.
  await expect(page.getByRole('status').filter({ hasText: en('messages.CUSTOMER_CREATED') })).toBeVisible();
  const customerId = /\/(\d+)$/.exec(new URL(page.url()).pathname)![1]!;

  await page.getByRole('button', { name: en('nav.openMenu') }).click();
  await page.getByRole('navigation', { name: en('nav.menu') }).getByRole('link', { name: en('nav.customers') }).click();

  // Find the customer by IMEI; an inactive customer opens customer navigate.
  await page.getByLabel(en('customers.searchLabel')).fill(imei);
  await expect(page.getByText(en('customers.total', { count: '1' }))).toBeVisible();
  await page.getByRole('button', { name: /Kavya Journey/ }).click();
  await expect(page).toHaveURL(new RegExp(`/customer-navigate\\?customer_id=${customerId}`));
  await page.getByRole('link', { name: en('customerNavigate.details') }).click();
  await expect(page.getByRole('heading', { name: 'Kavya Journey' })).toBeVisible();
  await expect(page.getByRole('img', { name: en('customerDetails.photoOf', { name: 'Kavya Journey' }) })).toBeVisible();

  // Take the first two EMIs at once.
  await page.getByRole('link', { name: en('customerDetails.viewEmis') }).click();
  const totals = en('emi.totals');
  expect(await rupeesIn(page, totals, en('emi.outstanding'))).toBe('₹12,000');
  await page.getByRole('checkbox', { name: en('emi.selectOne', { number: '1' }) }).check();
  await page.getByRole('checkbox', { name: en('emi.selectOne', { number: '2' }) }).check();
  await page.getByRole('button', { name: en('emi.paySelected') }).click();
  await page.getByLabel(en('emi.pay.method')).selectOption('upi');
  await page.getByLabel(en('emi.pay.reference')).fill('UTR998877');
  await page.getByRole('button', { name: en('emi.pay.confirm') }).click();

  // The receipt: both instalments, what is still owed.
  const receipt = page.getByRole('dialog');
  await expect(receipt.getByRole('heading', { name: en('receipt.title'), exact: true })).toBeVisible();
  await expect(receipt.getByText('UTR998877')).toBeVisible();
  await expect(receipt.getByText('₹8,000')).toBeVisible();
  await receipt.getByRole('button', { name: en('common.close') }).click();
  await expect.poll(() => rupeesIn(page, totals, en('emi.outstanding'))).toBe('₹8,000');

  // The dashboard moved: today's collections include the Rs 4,000.
  await page.getByRole('button', { name: en('nav.openMenu') }).click();
  await page.getByRole('navigation', { name: en('nav.menu') }).getByRole('link', { name: en('nav.dashboard') }).click();
  await expect.poll(async () => collections.locator('strong').first().innerText()).not.toBe(collectedBefore);
});
