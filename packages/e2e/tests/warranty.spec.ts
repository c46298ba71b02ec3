/**
 * Extended warranty in the console: a warranty sold for a financed customer's phone from their details (the form
 * filled in from the customer, the required fields, an invoice outside the purchase window refused), its certificate
 * in another language, shared as an image (the share sheet, and the download where there is none) and printed
 * alone; the sale in the customer list's warranty list, following a sale made elsewhere without a reload and
 * cancelled with a reason; claims outside the rules refused with the server's words (another phone's IMEI, a defect
 * still under the brand's warranty); and a claim with a photo moved reported -> documents -> approved (the payable
 * shown) -> repaired, then listed on the customer's details.
 */
import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { RetailerApi } from '@kisht/agent/retailer-api';
import { addDays } from '@kisht/domain/calendar';
import { todayInIndia } from '@kisht/domain/format';
import { formatRupees } from '@kisht/domain/money';
import { withImeiCheckDigit } from '@kisht/domain/imei';
import { claimPayout, type WarrantyRules } from '@kisht/domain/warranty';
import { APP_SECRET, BASE_URL } from '../playwright.config.ts';
import { cameraPhoto, en, passMpin, signInWithOtp, text } from './fixtures.ts';
import { navigateInApp, runOperator } from './console-screens.ts';

/**
 * Meena Iyer, a demo retailer of organisation 46 with extended warranty keys. No journey after this file signs in
 * as her; the shell journey (before it) sets her MPIN to 3691, so that is hers here too.
 */
const SELLER = '9812345678';
const SELLER_MPIN = '3691';
const TODAY = todayInIndia();
const IMEI = withImeiCheckDigit(`3581${String(Date.now()).slice(-10)}`);
const OTHER_IMEI = withImeiCheckDigit(`3581${String(Date.now() + 7).slice(-10)}`);

interface Plan {
  id: number;
  name: string;
  rules: WarrantyRules;
}
interface Sale {
  id: number;
  certificate_no: string;
  imei: string;
  invoice_value_paise: number;
  invoice_date: string;
  rules: WarrantyRules;
}

let plans: Plan[] = [];
let contract: Plan;
let insurance: Plan;
let customerId = 0;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const api = new RetailerApi(BASE_URL, 'warranty journey');
  await api.signIn(`+91${SELLER}`);
  try {
    plans = await api.request<Plan[]>('GET', '/api/customer/get_plans_warranty');
    contract = plans.find((p) => p.rules.cover_kind === 'service_contract')!;
    insurance = plans.find((p) => p.rules.cover_kind === 'insurance')!;
    const products = await api.request<Array<{ id: number; product_type: number }>>('GET', '/api/products');
    const { customer } = await api.request<{ customer: { id: number } }>('POST', '/api/customer', {
      first_name: 'Lakshmi', last_name: 'Narayanan', mobile: '+919812377701', device_brand: 'Vivo', device_model: 'Y28s 5G', imei1: IMEI,
      provisioning_type: 0, product_id: products.find((p) => p.product_type === 0)!.id, price_paise: 1_599_900, down_payment_paise: 300_000,
      annual_rate_bps: 1400, interest_method: 'flat', tenure_months: 6, start_date: TODAY, first_due_date: addDays(TODAY, 30),
    });
    customerId = customer.id;
  } finally {
    await api.signOut();
  }
  expect(contract).toBeTruthy();
  expect(insurance).toBeTruthy();
});

async function signIn(page: Page, request: Parameters<typeof signInWithOtp>[1]) {
  await signInWithOtp(page, request, SELLER);
  await passMpin(page, SELLER_MPIN);
  // A new browser's first "ready to work offline" toast would take the place of the toasts this journey reads (one
  // toast at a time): let it come, and close it.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const offlineReady = page.getByRole('status').filter({ hasText: en('pwa.offlineReady') });
  if (await offlineReady.waitFor({ timeout: 5_000 }).then(() => true, () => false)) await offlineReady.getByRole('button', { name: en('common.close') }).click();
}

