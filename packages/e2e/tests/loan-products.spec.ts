/**
 * Loan products (issue 15): the retailer picks one at enrolment and sees its schedule and Key Fact Statement
 * live; the loan keeps them, and the EMI plan shows them and shares the KFS with the customer in their language.
 */
import { expect, test } from '@playwright/test';
import { addPhotoAndSignature, en, imeiFromClock, passMpin, signInWithOtp, text, valueAfter as valueIn } from './fixtures.ts';

test('a retailer sells a phone on the no-cost EMI product: price / 6 a month, GST and APR shown before and after', async ({ page, request, context }) => {
  test.setTimeout(120_000);
  const imei = imeiFromClock();
  await signInWithOtp(page, request, '9876543210');
  await passMpin(page);

  await page.getByRole('button', { name: en('nav.openMenu') }).click();
  await page.getByRole('navigation', { name: en('nav.menu') }).getByRole('link', { name: en('nav.addCustomer') }).click();
  await page.getByLabel(en('addCustomer.firstName')).fill('Lakshmi');
  await page.getByLabel(en('addCustomer.lastName')).fill('Venkataraman');
  await page.getByLabel(en('addCustomer.mobile'), { exact: true }).fill('9123412399');
  await page.getByRole('button', { name: en('common.next') }).click();
  await page.getByLabel(en('device.brand')).selectOption({ label: 'Samsung' });
  await page.getByLabel(en('device.model')).fill('Galaxy S24 FE');
  await page.getByLabel(en('device.imei1')).fill(imei);
  await page.getByLabel(en('device.provisioning')).selectOption('0');
  await page.getByRole('button', { name: en('common.next') }).click();

  await page.getByLabel(en('addCustomer.product'), { exact: true }).selectOption({ index: 1 });
  await page.getByLabel(en('loan.price'), { exact: true }).fill('30000');
  await page.getByLabel(en('loan.downPayment')).fill('0');
  await page.getByLabel(en('addCustomer.ratePerYear')).fill('16');
  await page.getByLabel(en('addCustomer.tenureMonths')).fill('6');
  // The standard EMI first: no APR or GST in the preview.
  const preview = en('addCustomer.preview.title');
  await expect.poll(() => valueIn(page, preview, en('loan.emi'))).toBe('₹5,236');
  await expect(page.getByRole('region', { name: preview }).getByText(en('addCustomer.preview.apr'))).toHaveCount(0);

  // A weekly product asks for the number of instalments, and says how it is paid.
  const productSelect = page.getByLabel(en('addCustomer.loanProduct'));
  await productSelect.selectOption({ label: 'Weekly pay-as-you-go' });
  await expect(page.getByLabel(en('addCustomer.instalmentCount'))).toBeVisible();
  await expect(page.getByText(`${en('loanProduct.each.week')} · ${en('loan.method.reducing')}`)).toBeVisible();
  await expect(page.getByRole('group', { name: en('loan.methodLabel') })).toHaveCount(0);

  // The no-cost product: Rs 5,000 a month, GST on the interest, a discount, and an APR.
  await productSelect.selectOption({ label: 'No-cost EMI (GST on interest)' });
  await expect(page.getByText(`${en('loanProduct.each.month')} · ${en('loanProduct.noCost')}`)).toBeVisible();
  await expect.poll(() => valueIn(page, preview, en('loan.emi'))).toBe('₹5,000');
  const apr = await valueIn(page, preview, en('addCustomer.preview.apr'));
  expect(apr).toMatch(/^\d+\.\d{2}%$/);
  const gst = await valueIn(page, preview, en('addCustomer.preview.gst'));
  expect(gst).toMatch(/^₹\d/);
  await expect(page.getByRole('region', { name: preview }).getByText(en('addCustomer.preview.discount'), { exact: true })).toBeVisible();
  await page.getByRole('button', { name: en('common.next') }).click();

  await addPhotoAndSignature(page);
  await page.getByRole('button', { name: en('addCustomer.submit') }).click();
  await expect(page).toHaveURL(/\/customer-(details|documents)\/\d+/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Lakshmi Venkataraman' })).toBeVisible();

  // The EMI plan: the product, its exact rate, the same APR and GST as the preview promised.
  await page.getByRole('link', { name: en('customerDetails.emiPlan') }).click();
  await expect(page.getByText('No-cost EMI (GST on interest)')).toBeVisible();
  await expect(page.getByText(en('loan.ratePerYear', { rate: '16' }))).toBeVisible();
  const plan = page.getByRole('main');
  await expect(plan.getByText(en('addCustomer.preview.apr'), { exact: true }).locator('xpath=following-sibling::*[1]')).toHaveText(apr);
  await expect(plan.getByText(en('addCustomer.preview.gst'), { exact: true }).locator('xpath=following-sibling::*[1]')).toHaveText(gst);

  // Share KFS: the share sheet gets the Key Fact Statement as text, with the APR and GST the page shows.
  await page.evaluate(() => {
    const w = window as unknown as { shared: ShareData[] };
    w.shared = [];
    Object.defineProperty(navigator, 'share', { configurable: true, value: async (data: ShareData) => void w.shared.push(data) });
  });
  const lastShared = async (count: number) => {
    await page.waitForFunction((n) => (window as unknown as { shared: ShareData[] }).shared.length === n, count);
    return page.evaluate(() => (window as unknown as { shared: ShareData[] }).shared.at(-1) as { title: string; text: string });
  };
  const shareKfs = plan.getByRole('button', { name: en('kfs.share'), exact: true });
  await shareKfs.click();
  const english = await lastShared(1);
  expect(english.title).toBe(en('kfs.title'));
  expect(english.text).toContain(en('kfs.text.apr', { apr }));
  expect(english.text).toContain(en('kfs.text.gst', { amount: gst }));
  expect(english.text.split('\n')[0]).toContain('Lakshmi Venkataraman');
  expect(english.text).toContain(en('kfs.text.schedule'));

  // In the customer's language (its dictionary loaded on demand): the same figures, in Hindi words.
  await plan.getByLabel(en('kfs.language')).selectOption('hn');
  await shareKfs.click();
  const hindi = await lastShared(2);
  expect(hindi.title).toBe(text('hn', 'kfs.title'));
  expect(hindi.text).toContain(text('hn', 'kfs.text.apr', { apr }));
  expect(hindi.text).toContain(text('hn', 'kfs.text.gst', { amount: gst }));
  await expect(page.getByRole('button', { name: en('kfs.share'), exact: true })).toBeVisible(); // the screen stays in English

  // No share sheet (the app shell's WebView): the text is copied, and a toast says so.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate(() => Object.defineProperty(navigator, 'share', { configurable: true, value: undefined }));
  await shareKfs.click();
  await expect(page.getByRole('status').filter({ hasText: en('kfs.copied') })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(hindi.text);
});