test('a retailer sells a warranty for a customer, shares its certificate, finds it in the list and is refused claims outside the rules', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signIn(page, request);
  await expect(page.getByRole('link', { name: en('warranty.nav') }).first()).toHaveAttribute('href', '/extended-warranty');

  // From the customer's details: no plans yet, and Sell extended warranty opens the form filled in from the customer.
  await navigateInApp(page, `/customer-details/${customerId}`);
  const plansSection = page.getByRole('region', { name: en('warranty.plans.title') });
  await expect(plansSection.getByText(en('warranty.plans.none'))).toBeVisible();
  await plansSection.getByRole('link', { name: en('warranty.nav') }).click();
  await expect(page).toHaveURL(new RegExp(`/extended-warranty\\?customer_id=${customerId}$`));
  await expect(page.getByText(en('warranty.sell.forCustomer', { name: 'Lakshmi Narayanan' }))).toBeVisible();
  await expect(page.getByLabel(en('addCustomer.firstName'))).toHaveValue('Lakshmi');
  await expect(page.getByLabel(en('addCustomer.mobile'), { exact: true })).toHaveValue('9812377701');
  await expect(page.getByLabel(en('warranty.certificate.imei'), { exact: true })).toHaveValue(IMEI);
  await expect(page.getByLabel(en('device.brand'))).toHaveValue('Vivo');
  await expect(page.getByLabel(en('device.model'))).toHaveValue('Y28s 5G');

  // The plan's rules in plain words.
  await page.getByLabel(en('warranty.plan'), { exact: true }).selectOption({ label: contract.name });
  const rules = page.getByRole('region', { name: en('warranty.rules.title') });
  await expect(rules).toContainText(en('warranty.rules.serviceContract'));
  await expect(rules).toContainText(en('warranty.rules.window', { days: String(contract.rules.purchase_window_days) }));
  await expect(rules).toContainText(en('warranty.rules.claims', { count: String(contract.rules.max_claims) }));

  // The invoice is missing: the required-field message, and the focus on the first field missing.
  const sell = page.getByRole('button', { name: en('warranty.sell.submit') });
  await sell.click();
  await expect(page.getByText(en('common.required')).first()).toBeVisible();
  await expect(page.getByLabel(en('warranty.certificate.invoiceValue'))).toBeFocused();
  await page.getByLabel(en('warranty.certificate.invoiceValue')).fill('15,999.50');
  const invoiceDate = page.getByLabel(en('warranty.certificate.invoiceDate'));
  await invoiceDate.fill(addDays(TODAY, 1));
  await sell.click();
  await expect(page.getByText(en('validation.not_future_date'))).toBeVisible();

  // An invoice older than the purchase window: the server refuses, in its words.
  await invoiceDate.fill(addDays(TODAY, -(contract.rules.purchase_window_days + 5)));
  await sell.click();
  await expect(page.getByRole('alert').filter({ hasText: en('errors.WARRANTY_PURCHASE_WINDOW_CLOSED') })).toBeVisible();
  await expect(page.getByText(en('errors.WARRANTY_PURCHASE_WINDOW_CLOSED')).last()).toBeVisible();

  // Sold: the server's message, and the sale with its certificate in place of the form.
  await invoiceDate.fill(addDays(TODAY, -2));
  await expect(page.getByText(en('warranty.sell.lastSaleDay', { date: addDays(TODAY, contract.rules.purchase_window_days - 2).split('-').reverse().join('-') }))).toBeVisible();
  await sell.click();
  await expect(page.getByRole('status').filter({ hasText: en('messages.WARRANTY_SOLD') })).toBeVisible();
  await expect(page).toHaveURL(/\/extended-warranty\?sale_id=\d+$/);
  const saleId = Number(new URL(page.url()).searchParams.get('sale_id'));
  await expect(page.getByRole('heading', { name: en('warranty.sale.title'), level: 1 })).toBeVisible();
  const certificate = page.getByRole('article', { name: en('warranty.certificate.title') });
  await expect(certificate).toContainText('Lakshmi Narayanan');
  await expect(certificate).toContainText(IMEI);
  await expect(certificate).toContainText('₹15,999.50');
  await expect(certificate).toContainText(en('warranty.certificate.notes.serviceContract'));
  const certificateNo = (await certificate.getByText(/^KW-\d{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/).first().innerText()).trim();
  await expect(page.getByRole('article', { name: 'Lakshmi Narayanan' })).toContainText(en('warranty.state.in_cover'));
  // Back does not return to the form that sold it.
  await page.goBack();
  await expect(page).not.toHaveURL(/customer_id=/);
  await page.goForward();
  await expect(page).toHaveURL(new RegExp(`sale_id=${saleId}$`));

  // The certificate in the customer's other language: every word of it, headings included.
  await page.getByLabel(en('warranty.cert.language')).selectOption('tm');
  const tamil = page.getByRole('article', { name: text('tm', 'warranty.certificate.title') });
  await expect(tamil).toContainText(text('tm', 'warranty.certificate.sections.covers'));
  await expect(tamil).toContainText(certificateNo);
  await page.getByLabel(en('warranty.cert.language')).selectOption('en');
  await expect(certificate).toBeVisible();

  // Share: the phone's share sheet gets the certificate as a PNG file.
  await page.evaluate(() => {
    const w = window as unknown as { shared?: { name: string; type: string; bytes: string } };
    Object.defineProperty(navigator, 'canShare', { configurable: true, value: (data: ShareData) => Boolean(data.files?.length) });
    Object.defineProperty(navigator, 'share', {
      configurable: true,
      value: async (data: ShareData) => {
        const file = data.files![0]!;
        const bytes = new Uint8Array(await file.arrayBuffer());
        let binary = '';
        for (const b of bytes) binary += String.fromCharCode(b);
        w.shared = { name: file.name, type: file.type, bytes: btoa(binary) };
      },
    });
  });
  await page.getByRole('button', { name: en('warranty.cert.share') }).click();
  const shared = await page.waitForFunction(() => (window as unknown as { shared?: unknown }).shared).then((h) => h.jsonValue() as Promise<{ name: string; type: string; bytes: string }>);
  expect(shared).toMatchObject({ name: `warranty-${certificateNo}.png`, type: 'image/png' });
  const png = PNG.sync.read(Buffer.from(shared.bytes, 'base64'));
  expect(png.width).toBe(1080);
  expect(png.height).toBeGreaterThan(1200);

  // No share sheet (the app shell's WebView): the image to download instead.
  await page.evaluate(() => {
    Object.defineProperty(navigator, 'canShare', { configurable: true, value: undefined });
    Object.defineProperty(navigator, 'share', { configurable: true, value: undefined });
  });
  await page.getByRole('button', { name: en('warranty.cert.share') }).click();
  const save = page.getByRole('dialog', { name: en('warranty.cert.saveTitle') });
  await expect(save.getByRole('img', { name: en('warranty.cert.imageAlt', { number: certificateNo }) })).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), save.getByRole('link', { name: en('warranty.cert.download') }).click()]);
  expect(download.suggestedFilename()).toBe(`warranty-${certificateNo}.png`);
  await save.getByRole('button', { name: en('common.close') }).click();
  await expect(save).toBeHidden();

  // Print: the certificate alone on the paper.
  await page.evaluate(() => {
    const w = window as unknown as { printed: number };
    w.printed = 0;
    window.print = () => {
      w.printed += 1;
    };
  });
  await page.getByRole('button', { name: en('warranty.cert.print') }).click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  await page.emulateMedia({ media: 'print' });
  await expect(certificate).toBeVisible();
  await expect(page.getByRole('heading', { name: en('warranty.claim.heading') })).toBeHidden();
  await expect(page.getByRole('button', { name: en('warranty.cert.share') })).toBeHidden();
  await page.emulateMedia({ media: 'screen' });

  // Claims outside the rules: another phone's IMEI, then a defect still under the brand's warranty.
  await page.getByRole('button', { name: en('warranty.claim.raise') }).click();
  const claim = page.getByRole('dialog', { name: en('warranty.claim.title') });
  await claim.getByRole('button', { name: en('warranty.claim.submit') }).click();
  await expect(claim.getByText(en('common.required')).first()).toBeVisible();
  await expect(claim.getByText(en('warranty.claim.photosRequired'))).toBeVisible();
  await claim.getByLabel(en('warranty.claim.imei')).fill(OTHER_IMEI);
  await expect(claim.getByLabel(en('warranty.claim.cause.label'))).toHaveValue('defect');
  await claim.getByLabel(en('warranty.claim.description')).fill('Stops charging; the port is loose.');
  await claim
    .getByRole('group', { name: en('warranty.claim.addPhoto', { number: '1', max: '5' }) })
    .locator('input[type=file]:not([capture])')
    .setInputFiles({ name: 'port.jpg', mimeType: 'image/jpeg', buffer: await cameraPhoto(page) });
  await expect(claim.getByRole('img', { name: en('warranty.claim.photoAlt', { number: '1' }) })).toBeVisible();
  await claim.getByRole('button', { name: en('warranty.claim.submit') }).click();
  await expect(page.getByRole('alert').filter({ hasText: en('errors.WARRANTY_IMEI_MISMATCH') })).toBeVisible();
  await expect(claim.getByText(en('errors.WARRANTY_IMEI_MISMATCH'))).toBeVisible();
  await claim.getByLabel(en('warranty.claim.imei')).fill(IMEI);
  await claim.getByRole('button', { name: en('warranty.claim.submit') }).click();
  await expect(page.getByRole('alert').filter({ hasText: en('errors.WARRANTY_NOT_COVERED') })).toBeVisible();
  await expect(claim.getByText(en('errors.WARRANTY_NOT_COVERED'))).toBeVisible();
  await claim.getByRole('button', { name: en('common.cancel') }).click();
  await expect(claim).toBeHidden();
  await expect(page.getByRole('region', { name: en('warranty.claim.heading') })).toContainText(en('warranty.claim.none'));

  // The warranty list in the customer list, searched by certificate number.
  await page.getByRole('link', { name: en('warranty.sale.allSales') }).click();
  await expect(page).toHaveURL(/\/customers\?tab=warranty$/);
  await expect(page.getByRole('tab', { name: en('warranty.list.tab') })).toHaveAttribute('aria-selected', 'true');
  await page.getByLabel(en('customers.searchLabel')).fill(certificateNo.toLowerCase());
  await expect(page.getByText(en('customers.total', { count: '1' }))).toBeVisible();
  const row = page.getByRole('listitem').filter({ hasText: 'Lakshmi Narayanan' });
  await expect(row).toContainText('Vivo Y28s 5G');
  await expect(row).toContainText(contract.name);
  await expect(row).toContainText(en('warranty.state.in_cover'));
  await expect(row).toContainText(en('warranty.list.claims', { used: '0', max: String(contract.rules.max_claims) }));

  // A sale made elsewhere (another session) shows in the open list without a reload: the warranty event.
  await page.getByLabel(en('customers.searchLabel')).fill('');
  await expect(page.getByText(en('customers.total', { count: '1' }))).toBeVisible();
  const elsewhere = new RetailerApi(BASE_URL, 'warranty counter tablet');
  await elsewhere.signIn(`+91${SELLER}`);
  try {
    await elsewhere.request('POST', '/api/customer/extended_warranty', {
      plan_id: insurance.id, first_name: 'Arumugam', last_name: 'Selvaraj', mobile: '+919812377702', imei: withImeiCheckDigit(`3581${String(Date.now() + 11).slice(-10)}`),
      brand: 'Samsung', model: 'Galaxy M15', invoice_value_paise: 1_299_900, invoice_date: TODAY,
    });
  } finally {
    await elsewhere.signOut();
  }
  const waiting = page.getByRole('listitem').filter({ hasText: 'Arumugam Selvaraj' });
  await expect(waiting).toContainText(en('warranty.state.waiting'));
  await expect(page.getByText(en('customers.total', { count: '2' }))).toBeVisible();

  // In its waiting period it takes no claim yet; cancelling it needs a reason.
  await waiting.getByRole('link', { name: en('warranty.list.details') }).click();
  await expect(page.getByText(en('warranty.sale.claimsFrom', { date: addDays(TODAY, insurance.rules.waiting_days).split('-').reverse().join('-') }))).toBeVisible();
  await expect(page.getByRole('button', { name: en('warranty.claim.raise') })).toHaveCount(0);
  await page.getByRole('button', { name: en('warranty.revoke.button') }).click();
  const revoke = page.getByRole('dialog', { name: en('warranty.revoke.title') });
  await revoke.getByRole('button', { name: en('warranty.revoke.confirm') }).click();
  await expect(revoke.getByText(en('common.required'))).toBeVisible();
  await revoke.getByLabel(en('warranty.revoke.reason')).fill('Customer returned the phone');
  await revoke.getByRole('button', { name: en('warranty.revoke.confirm') }).click();
  await expect(revoke).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: en('messages.WARRANTY_REVOKED') })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Arumugam Selvaraj' })).toContainText(en('warranty.state.revoked'));
  await expect(page.getByRole('article', { name: en('warranty.certificate.title') })).toContainText(en('warranty.certificate.notes.revoked', { date: TODAY.split('-').reverse().join('-') }));
});

/**
 * A claim the rules allow on the day: the operator sets the insurance plan's waiting period to 0 days, and a phone
 * sold that plan (through the API, as the counter tablet above did) can claim accidental damage at once. Every
 * request goes to the server.
 */
test('a claim with a photo moves from reported to repaired, its payable shown, and shows on the customer details', async ({ page, request }) => {
  test.setTimeout(120_000);
  await runOperator(BASE_URL, APP_SECRET, ['warranty-rules', String(insurance.id), 'waiting_days=0']);
  const api = new RetailerApi(BASE_URL, 'warranty claim journey');
  await api.signIn(`+91${SELLER}`);
  let sale: Sale;
  try {
    sale = await api.request<Sale>('POST', '/api/customer/extended_warranty', {
      plan_id: insurance.id, customer_id: customerId, first_name: 'Lakshmi', last_name: 'Narayanan', mobile: '+919812377701', imei: IMEI,
      brand: 'Vivo', model: 'Y28s 5G', invoice_value_paise: 1_599_950, invoice_date: addDays(TODAY, -2),
    });
  } finally {
    await api.signOut();
  }
  // The sale keeps the rules it was sold under: no waiting.
  expect(sale.rules.waiting_days).toBe(0);
  expect(sale.rules.covers_accidental).toBe(true);

  await signIn(page, request);
  await navigateInApp(page, `/extended-warranty?sale_id=${sale.id}`);
  await page.getByRole('button', { name: en('warranty.claim.raise') }).click();
  const dialog = page.getByRole('dialog', { name: en('warranty.claim.title') });
  await dialog.getByLabel(en('warranty.claim.imei')).fill(sale.imei);
  await dialog.getByLabel(en('warranty.claim.cause.label')).selectOption('accidental');
  await dialog.getByLabel(en('warranty.claim.description')).fill('Dropped on the road; the screen is cracked across.');
  await dialog
    .getByRole('group', { name: en('warranty.claim.addPhoto', { number: '1', max: '5' }) })
    .locator('input[type=file]:not([capture])')
    .setInputFiles({ name: 'port.jpg', mimeType: 'image/jpeg', buffer: await cameraPhoto(page) });
  await expect(dialog.getByRole('img', { name: en('warranty.claim.photoAlt', { number: '1' }) })).toBeVisible();
  await dialog.getByRole('button', { name: en('warranty.claim.submit') }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: en('messages.CLAIM_RAISED') })).toBeVisible();

  const claimsCard = page.getByRole('region', { name: en('warranty.claim.heading') });
  const item = claimsCard.getByRole('listitem').filter({ hasText: en('warranty.claim.cause.accidental') }).first();
  await expect(item).toContainText(en('warranty.claim.state.intimated'));
  // The photo, read back from the server.
  await expect(item.getByRole('img', { name: en('warranty.claim.photoAlt', { number: '1' }) })).toBeVisible();
  // Only the next steps are offered.
  await expect(item.getByRole('button')).toHaveText([en('warranty.claim.move.documents'), en('warranty.claim.move.rejected')]);

  async function move(step: string, fill?: (dialog: ReturnType<Page['getByRole']>) => Promise<void>) {
    await item.getByRole('button', { name: step }).click();
    const moving = page.getByRole('dialog', { name: step });
    await fill?.(moving);
    await moving.getByRole('button', { name: step }).click();
    await expect(moving).toBeHidden();
  }
  await move(en('warranty.claim.move.documents'));
  await expect(item).toContainText(en('warranty.claim.state.documents'));
  await expect(item.getByRole('button')).toHaveText([en('warranty.claim.move.approved'), en('warranty.claim.move.rejected')]);

  // Rejecting needs a reason (left without rejecting).
  await item.getByRole('button', { name: en('warranty.claim.move.rejected') }).click();
  const reject = page.getByRole('dialog', { name: en('warranty.claim.move.rejected') });
  await reject.getByRole('button', { name: en('warranty.claim.move.rejected') }).click();
  await expect(reject.getByText(en('common.required'))).toBeVisible();
  await reject.getByRole('button', { name: en('common.cancel') }).click();

  // Approving needs the assessed cost; the payable amount is what the plan's rules make of it.
  const payout = claimPayout(sale.rules, { invoice_value_paise: sale.invoice_value_paise, assessed_cost_paise: 450_050, invoice_date: sale.invoice_date, claim_date: TODAY });
  await move(en('warranty.claim.move.approved'), async (approve) => {
    await approve.getByRole('button', { name: en('warranty.claim.move.approved') }).click();
    await expect(approve.getByText(en('common.required'))).toBeVisible();
    await approve.getByLabel(en('warranty.claim.assessedCost')).fill('4,500.50');
    await expect(approve.getByText(en('warranty.claim.payablePreview', { payable: formatRupees(payout.payable_paise), deductible: formatRupees(payout.deductible_paise), limit: formatRupees(payout.cover_limit_paise) }))).toBeVisible();
  });
  await expect(item).toContainText(en('warranty.claim.state.approved'));
  await expect(item).toContainText(formatRupees(payout.payable_paise));
  await expect(item.getByRole('button')).toHaveText([en('warranty.claim.move.repaired'), en('warranty.claim.move.replaced'), en('warranty.claim.move.settled')]);
  await move(en('warranty.claim.move.repaired'));
  await expect(item).toContainText(en('warranty.claim.state.repaired'));
  await expect(item.getByRole('button')).toHaveCount(0);
  // Each step with who moved it.
  const history = item.getByRole('list', { name: en('warranty.claim.history') }).getByRole('listitem');
  await expect(history).toHaveCount(4);
  await expect(history.last()).toContainText(en('warranty.claim.by', { name: 'Meena Iyer' }));

  // The customer's details list the plan and its claim.
  await navigateInApp(page, `/customer-details/${customerId}`);
  const plansSection = page.getByRole('region', { name: en('warranty.plans.title') });
  await expect(plansSection).toContainText(contract.name);
  await expect(plansSection).toContainText(insurance.name);
  await expect(plansSection).toContainText(sale.certificate_no);
  await expect(plansSection).toContainText(en('warranty.claim.state.repaired'));
  await expect(plansSection).toContainText(en('warranty.plans.payable', { amount: formatRupees(payout.payable_paise) }));
});
